import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailConfirmations, users } from '../../db/schema.ts';

export type EmailConfirmationRow = typeof emailConfirmations.$inferSelect;

/** Email confirmation codes and link tokens, stored as hashes; the verified flag. Queries only. */
export class EmailConfirmationRepository {
  constructor(private readonly db: Db) {}

  /** Stores a new code and link token for the user and retires the older ones. */
  async replace(
    userId: string,
    codeHash: string,
    tokenHash: string,
    expiresAt: Date,
    now: Date,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(emailConfirmations)
        .set({ replacedAt: now })
        .where(
          and(
            eq(emailConfirmations.userId, userId),
            isNull(emailConfirmations.usedAt),
            isNull(emailConfirmations.replacedAt),
          ),
        );
      await tx.insert(emailConfirmations).values({ userId, codeHash, tokenHash, expiresAt });
    });
  }

  /**
   * Counts one typed code against the account's live row and answers it, in one atomic UPDATE;
   * nothing when there is no live row or it has had `maxAttempts` guesses already.
   */
  async reserveAttempt(userId: string, maxAttempts: number): Promise<EmailConfirmationRow | undefined> {
    const rows = await this.db
      .update(emailConfirmations)
      .set({ attempts: sql`${emailConfirmations.attempts} + 1` })
      .where(
        and(
          eq(emailConfirmations.userId, userId),
          isNull(emailConfirmations.usedAt),
          isNull(emailConfirmations.replacedAt),
          lt(emailConfirmations.attempts, maxAttempts),
        ),
      )
      .returning();
    return rows[0];
  }

  /** The live row a mail's link points at (the token is 256 bits: no guess counter needed). */
  async findLiveByToken(tokenHash: string): Promise<EmailConfirmationRow | undefined> {
    const rows = await this.db
      .select()
      .from(emailConfirmations)
      .where(
        and(
          eq(emailConfirmations.tokenHash, tokenHash),
          isNull(emailConfirmations.usedAt),
          isNull(emailConfirmations.replacedAt),
        ),
      )
      .limit(1);
    return rows[0];
  }

  /**
   * Uses the row and sets the verified flag in one transaction; answers false when another request
   * used the row first (so two concurrent confirmations cannot both go on to grant anything).
   */
  async consumeAndVerify(id: string, userId: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const used = await tx
        .update(emailConfirmations)
        .set({ usedAt: now })
        .where(and(eq(emailConfirmations.id, id), isNull(emailConfirmations.usedAt)))
        .returning({ id: emailConfirmations.id });
      if (used.length !== 1) return false;
      await tx.update(users).set({ verified: true }).where(eq(users.id, userId));
      return true;
    });
  }
}
