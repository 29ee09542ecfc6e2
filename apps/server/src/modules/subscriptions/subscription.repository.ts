import type { SubscriptionStatus } from '@fanverse/contract';
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { ACCESS_STATUSES } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import { profiles, subscriptionBilling, subscriptions, users } from '../../db/schema.ts';
import { publicUserColumns } from '../users/public-user.columns.ts';
import type { PublicUserRow } from '../users/public-user.presenter.ts';
import { rowsOf } from '../wallet/ledger.repository.ts';

export interface SubscriptionRow {
  id: string;
  fanId: string;
  creatorId: string;
  status: SubscriptionStatus;
  currentPeriodEnd: Date;
  dynamicPricingId: string | null;
  createdAt: Date;
  provider: string | null;
  purchaseId: string | null;
  priceCents: number | null;
  startedAt: Date | null;
  lastActivationAt: Date | null;
  lastRenewalAt: Date | null;
}

const columns = {
  id: subscriptions.id,
  fanId: subscriptions.fanId,
  creatorId: subscriptions.creatorId,
  status: subscriptions.status,
  currentPeriodEnd: subscriptions.currentPeriodEnd,
  dynamicPricingId: subscriptions.dynamicPricingId,
  createdAt: subscriptions.createdAt,
  provider: subscriptionBilling.provider,
  purchaseId: subscriptionBilling.purchaseId,
  priceCents: subscriptionBilling.priceCents,
  startedAt: subscriptionBilling.startedAt,
  lastActivationAt: subscriptionBilling.lastActivationAt,
  lastRenewalAt: subscriptionBilling.lastRenewalAt,
};

/** Subscriptions (entitlements) and their billing facts. Queries only. */
export class SubscriptionRepository {
  constructor(private readonly db: Db) {}

  private select() {
    return this.db
      .select(columns)
      .from(subscriptions)
      .leftJoin(subscriptionBilling, eq(subscriptionBilling.subscriptionId, subscriptions.id));
  }

  async find(fanId: string, creatorId: string): Promise<SubscriptionRow | undefined> {
    const [row] = await this.select().where(
      and(eq(subscriptions.fanId, fanId), eq(subscriptions.creatorId, creatorId)),
    );
    return row;
  }

  /** Locks the fan's subscription to the creator for this transaction. */
  async lock(fanId: string, creatorId: string): Promise<SubscriptionRow | undefined> {
    await this.db.execute(
      sql`SELECT id FROM ${subscriptions} WHERE fan_id = ${fanId} AND creator_id = ${creatorId} FOR UPDATE`,
    );
    return this.find(fanId, creatorId);
  }

  async lockByPurchase(provider: string, purchaseId: string): Promise<SubscriptionRow | undefined> {
    const rows = await this.db.execute<{ subscription_id: string }>(
      sql`SELECT s.id AS subscription_id FROM ${subscriptions} s JOIN ${subscriptionBilling} b ON b.subscription_id = s.id
          WHERE b.provider = ${provider} AND b.purchase_id = ${purchaseId} FOR UPDATE OF s`,
    );
    const id = rowsOf<{ subscription_id: string }>(rows)[0]?.subscription_id;
    if (!id) return undefined;
    const [row] = await this.select().where(eq(subscriptions.id, id));
    return row;
  }

  /** Starts (or restarts) the fan's subscription with a new purchase. */
  async start(v: {
    fanId: string;
    creatorId: string;
    periodEnd: Date;
    dynamicPricingId: string | null;
    provider: string;
    purchaseId: string;
    priceCents: number;
    at: Date;
  }): Promise<string> {
    const [sub] = await this.db
      .insert(subscriptions)
      .values({
        fanId: v.fanId,
        creatorId: v.creatorId,
        status: 'active',
        currentPeriodEnd: v.periodEnd,
        dynamicPricingId: v.dynamicPricingId,
      })
      .onConflictDoUpdate({
        target: [subscriptions.fanId, subscriptions.creatorId],
        set: {
          status: 'active',
          currentPeriodEnd: v.periodEnd,
          dynamicPricingId: v.dynamicPricingId,
          updatedAt: v.at,
        },
      })
      .returning({ id: subscriptions.id });
    if (!sub) throw new Error('subscription not stored');
    const billing = {
      provider: v.provider,
      purchaseId: v.purchaseId,
      priceCents: v.priceCents,
      startedAt: v.at,
      lastActivationAt: v.at,
      lastRenewalAt: null,
      cancelledAt: null,
    };
    await this.db
      .insert(subscriptionBilling)
      .values({ subscriptionId: sub.id, ...billing })
      .onConflictDoUpdate({ target: subscriptionBilling.subscriptionId, set: billing });
    return sub.id;
  }

  async update(
    id: string,
    v: {
      status: SubscriptionStatus;
      periodEnd?: Date;
      renewedAt?: Date;
      activatedAt?: Date;
      cancelledAt?: Date;
      at: Date;
    },
  ): Promise<void> {
    await this.db
      .update(subscriptions)
      .set({ status: v.status, updatedAt: v.at, ...(v.periodEnd ? { currentPeriodEnd: v.periodEnd } : {}) })
      .where(eq(subscriptions.id, id));
    const billing = {
      ...(v.renewedAt ? { lastRenewalAt: v.renewedAt } : {}),
      ...(v.activatedAt ? { lastActivationAt: v.activatedAt } : {}),
      ...(v.cancelledAt ? { cancelledAt: v.cancelledAt } : {}),
    };
    if (Object.keys(billing).length)
      await this.db
        .update(subscriptionBilling)
        .set(billing)
        .where(eq(subscriptionBilling.subscriptionId, id));
  }

  /** Marks expired every active or cancelled subscription whose paid period ended before `now`. */
  async expireDue(now: Date): Promise<{ id: string; fanId: string; creatorId: string }[]> {
    return this.db
      .update(subscriptions)
      .set({ status: 'expired', updatedAt: now })
      .where(and(inArray(subscriptions.status, ACCESS_STATUSES), lt(subscriptions.currentPeriodEnd, now)))
      .returning({ id: subscriptions.id, fanId: subscriptions.fanId, creatorId: subscriptions.creatorId });
  }

  async ofFan(fanId: string): Promise<(SubscriptionRow & { creator: PublicUserRow })[]> {
    const rows = await this.db
      .select({ sub: columns, creator: publicUserColumns })
      .from(subscriptions)
      .leftJoin(subscriptionBilling, eq(subscriptionBilling.subscriptionId, subscriptions.id))
      .innerJoin(users, eq(users.id, subscriptions.creatorId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(subscriptions.fanId, fanId))
      .orderBy(desc(subscriptions.updatedAt));
    return rows.map((r) => ({ ...r.sub, creator: r.creator }));
  }

  async subscribersOf(creatorId: string, page: number, limit: number) {
    const where = eq(subscriptions.creatorId, creatorId);
    const [rows, [count]] = await Promise.all([
      this.db
        .select({ sub: columns, user: publicUserColumns })
        .from(subscriptions)
        .leftJoin(subscriptionBilling, eq(subscriptionBilling.subscriptionId, subscriptions.id))
        .innerJoin(users, eq(users.id, subscriptions.fanId))
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(where)
        .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: sql<number>`count(*)::int` }).from(subscriptions).where(where),
    ]);
    return { rows: rows.map((r) => ({ ...r.sub, user: r.user })), total: count?.n ?? 0 };
  }

  async setPricing(
    creatorId: string,
    v: {
      priceCents: number;
      discountStatus: string;
      discountPercent: number;
      discountDateLimit: Date | null;
    },
  ): Promise<void> {
    const values = {
      subscriptionPriceCents: v.priceCents,
      discountStatus: v.discountStatus,
      discountPercent: v.discountPercent,
      discountDateLimit: v.discountDateLimit,
      updatedAt: new Date(),
    };
    await this.db
      .insert(profiles)
      .values({ userId: creatorId, ...values })
      .onConflictDoUpdate({ target: profiles.userId, set: values });
  }
}
