import { z } from 'zod';
import { LIMITS, ROLES } from '../constants.ts';
import { birthdateSchema, emailSchema, nameSchema, passwordSchema, usernameSchema } from '../validation.ts';

export const roleSchema = z.enum(ROLES);

/** The session user (spec §3). */
export const sessionUserSchema = z.object({
  _id: z.string(),
  id: z.string(),
  user: z.string(),
  name: z.string(),
  email: z.string(),
  country: z.string().nullable(),
  roles: z.array(roleSchema),
  verified: z.boolean(),
  avatar: z.string().nullable(),
  language: z.enum(['en', 'es']),
  subscriptions: z.array(z.object({ creator: z.string(), DynamicPricingID: z.string().nullable() })),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const authResponseSchema = z.object({ token: z.string(), user: sessionUserSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const signupRequestSchema = z.object({
  username: usernameSchema,
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  birthdate: birthdateSchema,
  acceptTerms: z.literal(true, { error: 'terms.required' }),
  /** Referral code of the person who invited this user, when any. */
  referral: z.string().trim().max(40).optional(),
});
export type SignupRequest = z.input<typeof signupRequestSchema>;

export const loginRequestSchema = z.object({
  login: z.string({ error: 'required' }).trim().min(1, 'required').max(LIMITS.emailMax, 'tooLong'),
  password: z.string({ error: 'required' }).min(1, 'required').max(LIMITS.passwordMax, 'password.length'),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const resetCodeRequestSchema = z.object({ email: emailSchema });
export type ResetCodeRequest = z.input<typeof resetCodeRequestSchema>;

/**
 * The reset step names the account (its email, as in the code request and the mail's link), so a
 * code is only ever compared with that one account's code.
 */
export const resetPasswordRequestSchema = z.object({
  email: emailSchema,
  code: z
    .string({ error: 'required' })
    .trim()
    .min(1, 'required')
    .regex(new RegExp(`^\\d{${LIMITS.resetCodeLength}}$`), 'code.invalid'),
  password: passwordSchema,
});
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

export const okResponseSchema = z.object({ success: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;

/**
 * Email confirmation (the verified flag): the mail's link carries a long token (no session needed),
 * or the signed-in person types the 6-digit code.
 */
export const confirmEmailRequestSchema = z
  .object({
    code: z
      .string()
      .trim()
      .regex(new RegExp(`^\\d{${LIMITS.resetCodeLength}}$`), 'code.invalid')
      .optional(),
    token: z.string().trim().min(20, 'code.invalid').max(200, 'code.invalid').optional(),
  })
  .refine((v) => !!v.code || !!v.token, { message: 'required', path: ['code'] });
export type ConfirmEmailRequest = z.input<typeof confirmEmailRequestSchema>;

export const confirmEmailResponseSchema = z.object({
  verified: z.literal(true),
  /** Free credits granted by this confirmation (0 when granted before). */
  freeCredits: z.number().int().nonnegative(),
});
export type ConfirmEmailResponse = z.infer<typeof confirmEmailResponseSchema>;

/** One signed-in device of the account (the devices page). */
export const sessionDeviceSchema = z.object({
  id: z.string().uuid(),
  /** The session of this very request. */
  current: z.boolean(),
  device: z.object({
    browser: z.string().nullable(),
    os: z.string().nullable(),
    type: z.enum(['desktop', 'mobile', 'tablet', 'tv', 'unknown']),
  }),
  /** The address the session signed in from (no geolocation service is asked). */
  address: z.string().nullable(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
});
export type SessionDevice = z.infer<typeof sessionDeviceSchema>;

export const sessionsResponseSchema = z.object({ items: z.array(sessionDeviceSchema) });
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>;

export const revokeOthersResponseSchema = z.object({ revoked: z.number().int().nonnegative() });

/** A password login answers a session, or, with two-step sign-in on, a challenge for the second step. */
export const loginResponseSchema = z.union([
  authResponseSchema,
  z.object({
    twoFactor: z.object({ challenge: z.string(), methods: z.array(z.enum(['totp', 'recovery'])) }),
  }),
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

const totpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'code.invalid');
const recoveryCodeSchema = z.string().trim().min(8, 'code.invalid').max(20, 'code.invalid');

/** The second step: the current authenticator code, or one recovery code. */
export const twoFactorRequestSchema = z
  .object({
    challenge: z.string().min(20).max(200),
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
  })
  .refine((v) => !!v.code || !!v.recoveryCode, { message: 'required', path: ['code'] });
export type TwoFactorRequest = z.input<typeof twoFactorRequestSchema>;

export const totpSetupResponseSchema = z.object({
  /** Base32 secret, for typing by hand when the QR code cannot be scanned. */
  secret: z.string(),
  uri: z.string(),
  /** The otpauth URI as a PNG data URL. */
  qr: z.string(),
});
export const totpEnableRequestSchema = z.object({ code: totpCodeSchema });
export const totpEnableResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export const twoFactorDisableRequestSchema = z
  .object({
    password: z.string().min(1, 'required').max(LIMITS.passwordMax, 'password.length'),
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
  })
  .refine((v) => !!v.code || !!v.recoveryCode, { message: 'required', path: ['code'] });
/**
 * The web form that confirms the owner before new recovery codes or turning it off: one field for
 * an authenticator code or a recovery code (six digits are a code, anything else a recovery code).
 */
export const confirmOwnerFormSchema = z.object({
  password: z.string().min(1, 'required').max(LIMITS.passwordMax, 'password.length'),
  code: z.string().trim().min(6, 'code.invalid').max(20, 'code.invalid'),
});
export type ConfirmOwnerForm = z.output<typeof confirmOwnerFormSchema>;
export const confirmOwnerRequest = ({ password, code }: ConfirmOwnerForm) =>
  /^\d{6}$/.test(code) ? { password, code } : { password, recoveryCode: code };

export const twoFactorStatusSchema = z.object({ totp: z.boolean(), recoveryCodesLeft: z.number().int() });

/** Passkeys (WebAuthn): the browser's JSON answers are checked by the server's library, not here. */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeysResponseSchema = z.object({ items: z.array(passkeySchema) });
/** WebAuthn options for the browser (@simplewebauthn/browser), with the id of the stored challenge. */
export const passkeyOptionsResponseSchema = z.object({
  challengeId: z.string(),
  options: z.record(z.string(), z.unknown()),
});
export const passkeyAnswerSchema = z.object({
  challengeId: z.string().uuid('PASSKEY_EXPIRED'),
  response: z.record(z.string(), z.unknown()),
});

/** Social sign-in (ADR 0036): the providers this server offers, in button order. */
export const SIGN_IN_PROVIDERS = ['oidc', 'google', 'x'] as const;
export type SignInProviderId = (typeof SIGN_IN_PROVIDERS)[number];
const providerIdSchema = z.enum(SIGN_IN_PROVIDERS);

export const signInProvidersResponseSchema = z.object({
  items: z.array(z.object({ id: providerIdSchema, name: z.string() })),
});
export type SignInProvidersResponse = z.infer<typeof signInProvidersResponseSchema>;

export const oidcStartRequestSchema = z.object({
  provider: providerIdSchema,
  /** `link` adds the provider to the signed-in account (security page). */
  intent: z.enum(['login', 'link']),
});
export const oidcStartResponseSchema = z.object({
  /** Where to send the popup (or the page): the provider's authorization URL. */
  url: z.string().url(),
  /** A secret this browser keeps and sends back with the callback (binds the return to it). */
  browserKey: z.string(),
});
export type OidcStartResponse = z.infer<typeof oidcStartResponseSchema>;

export const oidcCallbackRequestSchema = z.object({
  /** The query string the provider sent back to /auth/oidc/callback (state, code or error, iss). */
  query: z.string().max(4000),
  browserKey: z.string().min(20).max(200),
});

/** A first sign-in with this provider account: the sign-up form is filled from the provider's claims. */
export const oidcSignupOfferSchema = z.object({
  ticket: z.string(),
  provider: providerIdSchema,
  providerName: z.string(),
  /** Spec §3's social login result. */
  profile: z.object({
    id: z.string(),
    name: z.string().nullable(),
    given_name: z.string().nullable(),
    family_name: z.string().nullable(),
    email: z.string().nullable(),
    picture: z.string().nullable(),
  }),
  /** The provider vouched for the email: the account starts verified. */
  emailVerified: z.boolean(),
  /** A free username suggestion from the profile. */
  username: z.string(),
});
export type OidcSignupOffer = z.infer<typeof oidcSignupOfferSchema>;

export const oidcCallbackResponseSchema = z.union([
  authResponseSchema,
  z.object({
    twoFactor: z.object({ challenge: z.string(), methods: z.array(z.enum(['totp', 'recovery'])) }),
  }),
  z.object({ signup: oidcSignupOfferSchema }),
  z.object({ linked: z.object({ provider: providerIdSchema }) }),
]);
export type OidcCallbackResponse = z.infer<typeof oidcCallbackResponseSchema>;

/** Finishing a first sign-in: what signup asks besides the provider's claims (an email only when it gave none). */
export const oidcSignupRequestSchema = z.object({
  ticket: z.string().min(20).max(200),
  username: usernameSchema,
  birthdate: birthdateSchema,
  acceptTerms: z.literal(true, { error: 'terms.required' }),
  email: emailSchema.optional(),
});
export type OidcSignupRequest = z.input<typeof oidcSignupRequestSchema>;

export const identitiesResponseSchema = z.object({
  items: z.array(
    z.object({
      provider: providerIdSchema,
      providerName: z.string(),
      email: z.string().nullable(),
      linkedAt: z.string(),
      /** False when it is the account's only way to sign in (no password, passkey or other provider). */
      removable: z.boolean(),
    }),
  ),
});
export type IdentitiesResponse = z.infer<typeof identitiesResponseSchema>;
export const providerParamSchema = z.object({ provider: z.enum(SIGN_IN_PROVIDERS, { error: 'NOT_FOUND' }) });
