import type { Role } from '@fanverse/contract';
import { and, desc, eq, gt, isNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, users, userTwoFactor } from '../../db/schema.ts';
import type { SessionCache } from './session-cache.ts';

export interface ActiveSession {
  sessionId: string;
  userId: string;
  username: string;
  roles: Role[];
  verified: boolean;
  /**
   * Two steps proved for this session (staff roles wait for it: access/roles.ts `rolesInForce`):
   * the account has an authenticator app on, or the session was signed in with a passkey.
   */
  twoFactor: boolean;
  suspended: boolean;
  lastUsedAt: Date;
  expiresAt: Date;
}

type SessionRow = {
  sessionId: string;
  userId: string;
  username: string;
  roles: Role[];
  verified: boolean;
  twoFactor: boolean | null;
  suspendedAt: Date | null;
  lastUsedAt: Date;
  expiresAt: Date;
};

function activeSession(rows: SessionRow[]): ActiveSession | undefined {
  const r = rows[0];
  if (!r) return undefined;
  return {
    sessionId: r.sessionId,
    userId: r.userId,
    username: r.username,
    roles: r.roles,
    verified: r.verified,
    twoFactor: r.twoFactor === true,
    suspended: r.suspendedAt !== null,
    lastUsedAt: r.lastUsedAt,
    expiresAt: r.expiresAt,
  };
}

/** Session tokens, stored as hashes. Queries only. */
export class SessionRepository {
  /** `cache`: the sessions this copy looked up lately, kept fresh by the database's announcements. */
  constructor(
    private readonly db: Db,
    private readonly cache?: SessionCache,
  ) {}

  async create(
    userId: string,
    tokenHash: string,
    expiresAt: Date,
    device: { userAgent?: string | null; ip?: string | null; passkey?: boolean } = {},
  ): Promise<string> {
    const [row] = await this.db
      .insert(sessions)
      .values({
        userId,
        tokenHash,
        expiresAt,
        userAgent: device.userAgent ?? null,
        ip: device.ip ?? null,
        passkey: device.passkey ?? false,
      })
      .returning({ id: sessions.id });
    return row!.id;
  }

  /** Every signed-in request asks this: prepared once per connection (no parsing or planning). */
  private byToken?: ReturnType<SessionRepository['prepareByToken']>;

  async findActive(tokenHash: string, now: Date): Promise<ActiveSession | undefined> {
    const load = async () => {
      this.byToken ??= this.prepareByToken();
      return activeSession(await this.byToken.execute({ tokenHash, now: now.toISOString() }));
    };
    return this.cache ? this.cache.find(tokenHash, now, load) : load();
  }

  private prepareByToken() {
    return this.activeWhere(
      eq(sessions.tokenHash, sql.placeholder('tokenHash')),
      sql`${sql.placeholder('now')}::timestamptz`,
    ).prepare('session_by_token');
  }

  /** An active session by its id (players that cannot send the token, e.g. native HLS). */
  async findActiveById(sessionId: string, now: Date): Promise<ActiveSession | undefined> {
    return this.findActiveWhere(eq(sessions.id, sessionId), now);
  }

  private async findActiveWhere(match: SQL, now: Date): Promise<ActiveSession | undefined> {
    return activeSession(await this.activeWhere(match, now));
  }

  private activeWhere(match: SQL, now: Date | SQL) {
    return this.db
      .select({
        sessionId: sessions.id,
        userId: users.id,
        username: users.username,
        roles: users.roles,
        verified: users.verified,
        twoFactor: sql<boolean>`(${userTwoFactor.enabledAt} IS NOT NULL OR ${sessions.passkey})`,
        suspendedAt: users.suspendedAt,
        lastUsedAt: sessions.lastUsedAt,
        expiresAt: sessions.expiresAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(userTwoFactor, eq(userTwoFactor.userId, sessions.userId))
      .where(and(match, isNull(sessions.revokedAt), gt(sessions.expiresAt, now), isNull(users.deletedAt)))
      .limit(1);
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

  /** The user's live sessions, most recently used first (the devices page). */
  async listActive(userId: string, now: Date) {
    return this.db
      .select({
        id: sessions.id,
        userAgent: sessions.userAgent,
        ip: sessions.ip,
        createdAt: sessions.createdAt,
        lastUsedAt: sessions.lastUsedAt,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.lastUsedAt))
      .limit(100);
  }

  /** Revokes one session of this user; answers false when it is not theirs or already ended. */
  async revokeOwn(userId: string, sessionId: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return rows.length === 1;
  }

  /** Revokes every session of the user but one; answers the ids revoked. */
  async revokeAllExcept(userId: string, keepId: string, now: Date): Promise<string[]> {
    const rows = await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return rows.map((r) => r.id);
  }

  /** One session with its device (the new-device mail). */
  async findDevice(sessionId: string) {
    const rows = await this.db
      .select({
        userId: sessions.userId,
        userAgent: sessions.userAgent,
        ip: sessions.ip,
        createdAt: sessions.createdAt,
      })
      .from(sessions)
      .where(eq(sessions.id, sessionId))
      .limit(1);
    return rows[0];
  }

  /** The user agents of the user's other sessions (kept until they expire), newest first. */
  async earlierUserAgents(userId: string, exceptId: string): Promise<(string | null)[]> {
    const rows = await this.db
      .select({ userAgent: sessions.userAgent })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.id, exceptId)))
      .orderBy(desc(sessions.createdAt))
      .limit(200);
    return rows.map((r) => r.userAgent);
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.delete(sessions).where(lt(sessions.expiresAt, now));
  }
}
