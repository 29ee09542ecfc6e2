import type { PayoutStatus } from '@fanverse/contract';
import { and, desc, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ledgerEntries, ledgerTransactions, payoutMethods, payouts, users } from '../../db/schema.ts';
import { rowsOf } from '../wallet/ledger.repository.ts';

export type PayoutRow = typeof payouts.$inferSelect;

/** Creators' earnings and sales over the ledger, payout methods and payouts. Queries only. */
export class EarningsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The creator's share by category and by day or month (in the platform time zone), oldest first:
   * what the earnings chart draws.
   */
  async earningsOverTime(creatorId: string, since: Date | null, unit: 'day' | 'month', timezone: string) {
    const bucket = sql<string>`to_char(${ledgerTransactions.createdAt} AT TIME ZONE ${timezone}, ${unit === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM'})`;
    return (
      this.db
        .select({
          bucket,
          category: ledgerTransactions.category,
          total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)`,
        })
        .from(ledgerEntries)
        .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
        .where(
          and(
            eq(ledgerEntries.account, `creator:${creatorId}`),
            eq(ledgerEntries.currency, 'cents'),
            isNotNull(ledgerTransactions.category),
            since ? gte(ledgerTransactions.createdAt, since) : undefined,
          ),
        )
        // By position: the bucket's parameters would not match a repeated expression.
        .groupBy(sql`1`, sql`2`)
        .orderBy(sql`1`)
    );
  }

  /** Gross sales by category (count of sales, amount net of reversals) since a date. */
  async salesByCategory(creatorId: string, since: Date | null) {
    return this.db
      .select({
        category: ledgerTransactions.category,
        count: sql<number>`count(*) FILTER (WHERE ${ledgerTransactions.kind} NOT IN ('refund', 'chargeback'))::int`,
        amount: sql<string>`coalesce(sum(${ledgerTransactions.amountCents}), 0)`,
      })
      .from(ledgerTransactions)
      .where(
        and(
          eq(ledgerTransactions.creatorId, creatorId),
          isNotNull(ledgerTransactions.category),
          since ? gte(ledgerTransactions.createdAt, since) : undefined,
        ),
      )
      .groupBy(ledgerTransactions.category);
  }

  /** Creators whose available earnings (holding period over) reach `min` cents. */
  async availableBalances(now: Date, min: number): Promise<{ creatorId: string; available: number }[]> {
    const rows = await this.db.execute<{ account: string; available: string }>(sql`
      SELECT account, sum(amount) AS available FROM ${ledgerEntries}
      WHERE account LIKE 'creator:%' AND currency = 'cents' AND (available_at IS NULL OR available_at <= ${now})
      GROUP BY account HAVING sum(amount) >= ${min}`);
    return rowsOf<{ account: string; available: string }>(rows).map((r) => ({
      creatorId: r.account.slice('creator:'.length),
      available: Number(r.available),
    }));
  }

  async method(userId: string) {
    const [row] = await this.db.select().from(payoutMethods).where(eq(payoutMethods.userId, userId));
    return row;
  }

  async setMethod(userId: string, kind: string, details: Record<string, string>, masked: string) {
    const values = { kind, details, masked, updatedAt: new Date() };
    await this.db
      .insert(payoutMethods)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: payoutMethods.userId, set: values });
  }

  async createPayout(v: {
    creatorId: string;
    batchKey: string;
    amountCents: number;
    method: string | null;
    at: Date;
  }) {
    const [row] = await this.db
      .insert(payouts)
      .values({ ...v, createdAt: v.at })
      .onConflictDoNothing()
      .returning();
    return row;
  }

  async payoutsOf(creatorId: string, limit = 50): Promise<PayoutRow[]> {
    return this.db
      .select()
      .from(payouts)
      .where(eq(payouts.creatorId, creatorId))
      .orderBy(desc(payouts.createdAt))
      .limit(limit);
  }

  async lockPayout(id: string): Promise<PayoutRow | undefined> {
    await this.db.execute(sql`SELECT id FROM ${payouts} WHERE id = ${id} FOR UPDATE`);
    const [row] = await this.db.select().from(payouts).where(eq(payouts.id, id));
    return row;
  }

  async decidePayout(id: string, status: PayoutStatus, at: Date) {
    await this.db.update(payouts).set({ status, decidedAt: at }).where(eq(payouts.id, id));
  }

  async list(status: PayoutStatus | undefined, page: number, limit: number) {
    const where = status ? eq(payouts.status, status) : undefined;
    const [items, [count]] = await Promise.all([
      this.db
        .select({ payout: payouts, username: users.username })
        .from(payouts)
        .innerJoin(users, eq(users.id, payouts.creatorId))
        .where(where)
        .orderBy(desc(payouts.createdAt), desc(payouts.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: sql<number>`count(*)::int` }).from(payouts).where(where),
    ]);
    return { items, total: count?.n ?? 0 };
  }

  async username(id: string): Promise<string> {
    const [row] = await this.db.select({ username: users.username }).from(users).where(eq(users.id, id));
    return row?.username ?? '';
  }
}
