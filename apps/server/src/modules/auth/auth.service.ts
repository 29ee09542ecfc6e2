import { randomBytes } from 'node:crypto';
import type { Language, LoginRequest, ResetPasswordRequest, Role, SignupRequest } from '@fanverse/contract';
import { LIMITS, ROLES } from '@fanverse/contract';
import { isStaff, rolesInForce } from '../../access/roles.ts';
import type { Config } from '../../config.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import {
  dummyPasswordHash,
  hashPassword,
  newToken,
  numericCode,
  sameHash,
  sha256,
  verifyPassword,
} from '../../lib/crypto.ts';
import { type RateLimiter, rateLimited } from '../../lib/rate-limiter.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { resetCodeMail } from '../../mail/templates.ts';
import type { FeatureGate, StaffTwoFactorRule } from '../settings/platform-settings.ts';
import type { UserRepository } from '../users/user.repository.ts';
import type { ResetCodeRepository } from './reset-code.repository.ts';
import type { ActiveSession, SessionRepository } from './session.repository.ts';
import type { SecondFactor, TwoFactorService } from './two-factor.service.ts';

export interface AuthDeps {
  users: UserRepository;
  sessions: SessionRepository;
  resetCodes: ResetCodeRepository;
  mailer: Mailer;
  limiter: RateLimiter;
  config: Pick<
    Config,
    | 'rateLimits'
    | 'sessionTtlDays'
    | 'resetCodeTtlMinutes'
    | 'resetCodeMaxAttempts'
    | 'appName'
    | 'publicUrl'
    | 'port'
  >;
  /** Feature switches (sign-ups). */
  features: FeatureGate;
  /** The super's setting requiring two-step sign-in for coordinators too (`rolesInForce`). */
  staffRule: StaffTwoFactorRule;
  now?: () => Date;
  /** Called with the session ids that were revoked, so realtime can disconnect them. */
  onSessionsRevoked?: (sessionIds: string[]) => void;
  /** Called after an account is created (queues the email confirmation mail). */
  onSignup?: (userId: string) => Promise<void>;
  /** Called after an account is created already verified (a provider vouched for the email). */
  onVerifiedSignup?: (userId: string) => Promise<void>;
  /** Called after a password login started a session (the new-device mail). */
  onSignedIn?: (userId: string, sessionId: string) => Promise<void>;
  /** Two-step sign-in: when on for the account, a right password only opens a challenge. */
  twoFactor?: TwoFactorService;
}

export interface CallerContext {
  ip: string;
  lang: Language;
  /** The browser's User-Agent (names the device on the devices page). */
  userAgent?: string;
}

/** Sessions are only refreshed in the database once a minute. */
const TOUCH_INTERVAL_MS = 60_000;

function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Signup, login, logout, password reset and token checks. */
export class AuthService {
  private readonly now: () => Date;
  constructor(private readonly deps: AuthDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async signup(input: SignupRequest & { email: string }, ctx: CallerContext) {
    await this.deps.features.require('signups');
    await this.limit(`signup:ip:${ctx.ip}`, this.deps.config.rateLimits.signupPerIp);
    const user = await this.createAccount(
      { ...input, passwordHash: await hashPassword(input.password), passwordSet: true, verified: false },
      ctx,
    );
    return this.startSession(user.id, ctx);
  }

  /** Whether a new account may be made now (feature switch, per-address limit): before a provider sign-up. */
  async mayCreateAccount(ctx: CallerContext): Promise<void> {
    await this.deps.features.require('signups');
    await this.limit(`signup:ip:${ctx.ip}`, this.deps.config.rateLimits.signupPerIp);
  }

  /**
   * The account of a first provider sign-in (OidcService): no password of its own (a random one
   * nobody knows, `passwordSet` false), verified when the provider vouched for the email. Then
   * `link` ties the provider account to it before the session starts.
   */
  async providerSignup(
    input: { username: string; email: string; name: string; birthdate: string; verified: boolean },
    link: (userId: string) => Promise<void>,
    ctx: CallerContext,
  ) {
    const user = await this.createAccount(
      { ...input, passwordHash: await hashPassword(newToken()), passwordSet: false },
      ctx,
    );
    await link(user.id);
    return this.signedIn(user.id, ctx);
  }

  /** Whether the username or the email is taken, as field errors (the sign-up forms show them). */
  async checkFree(username: string, email: string): Promise<void> {
    const { users } = this.deps;
    if (await users.usernameTaken(username)) {
      throw new AppError('USERNAME_TAKEN', {}, { username: 'username.taken' });
    }
    if (await users.emailTaken(email)) throw new AppError('EMAIL_TAKEN', {}, { email: 'email.taken' });
  }

  private async createAccount(
    input: {
      username: string;
      email: string;
      name: string;
      passwordHash: string;
      passwordSet: boolean;
      birthdate: string;
      verified: boolean;
      referral?: string;
    },
    ctx: CallerContext,
  ) {
    const { users } = this.deps;
    await this.checkFree(input.username, input.email);
    const referrer = input.referral ? await users.findByReferralCode(input.referral) : undefined;
    let user: Awaited<ReturnType<UserRepository['create']>>;
    try {
      user = await users.create({
        username: input.username,
        email: input.email,
        name: input.name,
        passwordHash: input.passwordHash,
        passwordSet: input.passwordSet,
        birthdate: input.birthdate,
        roles: ['user', 'fan'],
        verified: input.verified,
        language: ctx.lang,
        referralCode: this.newReferralCode(),
        referredBy: referrer?.id ?? null,
      });
    } catch (err) {
      const unique = isUniqueViolation(err);
      if (unique?.constraint?.includes('email'))
        throw new AppError('EMAIL_TAKEN', {}, { email: 'email.taken' });
      if (unique) throw new AppError('USERNAME_TAKEN', {}, { username: 'username.taken' });
      throw err;
    }
    if (input.verified) await this.deps.onVerifiedSignup?.(user.id);
    else await this.deps.onSignup?.(user.id);
    return user;
  }

  /**
   * Failed logins are counted per (account, address) pair and per address (ADR 0003): a stranger's
   * failures from elsewhere never lock the owner out. Each attempt is reserved (counted) before
   * the password is checked, so concurrent guesses cannot all slip under the limit; a right
   * password clears the pair's count.
   */
  async login(input: LoginRequest, ctx: CallerContext) {
    const { users, limiter, config } = this.deps;
    await this.limit(`login:ip:${ctx.ip}`, config.rateLimits.loginPerIp);
    const pairKey = `login-fail:${sha256(`${input.login.toLowerCase()}\n${ctx.ip}`)}`;
    await this.limit(pairKey, config.rateLimits.loginPerAccount);
    const user = await users.findByLogin(input.login);
    const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
    if (!user || !ok) throw new AppError('INVALID_CREDENTIALS');
    if (user.suspendedAt) throw new AppError('ACCOUNT_SUSPENDED');
    await limiter.reset(pairKey);
    if (await this.deps.twoFactor?.isEnabled(user.id)) {
      return { challenge: await this.deps.twoFactor!.challenge(user.id, ctx) };
    }
    return this.signedIn(user.id, ctx);
  }

  /** The second step of a two-step sign-in: a session once the code or recovery code is right. */
  async completeTwoFactor(challenge: string, factor: SecondFactor) {
    if (!this.deps.twoFactor) throw new AppError('TWO_FACTOR_EXPIRED');
    const done = await this.deps.twoFactor.completeChallenge(challenge, factor);
    const user = await this.deps.users.findById(done.userId);
    if (!user || user.deletedAt) throw new AppError('TWO_FACTOR_EXPIRED');
    if (user.suspendedAt) throw new AppError('ACCOUNT_SUSPENDED');
    return this.signedIn(done.userId, { ip: done.ip, userAgent: done.userAgent, lang: 'en' });
  }

  /**
   * A sign-in provider proved the account (OidcService): as a right password, so with two-step
   * sign-in on it only opens the same challenge `login` opens.
   */
  async providerSignIn(userId: string, ctx: CallerContext) {
    const user = await this.deps.users.findById(userId);
    if (!user || user.deletedAt) throw new AppError('OIDC_STATE_INVALID');
    if (user.suspendedAt) throw new AppError('ACCOUNT_SUSPENDED');
    if (await this.deps.twoFactor?.isEnabled(user.id)) {
      return { challenge: await this.deps.twoFactor!.challenge(user.id, ctx) };
    }
    return this.signedIn(user.id, ctx);
  }

  /**
   * A passkey proved the account (PasskeyService.verifyLogin): a session, as after both steps, and
   * marked so: it counts as two-step sign-in for the administrator roles (ADR 0039).
   */
  async passkeySignIn(userId: string, ctx: CallerContext) {
    const user = await this.deps.users.findById(userId);
    if (!user || user.deletedAt) throw new AppError('PASSKEY_INVALID');
    if (user.suspendedAt) throw new AppError('ACCOUNT_SUSPENDED');
    return this.signedIn(userId, ctx, { passkey: true });
  }

  private async signedIn(userId: string, ctx: CallerContext, how: { passkey?: boolean } = {}) {
    const session = await this.startSession(userId, ctx, how);
    await this.deps.onSignedIn?.(userId, session.sessionId);
    return session;
  }

  async logout(auth: AuthInfo): Promise<void> {
    await this.deps.sessions.revoke(auth.sessionId, this.now());
    this.deps.onSessionsRevoked?.([auth.sessionId]);
  }

  /** Mails a reset code when the email belongs to an account; answers the same either way. */
  async requestResetCode(email: string, ctx: CallerContext): Promise<void> {
    const { users, resetCodes, mailer, config } = this.deps;
    await this.limit(`reset:ip:${ctx.ip}`, config.rateLimits.resetPerIp);
    const user = await users.findByEmail(email);
    if (!user || user.suspendedAt) return;
    const perAccount = await this.deps.limiter.hit(`reset:acct:${user.id}`, config.rateLimits.windowSeconds);
    if (perAccount.count > config.rateLimits.resetPerAccount) return;
    const now = this.now();
    const code = numericCode(LIMITS.resetCodeLength);
    const expiresAt = new Date(now.getTime() + config.resetCodeTtlMinutes * 60_000);
    await resetCodes.replace(user.id, sha256(code), expiresAt, now);
    const base = config.publicUrl ?? `http://localhost:${config.port}`;
    await mailer.send(
      // In the language of the page that asked: the person reading it is the one who asked.
      resetCodeMail(ctx.lang, {
        to: user.email,
        name: user.name,
        app: config.appName,
        code,
        minutes: config.resetCodeTtlMinutes,
        link: `${base}/auth/pass?${new URLSearchParams({ email: user.email, code })}`,
      }),
    );
  }

  /**
   * Sets a new password with a single-use code and revokes every session of the account. The code
   * is only compared with the newest code of the account the email names, and each guess is
   * reserved before the comparison twice over: per address in the rate limiter (given back when
   * the code was right) and per code in the database (`attempts`, at most RESET_CODE_MAX_ATTEMPTS
   * for the code's whole life), so concurrent guesses cannot outrun either limit.
   */
  async resetPassword(input: ResetPasswordRequest & { email: string }, ctx: CallerContext): Promise<void> {
    const { resetCodes, users, sessions, config, limiter } = this.deps;
    const failKey = `reset-fail:ip:${ctx.ip}`;
    await this.limit(failKey, config.resetCodeMaxAttempts);
    const now = this.now();
    const invalid = new AppError('RESET_CODE_INVALID', {}, { code: 'code.invalid' });
    const user = await users.findByEmail(input.email);
    const row = user ? await resetCodes.reserveAttempt(user.id, config.resetCodeMaxAttempts) : undefined;
    if (!row || !sameHash(row.codeHash, sha256(input.code))) throw invalid;
    if (row.expiresAt <= now) {
      throw new AppError('RESET_CODE_EXPIRED', {}, { code: 'code.expired' });
    }
    if (!(await resetCodes.consume(row.id, now))) throw invalid;
    await limiter.undo(failKey);
    await users.setPasswordHash(row.userId, await hashPassword(input.password));
    const revoked = await sessions.revokeAll(row.userId, now);
    this.deps.onSessionsRevoked?.(revoked);
  }

  /**
   * The caller behind a token; null when the token is unknown, expired or revoked. `touch: false`
   * (a page's first view, ADR 0048) leaves the session's last use as it is.
   */
  async authenticate(token: string, options: { touch?: boolean } = {}): Promise<AuthInfo | null> {
    return this.activeSession(await this.deps.sessions.findActive(sha256(token), this.now()), options.touch);
  }

  /** When the token's active session expires (the fv_session cookie lasts as long); null if none. */
  async sessionExpiry(token: string): Promise<Date | null> {
    const session = await this.deps.sessions.findActive(sha256(token), this.now());
    if (!session || session.suspended) return null;
    return session.expiresAt;
  }

  /**
   * The active session with this id, as `authenticate` would answer for its token (HLS keys asked
   * by a player that cannot send headers: the session id comes from a signed URL, never a client).
   */
  async sessionById(sessionId: string): Promise<AuthInfo | null> {
    return this.activeSession(await this.deps.sessions.findActiveById(sessionId, this.now()));
  }

  private async activeSession(session: ActiveSession | undefined, touch = true): Promise<AuthInfo | null> {
    const now = this.now();
    if (!session) return null;
    if (session.suspended) throw new AppError('ACCOUNT_SUSPENDED');
    if (touch && now.getTime() - session.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.deps.sessions.touch(session.sessionId, now);
      // The looked-up session may be the one a cache keeps: it was used just now.
      session.lastUsedAt = now;
    }
    const held = session.roles.filter(isRole);
    // The setting is read only where it can change the answer: a staff role without two steps.
    const allStaff =
      !session.twoFactor && isStaff({ roles: held }) && (await this.deps.staffRule.allStaffTwoFactor());
    const { roles, withheld } = rolesInForce(held, session.twoFactor, allStaff);
    return {
      userId: session.userId,
      sessionId: session.sessionId,
      username: session.username,
      roles,
      ...(withheld.length ? { withheldRoles: withheld } : {}),
      verified: session.verified,
    };
  }

  private async startSession(
    userId: string,
    ctx: CallerContext,
    how: { passkey?: boolean } = {},
  ): Promise<{ token: string; userId: string; sessionId: string }> {
    const token = newToken();
    const expiresAt = new Date(this.now().getTime() + this.deps.config.sessionTtlDays * 86_400_000);
    const sessionId = await this.deps.sessions.create(userId, sha256(token), expiresAt, {
      userAgent: ctx.userAgent?.slice(0, 400) ?? null,
      ip: ctx.ip,
      passkey: how.passkey === true,
    });
    return { token, userId, sessionId };
  }

  private async limit(key: string, max: number): Promise<void> {
    const state = await this.deps.limiter.hit(key, this.deps.config.rateLimits.windowSeconds);
    if (state.count > max) throw rateLimited('RATE_LIMITED', state.resetInMs);
  }

  private newReferralCode(): string {
    return randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8).toLowerCase();
  }
}
