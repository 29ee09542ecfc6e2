import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  type LedgerCategory,
  ledgerEntries,
  ledgerTransactions,
  profiles,
  users,
  wallets,
} from '../../db/schema.ts';
import { publicUserColumns } from '../users/public-user.columns.ts';
import type { PublicUserRow } from '../users/public-user.presenter.ts';
import { type Currency, isBalanced, type Leg } from './money.math.ts';

export type TransferRow = typeof ledgerTransactions.$inferSelect;

export interface NewTransfer {
  kind: string;
  category?: LedgerCategory | null;
  /** Unique: a second transfer with the same key is not recorded (exactly-once). */
  key: string;
  userId?: string | null;
  creatorId?: string | null;
  postId?: string | null;
  /** The paid message a message unlock paid for. */
  messageId?: string | null;
  provider?: string | null;
  purchaseId?: string | null;
  transactionId?: string | null;
  amountCents?: number;
  credits?: number;
  relatedId?: string | null;
  memo?: string | null;
  at?: Date;
}

/** The append-only ledger and the wallets kept in step with it. Queries only. */
export class LedgerRepository {
  constructor(private readonly db: Db) {}

  /** Records a balanced transfer; answers undefined when its key was already recorded. */
  async post(head: NewTransfer, legs: Leg[]): Promise<TransferRow | undefined> {
    if (!isBalanced(legs)) throw new Error(`unbalanced transfer ${head.kind}`);
    const [row] = await this.db
      .insert(ledgerTransactions)
      .values({
        kind: head.kind,
        category: head.category ?? null,
        idempotencyKey: head.key,
        userId: head.userId ?? null,
        creatorId: head.creatorId ?? null,
        postId: head.postId ?? null,
        messageId: head.messageId ?? null,
        provider: head.provider ?? null,
        purchaseId: head.purchaseId ?? null,
        transactionId: head.transactionId ?? null,
        amountCents: head.amountCents ?? 0,
        credits: head.credits ?? 0,
        relatedId: head.relatedId ?? null,
        memo: head.memo ?? null,
        ...(head.at ? { createdAt: head.at } : {}),
      })
      .onConflictDoNothing({ target: ledgerTransactions.idempotencyKey })
      .returning();
    if (!row) return undefined;
    if (legs.length)
      await this.db.insert(ledgerEntries).values(
        legs.map((l) => ({
          transactionId: row.id,
          account: l.account,
          currency: l.currency,
          amount: l.amount,
          availableAt: l.availableAt ?? null,
          ...(head.at ? { createdAt: head.at } : {}),
        })),
      );
    return row;
  }

  /** Locks the fan's wallet row for this transaction (created empty when missing); answers its credits. */
  async lockWallet(userId: string): Promise<number> {
    await this.db.insert(wallets).values({ userId, credits: 0 }).onConflictDoNothing();
    const rows = await this.db.execute<{ credits: number }>(
      sql`SELECT credits FROM ${wallets} WHERE user_id = ${userId} FOR UPDATE`,
    );
    return Number(rowsOf<{ credits: number }>(rows)[0]?.credits ?? 0);
  }

  /** Adds `delta` to a wallet locked by lockWallet; refuses to go below zero. */
  async changeWallet(userId: string, delta: number): Promise<number> {
    const [row] = await this.db
      .update(wallets)
      .set({ credits: sql`${wallets.credits} + ${delta}`, updatedAt: new Date() })
      .where(and(eq(wallets.userId, userId), sql`${wallets.credits} + ${delta} >= 0`))
      .returning({ credits: wallets.credits });
    if (!row) throw new Error('wallet would go below zero');
    return row.credits;
  }

  async walletCredits(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ credits: wallets.credits })
      .from(wallets)
      .where(eq(wallets.userId, userId));
    return row?.credits ?? 0;
  }

  async findByKey(key: string): Promise<TransferRow | undefined> {
    const [row] = await this.db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idempotencyKey, key));
    return row;
  }

  /** The original sale behind a provider transaction id (relatedtranid of a refund or chargeback). */
  async findSale(provider: string, transactionId: string): Promise<TransferRow | undefined> {
    const [row] = await this.db
      .select()
      .from(ledgerTransactions)
      .where(
        and(
          eq(ledgerTransactions.provider, provider),
          eq(ledgerTransactions.transactionId, transactionId),
          inArray(ledgerTransactions.kind, ['credits_purchase', 'subscription', 'subscription_renewal']),
        ),
      )
      .limit(1);
    return row;
  }

  /** The latest sale of a purchase (subscription or credit bag). */
  async latestSaleOfPurchase(provider: string, purchaseId: string): Promise<TransferRow | undefined> {
    const [row] = await this.db
      .select()
      .from(ledgerTransactions)
      .where(
        and(
          eq(ledgerTransactions.provider, provider),
          eq(ledgerTransactions.purchaseId, purchaseId),
          inArray(ledgerTransactions.kind, ['credits_purchase', 'subscription', 'subscription_renewal']),
        ),
      )
      .orderBy(desc(ledgerTransactions.createdAt))
      .limit(1);
    return row;
  }

  async isReversed(transferId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: ledgerTransactions.id })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.relatedId, transferId))
      .limit(1);
    return rows.length > 0;
  }

  async legsOf(transferId: string): Promise<Leg[]> {
    const rows = await this.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.transactionId, transferId))
      .orderBy(ledgerEntries.account);
    return rows.map((r) => ({
      account: r.account,
      currency: r.currency as Currency,
      amount: r.amount,
      availableAt: r.availableAt,
    }));
  }

  /** Balance of one account in one currency (sum of its legs). */
  async balance(account: string, currency: Currency, availableBy?: Date): Promise<number> {
    const rows = await this.db
      .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.account, account),
          eq(ledgerEntries.currency, currency),
          availableBy
            ? sql`(${ledgerEntries.availableAt} IS NULL OR ${ledgerEntries.availableAt} <= ${availableBy})`
            : undefined,
        ),
      );
    return Number(rows[0]?.total ?? 0);
  }

  /** Sum of every leg per currency (zero in a sound ledger). */
  async totals(): Promise<Record<string, number>> {
    const rows = await this.db
      .select({ currency: ledgerEntries.currency, total: sql<string>`sum(${ledgerEntries.amount})` })
      .from(ledgerEntries)
      .groupBy(ledgerEntries.currency);
    return Object.fromEntries(rows.map((r) => [r.currency, Number(r.total)]));
  }

  /** Balances of every account (tests and audits). */
  async balances(): Promise<{ account: string; currency: string; total: number }[]> {
    const rows = await this.db
      .select({
        account: ledgerEntries.account,
        currency: ledgerEntries.currency,
        total: sql<string>`sum(${ledgerEntries.amount})`,
      })
      .from(ledgerEntries)
      .groupBy(ledgerEntries.account, ledgerEntries.currency);
    return rows.map((r) => ({ account: r.account, currency: r.currency, total: Number(r.total) }));
  }

  /** Wallet rows whose credits differ from their ledger account (empty in a sound ledger). */
  async walletMismatches(): Promise<{ userId: string; credits: number; ledger: number }[]> {
    const rows = await this.db.execute<{ user_id: string; credits: number; ledger: string }>(sql`
      SELECT w.user_id, w.credits, coalesce(sum(e.amount), 0) AS ledger
      FROM ${wallets} w LEFT JOIN ${ledgerEntries} e
        ON e.account = 'fan:' || w.user_id::text AND e.currency = 'credits'
      GROUP BY w.user_id, w.credits
      HAVING w.credits <> coalesce(sum(e.amount), 0) OR w.credits < 0`);
    return rowsOf<{ user_id: string; credits: number; ledger: string }>(rows).map((r) => ({
      userId: r.user_id,
      credits: Number(r.credits),
      ledger: Number(r.ledger),
    }));
  }

  /** A page of the fan's credit movements. */
  async creditHistory(userId: string, page: number, limit: number) {
    const account = `fan:${userId}`;
    const where = and(eq(ledgerEntries.account, account), eq(ledgerEntries.currency, 'credits'));
    const [items, [count]] = await Promise.all([
      this.db
        .select({
          id: ledgerTransactions.id,
          kind: ledgerTransactions.kind,
          credits: ledgerEntries.amount,
          creator: publicUserColumns,
          postId: ledgerTransactions.postId,
          createdAt: ledgerTransactions.createdAt,
        })
        .from(ledgerEntries)
        .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
        .leftJoin(users, eq(users.id, ledgerTransactions.creatorId))
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(where)
        .orderBy(desc(ledgerTransactions.createdAt), desc(ledgerTransactions.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries).where(where),
    ]);
    return { items: items.map((i) => ({ ...i, creator: creatorOf(i.creator) })), total: count?.n ?? 0 };
  }

  /** A page of the fan's transfers: payments, spends and their reversals. */
  async transfersOf(userId: string, page: number, limit: number) {
    const where = eq(ledgerTransactions.userId, userId);
    const [items, [count]] = await Promise.all([
      this.db
        .select({ transfer: ledgerTransactions, creator: publicUserColumns })
        .from(ledgerTransactions)
        .leftJoin(users, eq(users.id, ledgerTransactions.creatorId))
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(where)
        .orderBy(desc(ledgerTransactions.createdAt), desc(ledgerTransactions.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: sql<number>`count(*)::int` }).from(ledgerTransactions).where(where),
    ]);
    return {
      items: items.map((i) => ({ ...i.transfer, creator: creatorOf(i.creator) })),
      total: count?.n ?? 0,
    };
  }
}

/** A left-joined person: null when the row names nobody. */
function creatorOf(row: { id: string | null } | null): PublicUserRow | null {
  return row?.id ? (row as PublicUserRow) : null;
}

/** drizzle's execute answers rows (PGlite) or a result with rows (node-postgres). */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
