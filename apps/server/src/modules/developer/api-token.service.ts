import { randomBytes } from 'node:crypto';
import {
  ADMIN_ROLES,
  API_SCOPES,
  API_TOKEN_MAX,
  API_TOKEN_PREFIX,
  type ApiScope,
  type ApiToken,
  type ApiTokenCreated,
  type ParsedInput,
} from '@fanverse/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { sha256 } from '../../lib/crypto.ts';
import { type RateLimiter, rateLimited } from '../../lib/rate-limiter.ts';
import type { ApiTokenRepository } from './api-token.repository.ts';

/** last_used_at is written at most once a minute per token. */
const TOUCH_INTERVAL_MS = 60_000;
/** Characters of the token kept to tell tokens apart in the list (`fv_` and 6 of the secret). */
const SHOWN_PREFIX = API_TOKEN_PREFIX.length + 6;

export interface ApiTokenDeps {
  tokens: ApiTokenRepository;
  limiter: RateLimiter;
  /** Calls per token and minute. */
  perMinute: number;
  now?: () => Date;
}

const isScope = (s: string): s is ApiScope => (API_SCOPES as readonly string[]).includes(s);

/** Does this bearer value look like a personal API token (rather than a session token)? */
export const isApiToken = (token: string): boolean => token.startsWith(API_TOKEN_PREFIX);

/**
 * Personal API tokens of developers (ADR 0034). A token is 256 random bits after `fv_`; only its
 * SHA-256 is stored and it is answered once, at creation. It authenticates as its user without
 * any staff role, only while the user keeps the developer role, and only for its scopes (checked
 * by the route layer against the contract's TOKEN_SCOPES table).
 */
export class ApiTokenService {
  private readonly now: () => Date;
  constructor(private readonly deps: ApiTokenDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async list(auth: AuthInfo): Promise<{ tokens: ApiToken[] }> {
    const rows = await this.deps.tokens.list(auth.userId);
    return { tokens: rows.map(present) };
  }

  async create(auth: AuthInfo, input: ParsedInput<'developer.createToken'>): Promise<ApiTokenCreated> {
    const now = this.now();
    if ((await this.deps.tokens.countLive(auth.userId, now)) >= API_TOKEN_MAX) {
      throw new AppError('API_TOKEN_LIMIT', { max: API_TOKEN_MAX });
    }
    const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await this.deps.tokens.create({
      userId: auth.userId,
      name: input.name,
      tokenHash: sha256(token),
      prefix: token.slice(0, SHOWN_PREFIX),
      scopes: API_SCOPES.filter((s) => input.scopes.includes(s)),
      expiresAt:
        input.expiresInDays === null ? null : new Date(now.getTime() + input.expiresInDays * 86_400_000),
    });
    return { token, apiToken: present(row) };
  }

  async revoke(auth: AuthInfo, id: string): Promise<{ success: true }> {
    if (!(await this.deps.tokens.revoke(auth.userId, id, this.now()))) throw new AppError('NOT_FOUND');
    return { success: true };
  }

  /**
   * The caller behind an API token, or API_TOKEN_INVALID (unknown, revoked, expired, or its user
   * no longer a developer). Each call counts against the token's rate limit.
   */
  async authenticate(token: string): Promise<AuthInfo> {
    const now = this.now();
    const row = await this.deps.tokens.findLive(sha256(token), now);
    if (!row?.roles.includes('developer')) throw new AppError('API_TOKEN_INVALID');
    if (row.suspendedAt) throw new AppError('ACCOUNT_SUSPENDED');
    const state = await this.deps.limiter.hit(`api-token:${row.id}`, 60);
    if (state.count > this.deps.perMinute) throw rateLimited('RATE_LIMITED', state.resetInMs);
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.deps.tokens.touch(row.id, now);
    }
    return {
      userId: row.userId,
      sessionId: `api-token:${row.id}`,
      username: row.username,
      // Staff powers are never exercised through a token: an admin's token acts as a plain user.
      roles: row.roles.filter((r) => !ADMIN_ROLES.includes(r)),
      verified: row.verified,
      apiToken: { id: row.id, scopes: row.scopes.filter(isScope) },
    };
  }
}

function present(row: {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.filter(isScope),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}
