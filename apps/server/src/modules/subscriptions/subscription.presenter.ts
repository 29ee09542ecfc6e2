import type { SubscriptionItem } from '@fanverse/contract';
import { type PublicUserRow, presentPublicUser } from '../users/public-user.presenter.ts';
import type { SubscriptionRow } from './subscription.repository.ts';

export function presentSubscription(
  row: SubscriptionRow & { creator: PublicUserRow },
  periodDays: number,
): SubscriptionItem {
  return {
    _id: row.id,
    creator: presentPublicUser(row.creator),
    status: row.status,
    date: (row.startedAt ?? row.createdAt).toISOString(),
    period: { end: row.currentPeriodEnd.toISOString(), days: periodDays },
    lastActivation: row.lastActivationAt?.toISOString() ?? null,
    lastRenewal: row.lastRenewalAt?.toISOString() ?? null,
    priceCents: row.priceCents,
    DynamicPricingID: row.dynamicPricingId,
  };
}
