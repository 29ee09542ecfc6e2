import { AnnouncedCache, type Announcements } from '../../lib/announced-cache.ts';
import type { Person, UserRepository } from './user.repository.ts';

/**
 * Who a handle names (an active account), as this server copy looked it up lately (ADR 0047):
 * every direct message and every opened chat asks it, and the answer changes only when the
 * account is renamed, suspended or deleted — all announced on `fv_auth` by the database (migration
 * 0034), which makes the copy forget that person's handles. A handle nobody has is not kept (a
 * new account may take it at any time).
 */
export class Handles {
  private readonly cache: AnnouncedCache<string, Person>;

  constructor(
    private readonly users: Pick<UserRepository, 'personByHandle'>,
    announcements: Announcements,
  ) {
    this.cache = new AnnouncedCache(announcements, {
      channel: 'fv_auth',
      max: 50_000,
      ttlMs: 10 * 60_000,
      ownerOf: (person) => person.id,
    });
  }

  /** The person behind `handle` (with or without its @, any case), or undefined. */
  find(handle: string): Promise<Person | undefined> {
    const key = handle.replace(/^@/, '').toLowerCase();
    return this.cache.get(key, () => this.users.personByHandle(key));
  }
}
