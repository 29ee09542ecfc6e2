import { AnnouncedCache, type Announcements } from '../../lib/announced-cache.ts';
import type { ActiveSession } from './session.repository.ts';

/**
 * The sessions this server copy looked up lately, by token hash (ADR 0047): every signed-in request
 * asks who its token belongs to, and the answer rarely changes. Whatever can change it (a session
 * revoked or expired, the user's name, roles, verified flag, suspension, deletion, two-step
 * sign-in) is announced on `fv_auth` by database triggers (migration 0034), and the cache forgets
 * the user's sessions (lib/announced-cache.ts). Never answers with a session past its end.
 */
export class SessionCache {
  private readonly cache: AnnouncedCache<string, ActiveSession>;

  constructor(database: Announcements) {
    this.cache = new AnnouncedCache(database, {
      channel: 'fv_auth',
      max: 10_000,
      ttlMs: 60_000,
      ownerOf: (session) => session.userId,
    });
  }

  /** The session of a token hash: from the cache when it is safe to, else `load`ed (and kept). */
  find(tokenHash: string, now: Date, load: () => Promise<ActiveSession | undefined>) {
    return this.cache.get(tokenHash, load, (session) => session.expiresAt > now);
  }
}
