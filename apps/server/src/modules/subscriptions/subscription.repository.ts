import type { SubscriptionStatus } from '@fanverse/contract';
import { and, desc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
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
  /** Length of each renewed period when not the configured month (bundles). */
  periodDays: number | null;
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
  periodDays: subscriptionBilling.periodDays,
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

  async byId(id: string): Promise<SubscriptionRow | undefined> {
    const [row] = await this.select().where(eq(subscriptions.id, id));
    return row;
  }

  /**
   * Locks the fan's subscription to the creator for this transaction. The pair is also locked when
   * no row exists yet (a transaction-scoped advisory lock), so two first payments for the same pair
   * are applied one after the other, never side by side.
   */
  async lock(fanId: string, creatorId: string): Promise<SubscriptionRow | undefined> {
    await this.db.execute(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`subscription:${fanId}:${creatorId}`}, 0))`,
    );
    await this.db.execute(
      sql`SELECT id FROM ${subscriptions} WHERE fan_id = ${fanId} AND creator_id = ${creatorId} FOR UPDATE`,
    );
    return this.find(fanId, creatorId);
  }

  async byPurchase(provider: string, purchaseId: string): Promise<SubscriptionRow | undefined> {
    const [row] = await this.select().where(
      and(eq(subscriptionBilling.provider, provider), eq(subscriptionBilling.purchaseId, purchaseId)),
    );
    return row;
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
    periodDays: number | null;
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
      periodDays: v.periodDays,
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

  /**
   * Active paid subscriptions that renew within `until` and whose renewal notice for the current
   * period has not been mailed.
   */
  async dueForNotice(now: Date, until: Date, limit = 500): Promise<{ id: string; periodEnd: Date }[]> {
    return this.db
      .select({ id: subscriptions.id, periodEnd: subscriptions.currentPeriodEnd })
      .from(subscriptions)
      .innerJoin(subscriptionBilling, eq(subscriptionBilling.subscriptionId, subscriptions.id))
      .where(
        and(
          eq(subscriptions.status, 'active'),
          gt(subscriptions.currentPeriodEnd, now),
          lte(subscriptions.currentPeriodEnd, until),
          sql`${subscriptionBilling.renewalNoticeFor} IS DISTINCT FROM ${subscriptions.currentPeriodEnd}`,
        ),
      )
      .orderBy(subscriptions.currentPeriodEnd)
      .limit(limit);
  }

  /** Records that the renewal notice for this period end was mailed. */
  async markNoticed(id: string, periodEnd: Date): Promise<void> {
    await this.db
      .update(subscriptionBilling)
      .set({ renewalNoticeFor: periodEnd })
      .where(eq(subscriptionBilling.subscriptionId, id));
  }

  /** A subscription with what a mail about it needs: the fan's address and language, the creator's handle. */
  async mailFacts(id: string) {
    const fan = alias(users, 'fan');
    const creator = alias(users, 'creator');
    const [row] = await this.db
      .select({
        sub: columns,
        renewalNoticeFor: subscriptionBilling.renewalNoticeFor,
        fanEmail: fan.email,
        fanName: fan.name,
        fanLanguage: fan.language,
        creator: creator.username,
      })
      .from(subscriptions)
      .innerJoin(subscriptionBilling, eq(subscriptionBilling.subscriptionId, subscriptions.id))
      .innerJoin(fan, eq(fan.id, subscriptions.fanId))
      .innerJoin(creator, eq(creator.id, subscriptions.creatorId))
      .where(and(eq(subscriptions.id, id), sql`${fan.deletedAt} IS NULL`));
    return row;
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
