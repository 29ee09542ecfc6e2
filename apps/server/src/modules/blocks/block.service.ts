import type { PublicUser } from '@fanverse/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import type { BlockRepository } from './block.repository.ts';

/** Finds an active user's id by handle. */
export type HandleLookup = (handle: string) => Promise<{ id: string } | undefined>;

/** Blocking: a blocked pair can't message or comment on each other and don't find each other. */
export class BlockService {
  constructor(
    private readonly repo: BlockRepository,
    private readonly findByHandle: HandleLookup,
  ) {}

  async toggle(auth: AuthInfo, handle: string): Promise<boolean> {
    const other = await this.findByHandle(handle.replace(/^@/, ''));
    if (!other) throw new AppError('NOT_FOUND');
    if (other.id === auth.userId) throw new AppError('FORBIDDEN');
    return this.repo.toggle(auth.userId, other.id);
  }

  async list(auth: AuthInfo): Promise<PublicUser[]> {
    return (await this.repo.blockedBy(auth.userId)).map(presentPublicUser);
  }

  /** Whether either blocked the other. */
  between(a: string, b: string): Promise<boolean> {
    return a === b ? Promise.resolve(false) : this.repo.between(a, b);
  }

  /** Throws FORBIDDEN when either blocked the other. */
  async assertNotBlocked(a: string, b: string): Promise<void> {
    if (await this.between(a, b)) throw new AppError('FORBIDDEN');
  }
}
