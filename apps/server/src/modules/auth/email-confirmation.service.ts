import { LIMITS } from '@fanverse/contract';
import { hasConfirmedEmail } from '../../access/index.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { JobSender } from '../../jobs/job.ts';
import { newToken, numericCode, sameHash, sha256 } from '../../lib/crypto.ts';
import { type RateLimiter, rateLimited } from '../../lib/rate-limiter.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { confirmEmailMail } from '../../mail/templates.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { CONFIRM_EMAIL_MAIL } from './auth.jobs.ts';
import type { EmailConfirmationRepository } from './email-confirmation.repository.ts';

export interface EmailConfirmationDeps {
  confirmations: EmailConfirmationRepository;
  users: UserRepository;
  mailer: Mailer;
  jobs: JobSender;
  limiter: RateLimiter;
  /** The verified flag's free credits, once per account (the wallet's idempotent grant). */
  grantFreeCredits: (userId: string) => Promise<number>;
  config: Pick<
    Config,
    'rateLimits' | 'resetCodeMaxAttempts' | 'confirmEmailTtlHours' | 'appName' | 'publicUrl' | 'port'
  >;
  now?: () => Date;
}

export interface ConfirmResult {
  verified: true;
  /** Credits granted by this confirmation (0 when they had been granted before). */
  freeCredits: number;
}

/**
 * The verified flag (issue 18): a mail with a 6-digit code and a link confirms the email, which
 * sets the flag and grants the free credits once. Mails go out on the job queue; the code is made
 * by the job itself, so no code ever sits in the queue's table.
 */
export class EmailConfirmationService {
  private readonly now: () => Date;
  constructor(private readonly deps: EmailConfirmationDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Queues the confirmation mail (signup, resend). */
  async queueMail(userId: string): Promise<void> {
    await this.deps.jobs.send(CONFIRM_EMAIL_MAIL, { userId }, { singletonKey: userId });
  }

  /** The resend button: limited per account, nothing to do once confirmed. */
  async resend(auth: AuthInfo): Promise<void> {
    if (hasConfirmedEmail(auth)) return;
    const { limiter, config } = this.deps;
    const state = await limiter.hit(`confirm-mail:acct:${auth.userId}`, config.rateLimits.windowSeconds);
    if (state.count > config.rateLimits.confirmMailPerAccount)
      throw rateLimited('RATE_LIMITED', state.resetInMs);
    await this.queueMail(auth.userId);
  }

  /**
   * The job: makes a new code and link token (retiring older ones) and mails them in the account's
   * language. A retry makes a new pair, so a mail that went out before a crash simply stops working.
   */
  async sendMail(userId: string): Promise<void> {
    const { users, confirmations, mailer, config } = this.deps;
    const user = await users.findById(userId);
    if (!user || user.deletedAt || hasConfirmedEmail(user)) return;
    const now = this.now();
    const code = numericCode(LIMITS.resetCodeLength);
    const token = newToken();
    const expiresAt = new Date(now.getTime() + config.confirmEmailTtlHours * 3_600_000);
    await confirmations.replace(user.id, sha256(code), sha256(token), expiresAt, now);
    const base = config.publicUrl ?? `http://localhost:${config.port}`;
    await mailer.send(
      confirmEmailMail(user.language === 'es' ? 'es' : 'en', {
        to: user.email,
        name: user.name,
        app: config.appName,
        code,
        hours: config.confirmEmailTtlHours,
        link: `${base}/auth/confirm?${new URLSearchParams({ token })}`,
      }),
    );
  }

  /**
   * Confirms with the mail's link token (no session needed: the link may be opened on another
   * device) or with the typed code (signed in; each guess reserved first per address and per code,
   * as reset codes are, ADR 0004).
   */
  async confirm(
    input: { code?: string; token?: string },
    auth: AuthInfo | null,
    ip: string,
  ): Promise<ConfirmResult> {
    const { confirmations, limiter, config } = this.deps;
    const now = this.now();
    const invalid = new AppError('CONFIRM_CODE_INVALID', {}, { code: 'code.invalid' });
    if (input.token) {
      const row = await confirmations.findLiveByToken(sha256(input.token));
      if (!row) throw invalid;
      if (row.expiresAt <= now) throw new AppError('CONFIRM_CODE_EXPIRED', {}, { code: 'code.expired' });
      return this.finish(row.id, row.userId, now);
    }
    if (!auth) throw new AppError('UNAUTHENTICATED');
    if (hasConfirmedEmail(auth)) return { verified: true, freeCredits: 0 };
    const failKey = `confirm-fail:ip:${ip}`;
    const state = await limiter.hit(failKey, config.rateLimits.windowSeconds);
    if (state.count > config.resetCodeMaxAttempts) throw rateLimited('RATE_LIMITED', state.resetInMs);
    const row = await confirmations.reserveAttempt(auth.userId, config.resetCodeMaxAttempts);
    if (!row || !sameHash(row.codeHash, sha256(input.code ?? ''))) throw invalid;
    if (row.expiresAt <= now) throw new AppError('CONFIRM_CODE_EXPIRED', {}, { code: 'code.expired' });
    await limiter.undo(failKey);
    return this.finish(row.id, row.userId, now);
  }

  private async finish(rowId: string, userId: string, now: Date): Promise<ConfirmResult> {
    if (!(await this.deps.confirmations.consumeAndVerify(rowId, userId, now))) {
      throw new AppError('CONFIRM_CODE_INVALID', {}, { code: 'code.invalid' });
    }
    // Idempotent by the ledger's key: a second confirmation (or the wallet's own check) grants nothing.
    return { verified: true, freeCredits: await this.deps.grantFreeCredits(userId) };
  }
}
