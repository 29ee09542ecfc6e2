import type { SubscriptionStatus } from '@fanverse/contract';

/** What can happen to a subscription (provider events and the fan's own actions). */
export type SubscriptionEvent = 'start' | 'renew' | 'cancel' | 'reactivate' | 'expire' | 'revoke';

/**
 * The subscription state machine of spec §4, in one place. `undefined` = no subscription yet.
 * A transition that is not listed is refused (null): the caller ignores the event.
 */
const TRANSITIONS: Record<
  SubscriptionStatus | 'none',
  Partial<Record<SubscriptionEvent, SubscriptionStatus>>
> = {
  none: { start: 'active', renew: 'active' },
  active: { start: 'active', renew: 'active', cancel: 'cancelled', expire: 'expired', revoke: 'expired' },
  cancelled: {
    start: 'active',
    renew: 'active',
    reactivate: 'active',
    cancel: 'cancelled',
    expire: 'expired',
    revoke: 'expired',
  },
  expired: { start: 'active', renew: 'active', reactivate: 'active', expire: 'expired', revoke: 'expired' },
};

export function nextStatus(
  current: SubscriptionStatus | undefined,
  event: SubscriptionEvent,
): SubscriptionStatus | null {
  return TRANSITIONS[current ?? 'none'][event] ?? null;
}

/**
 * The next charge of a subscription: its price at the end of the paid period, when it renews by
 * itself (active, paid through a processor, period not over). Cancelled or expired: none.
 */
export function nextCharge(
  sub: {
    status: SubscriptionStatus;
    currentPeriodEnd: Date;
    priceCents: number | null;
    provider: string | null;
  },
  now: Date,
): { at: string; amountCents: number } | null {
  if (sub.status !== 'active' || sub.priceCents === null || !sub.provider) return null;
  if (sub.currentPeriodEnd <= now) return null;
  return { at: sub.currentPeriodEnd.toISOString(), amountCents: sub.priceCents };
}
