import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResetCodes } from '../../db/schema.ts';

export type ResetCodeRow = typeof passwordResetCodes.$inferSelect;

/** Password reset codes, stored as hashes. Queries only. */
export class ResetCodeRepository {
  constructor(private readonly db: Db) {}

  /** Stores a new code for the user and retires the older ones. */
  async replace(userId: string, codeHash: string, expiresAt: Date, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(passwordResetCodes)
        .set({ replacedAt: now })
        .where(
          and(
            eq(passwordResetCodes.userId, userId),
            isNull(passwordResetCodes.usedAt),
            isNull(passwordResetCodes.replacedAt),
          ),
        );
      await tx.insert(passwordResetCodes).values({ userId, codeHash, expiresAt });
    });
  }

  /**
   * Counts one guess against the account's live code (unused, not replaced) and answers it, in one
   * atomic UPDATE; nothing when there is no live code or it has had `maxAttempts` guesses already.
   */
  async reserveAttempt(userId: string, maxAttempts: number): Promise<ResetCodeRow | undefined> {
    const rows = await this.db
      .update(passwordResetCodes)
      .set({ attempts: sql`${passwordResetCodes.attempts} + 1` })
      .where(
        and(
          eq(passwordResetCodes.userId, userId),
          isNull(passwordResetCodes.usedAt),
          isNull(passwordResetCodes.replacedAt),
          lt(passwordResetCodes.attempts, maxAttempts),
        ),
      )
      .returning();
    return rows[0];
  }

  /** Marks the code used; answers false when another request used it first. */
  async consume(id: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(passwordResetCodes)
      .set({ usedAt: now })
      .where(and(eq(passwordResetCodes.id, id), isNull(passwordResetCodes.usedAt)))
      .returning({ id: passwordResetCodes.id });
    return rows.length === 1;
  }
}
