import type { SubscriptionItem } from '@fanverse/contract';
import { type PublicUserRow, presentPublicUser } from '../users/public-user.presenter.ts';
import type { SubscriptionRow } from './subscription.repository.ts';
import { nextCharge } from './subscription.state.ts';

export function presentSubscription(
  row: SubscriptionRow & { creator: PublicUserRow },
  periodDays: number,
  now: Date,
): SubscriptionItem {
  return {
    _id: row.id,
    creator: presentPublicUser(row.creator),
    status: row.status,
    date: (row.startedAt ?? row.createdAt).toISOString(),
    period: { end: row.currentPeriodEnd.toISOString(), days: row.periodDays ?? periodDays },
    lastActivation: row.lastActivationAt?.toISOString() ?? null,
    lastRenewal: row.lastRenewalAt?.toISOString() ?? null,
    priceCents: row.priceCents,
    DynamicPricingID: row.dynamicPricingId,
    nextCharge: nextCharge(row, now),
  };
}
