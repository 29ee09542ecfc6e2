import type { DeleteAccountRequest, Language } from '@fanverse/contract';
import { DELETE_ACCOUNT_WORDS, errorMessage } from '@fanverse/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { hashPassword, newToken, verifyPassword } from '../../lib/crypto.ts';
import type { Storage } from '../../media/storage.ts';
import type { SessionRepository } from '../auth/session.repository.ts';
import type { MediaPort } from '../posts/media.port.ts';
import type { AccountDeletionRepository } from './account-deletion.repository.ts';
import type { UserRepository } from './user.repository.ts';

/** Logs carry counts only: never a name, an address, a storage key or an id of the person. */
export interface DeletionLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface AccountDeletionDeps {
  users: Pick<UserRepository, 'findByLogin'>;
  erasure: Pick<AccountDeletionRepository, 'erase' | 'sweepPayoutMethods'>;
  sessions: Pick<SessionRepository, 'revokeAll'>;
  /** Public media files. */
  media: Pick<MediaPort, 'removeFiles'>;
  /** Identity photos (the private storage the applications module writes). */
  privateStorage: Pick<Storage, 'delete'>;
  /** Pushes fresh counters to people whose notifications or unread messages went away. */
  pushCounters?: (userId: string) => Promise<void>;
  onSessionsRevoked?: (sessionIds: string[]) => void;
  logger?: DeletionLogger;
  now?: () => Date;
}

/**
 * Deletes an account at its owner's request (ADR 0011): after the typed word and the password,
 * personal data and content go in one transaction, the stored files right after it commits,
 * then every session ends. The ledger and the other money records stay, anonymised.
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
    const at = this.now();
    const erased = await this.deps.erasure.erase(
      user.id,
      {
        username: `deleted${tag}`,
        email: `deleted+${tag}@invalid.local`,
        passwordHash: await hashPassword(newToken()),
      },
      at,
    );
    // Already deleted by a concurrent request: its sessions are ending there.
    if (!erased) throw new AppError('INVALID_TOKEN');

    const revoked = await this.deps.sessions.revokeAll(user.id, at);
    this.deps.onSessionsRevoked?.(revoked);

    // Files only once the rows are gone for good; a failure is logged and never fails the request.
    const media = await this.deps.media
      .removeFiles(erased.mediaKeys)
      .catch(() => ({ deleted: 0, failed: erased.mediaKeys.length }));
    const identity = await Promise.allSettled(
      erased.identityKeys.map((key) => this.deps.privateStorage.delete(key)),
    );
    const identityFailed = identity.filter((r) => r.status === 'rejected').length;
    if (media.failed || identityFailed) {
      this.deps.logger?.warn(
        { mediaFiles: media.failed, identityFiles: identityFailed },
        'account deletion: some stored files could not be deleted',
      );
    }
    this.deps.logger?.info(
      {
        ...erased.counts,
        files: media.deleted + identity.length - identityFailed,
        payoutMethodKept: erased.payoutMethodKept,
      },
      'account deleted',
    );
    for (const id of erased.affectedUserIds) await this.deps.pushCounters?.(id).catch(() => undefined);
  }

  /** The hourly sweep: payout methods of deleted accounts once nothing is owed to them any more. */
  sweepPayoutMethods(): Promise<number> {
    return this.deps.erasure.sweepPayoutMethods();
  }
}
