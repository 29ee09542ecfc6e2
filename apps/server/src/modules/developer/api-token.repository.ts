import type { Role } from '@fanverse/contract';
import { and, count, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiTokens, users } from '../../db/schema.ts';

/** Personal API tokens, stored as hashes. Queries only. */
export class ApiTokenRepository {
  constructor(private readonly db: Db) {}

  private live(now: Date) {
    return and(isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)));
  }

  async create(row: {
    userId: string;
    name: string;
    tokenHash: string;
    prefix: string;
    scopes: string[];
    expiresAt: Date | null;
  }) {
    const [created] = await this.db.insert(apiTokens).values(row).returning();
    return created!;
  }

  /** Tokens of the user that still work. */
  async countLive(userId: string, now: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), this.live(now)));
    return row?.n ?? 0;
  }

  /** The user's tokens not revoked (expired ones too, so the list can say so), newest first. */
  async list(userId: string) {
    return this.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .orderBy(desc(apiTokens.createdAt))
      .limit(100);
  }

  /** The live token of this hash with its user, or undefined (unknown, revoked, expired, deleted user). */
  async findLive(tokenHash: string, now: Date) {
    const rows = await this.db
      .select({
        id: apiTokens.id,
        scopes: apiTokens.scopes,
        lastUsedAt: apiTokens.lastUsedAt,
        userId: users.id,
        username: users.username,
        roles: users.roles,
        verified: users.verified,
        suspendedAt: users.suspendedAt,
      })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(and(eq(apiTokens.tokenHash, tokenHash), this.live(now), isNull(users.deletedAt)))
      .limit(1);
    const row = rows[0];
    return row ? { ...row, roles: row.roles as Role[] } : undefined;
  }

  async touch(id: string, now: Date): Promise<void> {
    await this.db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, id));
  }

  /** Revokes one token of this user; false when it is not theirs or already revoked. */
  async revoke(userId: string, id: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return rows.length === 1;
  }
}
