import { and, asc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { oidcFlows, passkeys, userIdentities, users } from '../../db/schema.ts';

export type IdentityRow = typeof userIdentities.$inferSelect;
export type OidcFlowRow = typeof oidcFlows.$inferSelect;

/** Provider accounts linked to accounts, and the provider sign-ins under way. Queries only. */
export class IdentityRepository {
  constructor(private readonly db: Db) {}

  list(userId: string): Promise<IdentityRow[]> {
    return this.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, userId))
      .orderBy(asc(userIdentities.createdAt));
  }

  async find(provider: string, subject: string): Promise<IdentityRow | undefined> {
    const rows = await this.db
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)))
      .limit(1);
    return rows[0];
  }

  /** Links; answers the account the provider account belongs to (another one when already linked). */
  async link(userId: string, provider: string, subject: string, email: string | null): Promise<string> {
    const inserted = await this.db
      .insert(userIdentities)
      .values({ userId, provider, subject, email })
      .onConflictDoNothing({ target: [userIdentities.provider, userIdentities.subject] })
      .returning({ userId: userIdentities.userId });
    if (inserted[0]) return inserted[0].userId;
    return (await this.find(provider, subject))?.userId ?? userId;
  }

  async used(id: string, now: Date): Promise<void> {
    await this.db.update(userIdentities).set({ lastUsedAt: now }).where(eq(userIdentities.id, id));
  }

  /**
   * Unlinks only while another way to sign in stays: a chosen password, a passkey or another
   * provider (one statement, so the check and the delete see the same rows). False otherwise.
   */
  async unlinkKeepingAWayIn(userId: string, provider: string): Promise<'done' | 'missing' | 'last'> {
    const deleted = await this.db
      .delete(userIdentities)
      .where(
        and(
          eq(userIdentities.userId, userId),
          eq(userIdentities.provider, provider),
          sql`(exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.passwordSet})
            or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})
            or exists (select 1 from ${userIdentities} other where other.user_id = ${userId}
                       and other.provider <> ${provider}))`,
        ),
      )
      .returning({ id: userIdentities.id });
    if (deleted.length) return 'done';
    const still = await this.db
      .select({ id: userIdentities.id })
      .from(userIdentities)
      .where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider)))
      .limit(1);
    return still.length ? 'last' : 'missing';
  }

  async createFlow(values: typeof oidcFlows.$inferInsert): Promise<void> {
    await this.db.insert(oidcFlows).values(values);
  }

  /** Spends a live flow for this state and browser in one atomic UPDATE. */
  async useFlow(stateHash: string, browserHash: string, now: Date): Promise<OidcFlowRow | undefined> {
    const rows = await this.db
      .update(oidcFlows)
      .set({ usedAt: now })
      .where(
        and(
          eq(oidcFlows.stateHash, stateHash),
          eq(oidcFlows.browserHash, browserHash),
          isNull(oidcFlows.usedAt),
          gt(oidcFlows.expiresAt, now),
        ),
      )
      .returning();
    return rows[0];
  }

  async keepForSignup(id: string, ticketHash: string, claims: unknown, expiresAt: Date): Promise<void> {
    await this.db
      .update(oidcFlows)
      .set({ ticketHash, claims, ticketExpiresAt: expiresAt })
      .where(eq(oidcFlows.id, id));
  }

  /** A live, unspent sign-up ticket (not spent by reading). */
  async findTicket(ticketHash: string, now: Date): Promise<OidcFlowRow | undefined> {
    const rows = await this.db
      .select()
      .from(oidcFlows)
      .where(
        and(
          eq(oidcFlows.ticketHash, ticketHash),
          isNull(oidcFlows.ticketUsedAt),
          gt(oidcFlows.ticketExpiresAt, now),
        ),
      )
      .limit(1);
    return rows[0];
  }

  /** Spends the ticket (atomic); false when another request spent it first. */
  async useTicket(id: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(oidcFlows)
      .set({ ticketUsedAt: now })
      .where(and(eq(oidcFlows.id, id), isNull(oidcFlows.ticketUsedAt), gt(oidcFlows.ticketExpiresAt, now)))
      .returning({ id: oidcFlows.id });
    return rows.length > 0;
  }

  /** Gives a ticket back when the account could not be made (a username taken meanwhile). */
  async releaseTicket(id: string): Promise<void> {
    await this.db.update(oidcFlows).set({ ticketUsedAt: null }).where(eq(oidcFlows.id, id));
  }

  /** Whether the account has another way in than this provider (for the security page). */
  async otherWaysIn(userId: string, provider: string): Promise<boolean> {
    const rows = await this.db
      .select({ ok: sql<boolean>`true` })
      .from(users)
      .where(
        and(
          eq(users.id, userId),
          sql`(${users.passwordSet}
            or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})
            or exists (select 1 from ${userIdentities} where ${userIdentities.userId} = ${userId}
                       and ${ne(userIdentities.provider, provider)}))`,
        ),
      );
    return rows.length > 0;
  }
}
