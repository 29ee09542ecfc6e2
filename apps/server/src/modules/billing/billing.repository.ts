import type { Role } from '@fanverse/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { checkouts, creditBags, paymentEvents, profiles, users } from '../../db/schema.ts';
import { rowsOf } from '../wallet/ledger.repository.ts';

export type CheckoutRow = typeof checkouts.$inferSelect;
export type CreditBagRow = typeof creditBags.$inferSelect;

/** Default credit bags (also inserted by the money migration); admins edit price and ticket. */
export const DEFAULT_BAGS: CreditBagRow[] = [
  { id: 'bag-250', credits: 250, priceCents: 2500, eticketid: '000000:25000', active: true, position: 1 },
  { id: 'bag-150', credits: 150, priceCents: 1500, eticketid: '000000:15000', active: true, position: 2 },
  { id: 'bag-50', credits: 50, priceCents: 500, eticketid: '000000:5000', active: true, position: 3 },
];

/** A person who pays or is paid: billing details, referrer, creator price. */
export interface PartyRow {
  id: string;
  username: string;
  name: string;
  email: string;
  country: string | null;
  language: string;
  roles: Role[];
  referredBy: string | null;
  subscriptionPriceCents: number | null;
  discountStatus: string;
  discountPercent: number;
  discountDateLimit: Date | null;
}

/** Products, checkouts and raw provider postbacks. Queries only. */
export class BillingRepository {
  constructor(private readonly db: Db) {}

  async bags(): Promise<CreditBagRow[]> {
    return this.db
      .select()
      .from(creditBags)
      .where(eq(creditBags.active, true))
      .orderBy(asc(creditBags.position));
  }

  async bag(id: string): Promise<CreditBagRow | undefined> {
    const [row] = await this.db
      .select()
      .from(creditBags)
      .where(and(eq(creditBags.id, id), eq(creditBags.active, true)));
    return row;
  }

  async bagByTicket(eticketid: string): Promise<CreditBagRow | undefined> {
    const [row] = await this.db.select().from(creditBags).where(eq(creditBags.eticketid, eticketid));
    return row;
  }

  async saveBag(bag: CreditBagRow): Promise<void> {
    const { id, ...rest } = bag;
    await this.db.insert(creditBags).values(bag).onConflictDoUpdate({ target: creditBags.id, set: rest });
  }

  /** Inserts the default bags that are missing (fresh databases, demo seed). */
  async ensureDefaultBags(): Promise<void> {
    await this.db.insert(creditBags).values(DEFAULT_BAGS).onConflictDoNothing();
  }

  async party(userId: string): Promise<PartyRow | undefined> {
    const [row] = await this.db
      .select({
        id: users.id,
        username: users.username,
        name: users.name,
        email: users.email,
        country: users.country,
        language: users.language,
        roles: users.roles,
        referredBy: users.referredBy,
        subscriptionPriceCents: profiles.subscriptionPriceCents,
        discountStatus: profiles.discountStatus,
        discountPercent: profiles.discountPercent,
        discountDateLimit: profiles.discountDateLimit,
      })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.id, userId), sql`${users.deletedAt} IS NULL`));
    if (!row) return undefined;
    return { ...row, discountStatus: row.discountStatus ?? 'off', discountPercent: row.discountPercent ?? 0 };
  }

  async createCheckout(values: typeof checkouts.$inferInsert): Promise<CheckoutRow> {
    const [row] = await this.db.insert(checkouts).values(values).returning();
    if (!row) throw new Error('checkout not created');
    return row;
  }

  async checkout(id: string): Promise<CheckoutRow | undefined> {
    const [row] = await this.db.select().from(checkouts).where(eq(checkouts.id, id));
    return row;
  }

  async lockCheckout(id: string): Promise<CheckoutRow | undefined> {
    const rows = await this.db.execute(sql`SELECT id FROM ${checkouts} WHERE id = ${id} FOR UPDATE`);
    if (!rowsOf(rows).length) return undefined;
    return this.checkout(id);
  }

  async checkoutByPurchase(provider: string, purchaseId: string): Promise<CheckoutRow | undefined> {
    const [row] = await this.db
      .select()
      .from(checkouts)
      .where(and(eq(checkouts.provider, provider), eq(checkouts.purchaseId, purchaseId)))
      .limit(1);
    return row;
  }

  async setCheckout(
    id: string,
    status: 'completed' | 'declined' | 'failed',
    purchaseId: string | null,
    at: Date,
  ) {
    await this.db.update(checkouts).set({ status, purchaseId, completedAt: at }).where(eq(checkouts.id, id));
  }

  /** Stores a postback raw; answers its id and status (an existing row for a replay). */
  async storeEvent(
    provider: string,
    key: string,
    event: string,
    raw: Record<string, unknown>,
  ): Promise<{ id: string; status: string; fresh: boolean }> {
    const [row] = await this.db
      .insert(paymentEvents)
      .values({ provider, idempotencyKey: key, event, raw })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id, status: paymentEvents.status });
    if (row) return { ...row, fresh: true };
    const [old] = await this.db
      .select({ id: paymentEvents.id, status: paymentEvents.status })
      .from(paymentEvents)
      .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.idempotencyKey, key)));
    if (!old) throw new Error('payment event vanished');
    return { ...old, fresh: false };
  }

  /** Locks a stored postback for applying it; answers its status. */
  async lockEvent(id: string): Promise<string | undefined> {
    const rows = await this.db.execute<{ status: string }>(
      sql`SELECT status FROM ${paymentEvents} WHERE id = ${id} FOR UPDATE`,
    );
    return rowsOf<{ status: string }>(rows)[0]?.status;
  }

  async markEvent(id: string, status: 'applied' | 'rejected' | 'ignored', at: Date, error?: string) {
    await this.db
      .update(paymentEvents)
      .set({ status, appliedAt: at, error: error ?? null })
      .where(eq(paymentEvents.id, id));
  }

  async eventCounts(): Promise<Record<string, number>> {
    const rows = await this.db
      .select({ status: paymentEvents.status, n: sql<number>`count(*)::int` })
      .from(paymentEvents)
      .groupBy(paymentEvents.status);
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }
}
