import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResetCodes } from '../../db/schema.ts';

export type ResetCodeRow = typeof passwordResetCodes.$inferSelect;

/** Password reset codes, stored as hashes. Queries only. */
export class ResetCodeRepository {
  constructor(private readonly db: Db) {}

  /** Whether an unused, unexpired code with this hash exists (codes must be unambiguous). */
  async activeExists(codeHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .select({ id: passwordResetCodes.id })
      .from(passwordResetCodes)
      .where(
        and(
          eq(passwordResetCodes.codeHash, codeHash),
          isNull(passwordResetCodes.usedAt),
          isNull(passwordResetCodes.replacedAt),
          gt(passwordResetCodes.expiresAt, now),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

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

  /** The newest code with this hash, whatever its state. */
  async findNewest(codeHash: string): Promise<ResetCodeRow | undefined> {
    const rows = await this.db
      .select()
      .from(passwordResetCodes)
      .where(eq(passwordResetCodes.codeHash, codeHash))
      .orderBy(passwordResetCodes.createdAt)
      .limit(20);
    return rows.at(-1);
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
