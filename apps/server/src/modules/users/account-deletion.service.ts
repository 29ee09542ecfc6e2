import type { DeleteAccountRequest, Language } from '@fanverse/contract';
import { DELETE_ACCOUNT_WORDS, errorMessage } from '@fanverse/contract';
import { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { defineJob, type JobSender, type JobTransaction } from '../../jobs/job.ts';
import { hashPassword, newToken, verifyPassword } from '../../lib/crypto.ts';
import type { Storage } from '../../media/storage.ts';
import type { SessionRepository } from '../auth/session.repository.ts';
import type { LiveService } from '../lives/live.service.ts';
import type { MediaPort } from '../posts/media.port.ts';
import type { AccountDeletionRepository, ErasedFiles } from './account-deletion.repository.ts';
import type { UserRepository } from './user.repository.ts';

/**
 * Removes the stored files of an erased account (ADR 0011), queued in the erasure's transaction.
 * Deleting a missing file is fine, so a re-run or two runs at once are harmless; a storage failure
 * fails the job, retried with growing delays (about 8 to 17 hours in all).
 */
export const ERASE_FILES = defineJob(
  'users.erase-files',
  z.object({
    media: z.array(z.string()).default([]),
    marked: z.array(z.string().uuid()).default([]),
    identity: z.array(z.string()).default([]),
    lives: z.array(z.string().uuid()).default([]),
  }),
  { retryLimit: 10, retryDelay: 30, retryBackoff: true },
);

/** Files per job: a creator with many videos has hundreds of thousands of keys (HLS segments). */
export const FILES_PER_JOB = 500;

/** Logs carry counts only: never a name, an address, a storage key or an id of the person. */
export interface DeletionLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface AccountDeletionDeps {
  users: Pick<UserRepository, 'findByLogin'>;
  erasure: Pick<AccountDeletionRepository, 'erase' | 'sweepPayoutMethods'>;
  sessions: Pick<SessionRepository, 'revokeAll'>;
  /** Public media files and their marked copies. */
  media: Pick<MediaPort, 'removeFiles'>;
  /** Identity photos (the private storage the applications module writes). */
  privateStorage: Pick<Storage, 'delete'>;
  /** Ends the creator's live in progress; removes an erased live's files. */
  lives: Pick<LiveService, 'endCurrent' | 'removeFiles'>;
  jobs: JobSender;
  /** Pushes fresh counters to people whose notifications or unread messages went away. */
  pushCounters?: (userId: string) => Promise<void>;
  onSessionsRevoked?: (sessionIds: string[]) => void;
  logger?: DeletionLogger;
  now?: () => Date;
}

/**
 * Deletes an account at its owner's request (ADR 0011): after the typed word and the password, a
 * live in progress ends, personal data and content go in one transaction that also queues the
 * removal of the stored files (`users.erase-files`), then every session ends. The ledger and the
 * other money records stay, anonymised.
 */
export class AccountDeletionService {
  private readonly now: () => Date;

  constructor(private readonly deps: AccountDeletionDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async deleteAccount(auth: AuthInfo, input: DeleteAccountRequest, lang: Language): Promise<void> {
    const typed = input.confirm.trim().toLowerCase();
    if (!Object.values(DELETE_ACCOUNT_WORDS).includes(typed)) {
      const word = DELETE_ACCOUNT_WORDS[lang];
      throw new AppError(
        'CONFIRMATION_MISMATCH',
        { word },
        { confirm: errorMessage('CONFIRMATION_MISMATCH', lang, { word }) },
      );
    }
    const user = await this.deps.users.findByLogin(auth.username);
    if (!user || user.id !== auth.userId || !(await verifyPassword(user.passwordHash, input.password))) {
      throw new AppError('INVALID_CREDENTIALS', {}, { password: errorMessage('INVALID_CREDENTIALS', lang) });
    }
    const tag = user.id.replace(/-/g, '').slice(0, 12);
    // A live in progress ends as `lives.end` ends it (its media stops) before its rows go.
    await this.deps.lives.endCurrent(user.id);
    const at = this.now();
    const erased = await this.deps.erasure.erase(
      user.id,
      {
        username: `deleted${tag}`,
        email: `deleted+${tag}@invalid.local`,
        passwordHash: await hashPassword(newToken()),
      },
      at,
      (files, within) => this.queueFileRemoval(files, within),
    );
    // Already deleted by a concurrent request: its sessions are ending there.
    if (!erased) throw new AppError('INVALID_TOKEN');

    const revoked = await this.deps.sessions.revokeAll(user.id, at);
    this.deps.onSessionsRevoked?.(revoked);

    const { media, marked, identity, lives } = erased.files;
    this.deps.logger?.info(
      {
        ...erased.counts,
        filesQueued: media.length + marked.length + identity.length + lives.length,
        payoutMethodKept: erased.payoutMethodKept,
      },
      'account deleted',
    );
    for (const id of erased.affectedUserIds) await this.deps.pushCounters?.(id).catch(() => undefined);
  }

  /** Queues the removal of the erased files inside the erasure's transaction, FILES_PER_JOB a job. */
  private async queueFileRemoval(files: ErasedFiles, within: JobTransaction): Promise<void> {
    for (const kind of ['media', 'marked', 'identity', 'lives'] as const) {
      for (let i = 0; i < files[kind].length; i += FILES_PER_JOB) {
        await this.deps.jobs.send(
          ERASE_FILES,
          { [kind]: files[kind].slice(i, i + FILES_PER_JOB) },
          { within },
        );
      }
    }
  }

  /**
   * The job: deletes each file (every one is tried; missing ones count as deleted). Any failure
   * fails the job, so pg-boss retries it; logs carry counts only.
   */
  async removeFiles(files: ErasedFiles): Promise<void> {
    const media = await this.deps.media.removeFiles(files.media, files.marked);
    const others = await Promise.allSettled([
      ...files.identity.map((key) => this.deps.privateStorage.delete(key)),
      ...files.lives.map((liveId) => this.deps.lives.removeFiles(liveId)),
    ]);
    const failed = media.failed + others.filter((r) => r.status === 'rejected').length;
    const deleted = media.deleted + others.length - (failed - media.failed);
    if (failed) {
      this.deps.logger?.warn({ deleted, failed }, 'account deletion: stored files not deleted yet, retried');
      throw new Error(`account deletion: ${failed} of ${deleted + failed} stored files not deleted`);
    }
    this.deps.logger?.info({ deleted }, 'account deletion: stored files deleted');
  }

  /** The hourly sweep: payout methods of deleted accounts once nothing is owed to them any more. */
  sweepPayoutMethods(): Promise<number> {
    return this.deps.erasure.sweepPayoutMethods();
  }
}
