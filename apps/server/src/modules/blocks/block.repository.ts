import { and, desc, eq, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { profiles, userBlocks, users } from '../../db/schema.ts';
import { publicUserColumns } from '../users/public-user.columns.ts';
import type { PublicUserRow } from '../users/public-user.presenter.ts';

/** Blocks between users. Queries only. */
export class BlockRepository {
  constructor(private readonly db: Db) {}

  /** Adds the block, or removes it when it exists; answers whether it is now blocked. */
  async toggle(blockerId: string, blockedId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const removed = await tx
        .delete(userBlocks)
        .where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockedId, blockedId)))
        .returning({ id: userBlocks.blockedId });
      if (!removed.length) await tx.insert(userBlocks).values({ blockerId, blockedId }).onConflictDoNothing();
      return removed.length === 0;
    });
  }

  /** Whether either of the two blocked the other. */
  async between(a: string, b: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: userBlocks.blockerId })
      .from(userBlocks)
      .where(
        or(
          and(eq(userBlocks.blockerId, a), eq(userBlocks.blockedId, b)),
          and(eq(userBlocks.blockerId, b), eq(userBlocks.blockedId, a)),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  async blockedBy(blockerId: string): Promise<PublicUserRow[]> {
    return this.db
      .select(publicUserColumns)
      .from(userBlocks)
      .innerJoin(users, eq(users.id, userBlocks.blockedId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(userBlocks.blockerId, blockerId), isNull(users.deletedAt)))
      .orderBy(desc(userBlocks.createdAt));
  }
}
