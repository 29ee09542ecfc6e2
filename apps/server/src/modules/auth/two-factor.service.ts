import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { newToken, sha256, verifyPassword } from '../../lib/crypto.ts';
import { type RateLimiter, rateLimited } from '../../lib/rate-limiter.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { UserRepository } from '../users/user.repository.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';

export const RECOVERY_CODE_COUNT = 10;
/** Guesses one login challenge allows before the person must enter the password again. */
export const CHALLENGE_MAX_ATTEMPTS = 5;
const CHALLENGE_TTL_MS = 5 * 60_000;
/** One 30-second step either side, for clocks that drift. */
const EPOCH_TOLERANCE_SECONDS = 30;

export interface TwoFactorDeps {
  repo: TwoFactorRepository;
  users: UserRepository;
  limiter: RateLimiter;
  /** Seals TOTP secrets at rest with a key derived from the server secret (ADR 0014). */
  box: SecretBox;
  config: Pick<Config, 'appName' | 'rateLimits'>;
  now?: () => Date;
}

export interface SecondFactor {
  code?: string;
  recoveryCode?: string;
}

/** Recovery codes as people copy them: 10 characters in two groups, no look-alike letters. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const normaliseRecovery = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');
const hashRecovery = (code: string) => sha256(normaliseRecovery(code));

/**
 * Two-factor sign-in (issue 18): TOTP enrolment with a QR code, ten one-time recovery codes, and the
 * login challenge between a right password and the second factor. Every guess is counted before it
 * is checked (per challenge in the database, per account in the rate limiter); a TOTP code is never
 * accepted twice (last time step), a recovery code works once (conditional update).
 */
export class TwoFactorService {
  private readonly now: () => Date;
  constructor(private readonly deps: TwoFactorDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async isEnabled(userId: string): Promise<boolean> {
    return !!(await this.deps.repo.find(userId))?.enabledAt;
  }

  async status(auth: AuthInfo) {
    const row = await this.deps.repo.find(auth.userId);
    return {
      totp: !!row?.enabledAt,
      recoveryCodesLeft: row?.enabledAt ? await this.deps.repo.recoveryCodesLeft(auth.userId) : 0,
    };
  }

  /** Starts an enrolment: a new secret (pending until a code confirms it), its URI and QR code. */
  async setup(auth: AuthInfo) {
    const user = await this.deps.users.findById(auth.userId);
    if (!user) throw new AppError('INVALID_TOKEN');
    const secret = generateSecret();
    if (!(await this.deps.repo.savePending(auth.userId, this.deps.box.seal(secret)))) {
      throw new AppError('TWO_FACTOR_ALREADY_ON');
    }
    const uri = generateURI({ issuer: this.deps.config.appName, label: user.email, secret });
    const qr = await QRCode.toDataURL(uri, { margin: 1, width: 240 });
    return { secret, uri, qr };
  }

  /** Confirms the enrolment with a first code; answers the ten recovery codes (shown once). */
  async enable(auth: AuthInfo, code: string) {
    await this.limitFailures(auth.userId);
    const row = await this.deps.repo.find(auth.userId);
    if (!row) throw new AppError('TWO_FACTOR_NOT_SET_UP');
    if (row.enabledAt) throw new AppError('TWO_FACTOR_ALREADY_ON');
    const step = await this.totpStep(row.totpSecret, code);
    if (step === null) throw new AppError('TWO_FACTOR_INVALID', {}, { code: 'code.invalid' });
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    if (!(await this.deps.repo.enable(auth.userId, step, codes.map(hashRecovery), this.now()))) {
      throw new AppError('TWO_FACTOR_ALREADY_ON');
    }
    await this.deps.limiter.reset(this.failKey(auth.userId));
    return { recoveryCodes: codes };
  }

  /**
   * Turns two-step sign-in on with a secret known beforehand, without a first code: only for the
   * demo staff accounts (seed/demo.ts, a documented secret the e2e helpers use) and test factories.
   * Its recovery codes are made and thrown away (a new set is one regeneration away).
   */
  async enrolKnownSecret(userId: string, secret: string): Promise<void> {
    await this.deps.repo.savePending(userId, this.deps.box.seal(secret));
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.deps.repo.enable(userId, 0, codes.map(hashRecovery), this.now());
  }

  /** Turns two-factor sign-in off: the password and a current code (or a recovery code). */
  async disable(auth: AuthInfo, input: SecondFactor & { password: string }): Promise<void> {
    await this.confirmOwner(auth, input);
    await this.deps.repo.disable(auth.userId);
  }

  /**
   * Ten new recovery codes (shown once) in place of the old ones, used or not: the password and a
   * current code (or a recovery code, which is then spent with the rest).
   */
  async regenerateRecoveryCodes(auth: AuthInfo, input: SecondFactor & { password: string }) {
    await this.confirmOwner(auth, input);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    if (!(await this.deps.repo.replaceRecoveryCodes(auth.userId, codes.map(hashRecovery)))) {
      throw new AppError('TWO_FACTOR_NOT_SET_UP');
    }
    return { recoveryCodes: codes };
  }

  /**
   * The person at the keyboard holds the account: its password and a second factor. The guess is
   * counted (RATE_LOGIN_PER_ACCOUNT per window) before either is checked.
   */
  private async confirmOwner(auth: AuthInfo, input: SecondFactor & { password: string }): Promise<void> {
    await this.limitFailures(auth.userId);
    const user = await this.deps.users.findById(auth.userId);
    if (!user || !(await verifyPassword(user.passwordHash, input.password))) {
      throw new AppError('INVALID_CREDENTIALS');
    }
    if (!(await this.check(auth.userId, input))) {
      throw new AppError('TWO_FACTOR_INVALID', {}, { code: 'code.invalid' });
    }
    await this.deps.limiter.reset(this.failKey(auth.userId));
  }

  /** After a right password: a short-lived challenge for the second step. */
  async challenge(userId: string, device: { userAgent?: string; ip: string }): Promise<string> {
    const token = newToken();
    await this.deps.repo.createChallenge({
      userId,
      tokenHash: sha256(token),
      expiresAt: new Date(this.now().getTime() + CHALLENGE_TTL_MS),
      userAgent: device.userAgent?.slice(0, 400) ?? null,
      ip: device.ip,
    });
    return token;
  }

  /**
   * The second step: answers the account and the device of the challenge when the factor is right.
   * The challenge's guess is reserved first (at most CHALLENGE_MAX_ATTEMPTS), and the account's
   * failures are limited across challenges (each new challenge needs the password again).
   */
  async completeChallenge(token: string, factor: SecondFactor) {
    const now = this.now();
    const row = await this.deps.repo.reserveChallengeAttempt(sha256(token), CHALLENGE_MAX_ATTEMPTS, now);
    if (!row) throw new AppError('TWO_FACTOR_EXPIRED');
    await this.limitFailures(row.userId);
    if (!(await this.check(row.userId, factor))) {
      throw new AppError('TWO_FACTOR_INVALID', {}, { code: 'code.invalid' });
    }
    if (!(await this.deps.repo.useChallenge(row.id, now))) throw new AppError('TWO_FACTOR_EXPIRED');
    await this.deps.limiter.reset(this.failKey(row.userId));
    return { userId: row.userId, userAgent: row.userAgent ?? undefined, ip: row.ip ?? '' };
  }

  /** A TOTP code (newer than the last accepted) or an unused recovery code. */
  private async check(userId: string, factor: SecondFactor): Promise<boolean> {
    const row = await this.deps.repo.find(userId);
    if (!row?.enabledAt) return false;
    if (factor.recoveryCode) {
      return this.deps.repo.useRecoveryCode(userId, hashRecovery(factor.recoveryCode), this.now());
    }
    if (!factor.code) return false;
    const step = await this.totpStep(row.totpSecret, factor.code);
    return step !== null && (await this.deps.repo.advanceTimeStep(userId, step));
  }

  /** The time step of a right code for the sealed secret, or null. */
  private async totpStep(sealed: string, code: string): Promise<number | null> {
    const result = await verify({
      secret: this.deps.box.open(sealed),
      token: code,
      epoch: Math.floor(this.now().getTime() / 1000),
      epochTolerance: EPOCH_TOLERANCE_SECONDS,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }

  private failKey(userId: string) {
    return `2fa-fail:${userId}`;
  }

  /** Wrong second factors per account per window (RATE_LOGIN_PER_ACCOUNT), counted before checking. */
  private async limitFailures(userId: string): Promise<void> {
    const { limiter, config } = this.deps;
    const state = await limiter.hit(this.failKey(userId), config.rateLimits.windowSeconds);
    if (state.count > config.rateLimits.loginPerAccount) throw rateLimited('RATE_LIMITED', state.resetInMs);
  }
}
