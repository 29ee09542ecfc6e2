import { z } from 'zod';

/**
 * What a personal API token may be granted (`?feed=developer`). Each scope opens a group of
 * endpoints (api-scopes.ts, the one table); an endpoint of no scope is never reachable by a token.
 */
export const API_SCOPES = [
  'read:profile',
  'write:profile',
  'read:posts',
  'write:posts',
  'read:messages',
  'write:messages',
  'read:notifications',
  'read:wallet',
  'read:statistics',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** Every personal API token starts with this, so a leaked one is recognisable (secret scanners). */
export const API_TOKEN_PREFIX = 'fv_';
/** Live (not revoked) tokens one account may hold. */
export const API_TOKEN_MAX = 20;
/** Expiries the web offers, in days (the API takes any whole number from 1 to 365, or none). */
export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;

export const apiTokenCreateSchema = z.object({
  name: z.string({ error: 'required' }).trim().min(1, 'required').max(60, 'tooLong'),
  scopes: z
    .array(z.enum(API_SCOPES, { error: 'invalid' }), { error: 'required' })
    .min(1, 'required')
    .max(API_SCOPES.length, 'invalid')
    .transform((scopes) => [...new Set(scopes)]),
  /** Days until the token stops working; null: until revoked. */
  expiresInDays: z
    .number({ error: 'invalid' })
    .int('invalid')
    .min(1, 'invalid')
    .max(365, 'invalid')
    .nullable()
    .default(30),
});
export type ApiTokenCreateRequest = z.input<typeof apiTokenCreateSchema>;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The token's first characters (`fv_AbCd`), to tell tokens apart; the token itself is never shown again. */
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokensResponseSchema = z.object({ tokens: z.array(apiTokenSchema) });
export type ApiTokensResponse = z.infer<typeof apiTokensResponseSchema>;

/** Answered once, at creation: `token` is the secret, stored only as its SHA-256. */
export const apiTokenCreatedSchema = z.object({ token: z.string(), apiToken: apiTokenSchema });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

export const developerEndpoints = {
  'developer.tokens': {
    method: 'GET',
    path: '/developer/tokens',
    output: apiTokensResponseSchema,
    auth: 'required',
    summary: 'Your personal API tokens (developer role): name, scopes, expiry, last use; never the secret.',
  },
  'developer.createToken': {
    method: 'POST',
    path: '/developer/tokens',
    input: apiTokenCreateSchema,
    output: apiTokenCreatedSchema,
    auth: 'required',
    summary:
      'Create a personal API token with scopes and an optional expiry (developer role, signed-in session only); the secret is answered this once.',
  },
  'developer.revokeToken': {
    method: 'POST',
    path: '/developer/tokens/:id/revoke',
    params: z.object({ id: z.string().uuid('NOT_FOUND') }),
    output: z.object({ success: z.literal(true) }),
    auth: 'required',
    summary: 'Revoke one of your API tokens: it stops working at once.',
  },
} as const;
