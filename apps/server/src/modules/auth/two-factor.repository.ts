import { and, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginChallenges, recoveryCodes, userTwoFactor } from '../../db/schema.ts';

export type TwoFactorRow = typeof userTwoFactor.$inferSelect;

/** Two-factor secrets, recovery codes and login challenges. Queries only. */
export class TwoFactorRepository {
  constructor(private readonly db: Db) {}

  async find(userId: string): Promise<TwoFactorRow | undefined> {
    const rows = await this.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId)).limit(1);
    return rows[0];
  }

  /** A new pending secret (replaces a pending one; never an enabled one). */
  async savePending(userId: string, sealedSecret: string): Promise<boolean> {
    const rows = await this.db
      .insert(userTwoFactor)
      .values({ userId, totpSecret: sealedSecret })
      .onConflictDoUpdate({
        target: userTwoFactor.userId,
        set: { totpSecret: sealedSecret, lastTimeStep: null },
        setWhere: isNull(userTwoFactor.enabledAt),
      })
      .returning({ userId: userTwoFactor.userId });
    return rows.length === 1;
  }

  /** Enables the pending secret and stores new recovery codes, in one transaction. */
  async enable(userId: string, timeStep: number, codeHashes: string[], now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(userTwoFactor)
        .set({ enabledAt: now, lastTimeStep: timeStep })
        .where(and(eq(userTwoFactor.userId, userId), isNull(userTwoFactor.enabledAt)))
        .returning({ userId: userTwoFactor.userId });
      if (rows.length !== 1) return false;
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
      return true;
    });
  }

  /** New recovery codes in place of all the old ones, only while two-step sign-in is on. */
  async replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const on = await tx
        .select({ userId: userTwoFactor.userId })
        .from(userTwoFactor)
        .where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt)))
        .for('update');
      if (on.length !== 1) return false;
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
      return true;
    });
  }

  async disable(userId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    });
  }

  /** Accepts a TOTP time step only if it is newer than the last accepted one (no code twice). */
  async advanceTimeStep(userId: string, timeStep: number): Promise<boolean> {
    const rows = await this.db
      .update(userTwoFactor)
      .set({ lastTimeStep: timeStep })
      .where(
        and(
          eq(userTwoFactor.userId, userId),
          sql`(${userTwoFactor.lastTimeStep} IS NULL OR ${userTwoFactor.lastTimeStep} < ${timeStep})`,
        ),
      )
      .returning({ userId: userTwoFactor.userId });
    return rows.length === 1;
  }

  /** Uses a recovery code; answers false when it is unknown or already used (atomic). */
  async useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, codeHash),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    return rows.length === 1;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const rows = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return rows[0]?.n ?? 0;
  }

  async createChallenge(values: {
    userId: string;
    tokenHash: string;
    expiresAt: Date;
    userAgent: string | null;
    ip: string;
  }): Promise<void> {
    await this.db.insert(loginChallenges).values(values);
  }

  /**
   * Counts one guess against a live challenge and answers it, in one atomic UPDATE; nothing when
   * the challenge is unknown, used, expired or out of guesses.
   */
  async reserveChallengeAttempt(tokenHash: string, maxAttempts: number, now: Date) {
    const rows = await this.db
      .update(loginChallenges)
      .set({ attempts: sql`${loginChallenges.attempts} + 1` })
      .where(
        and(
          eq(loginChallenges.tokenHash, tokenHash),
          isNull(loginChallenges.usedAt),
          gt(loginChallenges.expiresAt, now),
          lt(loginChallenges.attempts, maxAttempts),
        ),
      )
      .returning();
    return rows[0];
  }

  async useChallenge(id: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(loginChallenges)
      .set({ usedAt: now })
      .where(and(eq(loginChallenges.id, id), isNull(loginChallenges.usedAt)))
      .returning({ id: loginChallenges.id });
    return rows.length === 1;
  }
}
