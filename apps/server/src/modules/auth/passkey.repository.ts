import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passkeyChallenges, passkeys } from '../../db/schema.ts';

export type PasskeyRow = typeof passkeys.$inferSelect;

/** Passkeys and their WebAuthn challenges. Queries only. */
export class PasskeyRepository {
  constructor(private readonly db: Db) {}

  list(userId: string): Promise<PasskeyRow[]> {
    return this.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(asc(passkeys.createdAt));
  }

  async findByCredential(credentialId: string): Promise<PasskeyRow | undefined> {
    const rows = await this.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.credentialId, credentialId))
      .limit(1);
    return rows[0];
  }

  async add(values: typeof passkeys.$inferInsert): Promise<PasskeyRow> {
    const [row] = await this.db.insert(passkeys).values(values).returning();
    return row!;
  }

  /** Removes one of the account's passkeys; false when it is not the account's (or unknown). */
  async remove(userId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id });
    return rows.length === 1;
  }

  /** After a sign-in: the counter only moves forward (a cloned authenticator's older counter fails). */
  async used(id: string, counter: number, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(passkeys)
      .set({ counter, lastUsedAt: now })
      .where(and(eq(passkeys.id, id), sql`(${passkeys.counter} = 0 OR ${passkeys.counter} < ${counter})`))
      .returning({ id: passkeys.id });
    return rows.length === 1;
  }

  async createChallenge(values: typeof passkeyChallenges.$inferInsert): Promise<string> {
    const [row] = await this.db
      .insert(passkeyChallenges)
      .values(values)
      .returning({ id: passkeyChallenges.id });
    return row!.id;
  }

  /** Spends a live challenge of this kind (and account, for a registration) in one atomic UPDATE. */
  async useChallenge(id: string, kind: 'register' | 'login', userId: string | null, now: Date) {
    const rows = await this.db
      .update(passkeyChallenges)
      .set({ usedAt: now })
      .where(
        and(
          eq(passkeyChallenges.id, id),
          eq(passkeyChallenges.kind, kind),
          userId ? eq(passkeyChallenges.userId, userId) : isNull(passkeyChallenges.userId),
          isNull(passkeyChallenges.usedAt),
          gt(passkeyChallenges.expiresAt, now),
        ),
      )
      .returning({ challenge: passkeyChallenges.challenge });
    return rows[0]?.challenge;
  }
}
