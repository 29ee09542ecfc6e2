import type { Role } from '@fanverse/contract';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';

export interface ActiveSession {
  sessionId: string;
  userId: string;
  username: string;
  roles: Role[];
  verified: boolean;
  suspended: boolean;
  lastUsedAt: Date;
}

/** Session tokens, stored as hashes. Queries only. */
export class SessionRepository {
  constructor(private readonly db: Db) {}

  async create(userId: string, tokenHash: string, expiresAt: Date): Promise<string> {
    const [row] = await this.db
      .insert(sessions)
      .values({ userId, tokenHash, expiresAt })
      .returning({ id: sessions.id });
    return row!.id;
  }

  async findActive(tokenHash: string, now: Date): Promise<ActiveSession | undefined> {
    const rows = await this.db
      .select({
        sessionId: sessions.id,
        userId: users.id,
        username: users.username,
        roles: users.roles,
        verified: users.verified,
        suspendedAt: users.suspendedAt,
        lastUsedAt: sessions.lastUsedAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, tokenHash),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
          isNull(users.deletedAt),
        ),
      )
      .limit(1);
    const r = rows[0];
    if (!r) return undefined;
    return {
      sessionId: r.sessionId,
      userId: r.userId,
      username: r.username,
      roles: r.roles,
      verified: r.verified,
      suspended: r.suspendedAt !== null,
      lastUsedAt: r.lastUsedAt,
    };
  }

  async touch(sessionId: string, now: Date): Promise<void> {
    await this.db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, sessionId));
  }

  async revoke(sessionId: string, now: Date): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  /** Revokes every session of a user; answers the ids revoked (to disconnect their sockets). */
  async revokeAll(userId: string, now: Date): Promise<string[]> {
    const rows = await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return rows.map((r) => r.id);
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.delete(sessions).where(lt(sessions.expiresAt, now));
  }
}
