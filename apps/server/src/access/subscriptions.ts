import type { SubscriptionStatus } from '@fanverse/contract';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { subscriptions } from '../db/schema.ts';

/**
 * The statuses that can still grant access. A cancelled subscription stops renewing but the fan
 * keeps what they paid for until the period ends; an expired one never grants access.
 */
export const ACCESS_STATUSES = ['active', 'cancelled'] as const satisfies readonly SubscriptionStatus[];

/**
 * THE definition of an active subscriber (spec §4): status active, or cancelled but paid until a
 * future date. Every service asks this; every query uses `activeSubscriptionSql`, its SQL twin.
 */
export function isActiveSubscription(
  sub: { status: string; currentPeriodEnd: Date } | null | undefined,
  now: Date,
): boolean {
  return (
    !!sub &&
    (ACCESS_STATUSES as readonly string[]).includes(sub.status) &&
    sub.currentPeriodEnd.getTime() > now.getTime()
  );
}

/** Columns of `subscriptions` or of an alias of it (`alias(subscriptions, 's')`). */
export type SubscriptionColumns = { status: SQLWrapper; currentPeriodEnd: SQLWrapper };

const at = (now: Date | undefined): SQL => (now ? sql`${now.toISOString()}::timestamptz` : sql`now()`);

/** SQL: this subscription row grants access now (or at `now` when given). */
export function activeSubscriptionSql(t: SubscriptionColumns = subscriptions, now?: Date): SQL {
  return sql`(${t.status} IN ('active', 'cancelled') AND ${t.currentPeriodEnd} > ${at(now)})`;
}

/** SQL: the fan is an active subscriber of the creator (each side a value or a column). */
export function subscribedSql(fan: SQLWrapper | string, creator: SQLWrapper | string, now?: Date): SQL {
  return sql`EXISTS (SELECT 1 FROM ${subscriptions} WHERE ${subscriptions.fanId} = ${fan}
    AND ${subscriptions.creatorId} = ${creator} AND ${activeSubscriptionSql(subscriptions, now)})`;
}
