import type { NotificationKind } from '@fanverse/contract';
import type { MoneyConfig } from '../../config.ts';
import type { PaymentEvent } from '../../payments/payment-provider.ts';
import { nextStatus } from '../subscriptions/subscription.state.ts';
import {
  ACCOUNTS,
  addDays,
  creditPurchaseLegs,
  creditPurchaseReversalLegs,
  reverseLegs,
  saleLegs,
} from '../wallet/money.math.ts';
import type { MoneyRepos } from '../wallet/money.unit.ts';
import type { MoneyTerms } from '../wallet/terms.service.ts';

/** A notification to send once the transaction has committed. */
export interface Notice {
  userId: string;
  kind: NotificationKind;
  actorId: string;
  payload: Record<string, string | number>;
}

export type ApplyOutcome =
  /** `receipts`: ledger keys of the charges this event recorded; each gets a receipt mail. */
  | {
      outcome: 'applied' | 'ignored';
      notices: Notice[];
      receipts?: string[];
      /** A new subscription: its welcome message is queued once the transaction committed. */
      started?: { fanId: string; creatorId: string; purchaseId: string };
    }
  | { outcome: 'rejected'; reason: string; notices: Notice[]; retry?: boolean };

const ok = (notices: Notice[] = [], receipts: string[] = []): ApplyOutcome => ({
  outcome: 'applied',
  notices,
  receipts,
});
const saleKey = (e: PaymentEvent) => `sale:${e.provider}:${e.transactionId}`;
const ignored = (): ApplyOutcome => ({ outcome: 'ignored', notices: [] });
const rejected = (reason: string): ApplyOutcome => ({ outcome: 'rejected', reason, notices: [] });
/** Not applicable yet (it refers to a sale not received yet): left unapplied so a retry applies it. */
const notYet = (reason: string): ApplyOutcome => ({ outcome: 'rejected', reason, notices: [], retry: true });

/**
 * Applies one normalized provider event inside the caller's transaction: ledger legs, wallet,
 * subscription state and entitlements change together. Amount and package are checked against the
 * pending checkout; refunds and chargebacks reverse every leg of the original sale.
 */
export class PostbackApplier {
  constructor(
    private readonly terms: MoneyTerms,
    private readonly config: MoneyConfig,
  ) {}

  apply(r: MoneyRepos, e: PaymentEvent): Promise<ApplyOutcome> {
    switch (e.type) {
      case 'credits_purchased':
        return this.creditsPurchased(r, e);
      case 'subscription_started':
        return this.subscriptionStarted(r, e);
      case 'subscription_renewed':
        return this.subscriptionRenewed(r, e);
      case 'subscription_cancelled':
        return this.subscriptionChanged(r, e, 'cancel');
      case 'subscription_expired':
        return this.subscriptionChanged(r, e, 'expire');
      case 'subscription_reactivated':
        return this.subscriptionChanged(r, e, 'reactivate');
      case 'payment_failed':
        return this.paymentFailed(r, e);
      case 'refunded':
      case 'voided':
      case 'chargeback':
        return this.reverse(r, e);
      case 'ignored':
        return Promise.resolve(ignored());
    }
  }

  private async pendingCheckout(r: MoneyRepos, e: PaymentEvent, kind: 'credits' | 'subscription') {
    if (!e.checkoutId || !/^[0-9a-f-]{36}$/i.test(e.checkoutId)) return { error: 'no checkout' } as const;
    const checkout = await r.billing.lockCheckout(e.checkoutId);
    if (!checkout || checkout.provider !== e.provider || checkout.kind !== kind)
      return { error: 'unknown checkout' } as const;
    if (e.userId && e.userId !== checkout.userId) return { error: 'user mismatch' } as const;
    if (checkout.status !== 'pending') return { error: 'checkout not pending' } as const;
    if (e.amountCents !== checkout.amountCents) return { error: 'amount mismatch' } as const;
    if (e.eticketid && checkout.eticketid && e.eticketid !== checkout.eticketid)
      return { error: 'package mismatch' } as const;
    if (!e.transactionId || !e.purchaseId) return { error: 'no transaction' } as const;
    return { checkout };
  }

  private async creditsPurchased(r: MoneyRepos, e: PaymentEvent): Promise<ApplyOutcome> {
    const found = await this.pendingCheckout(r, e, 'credits');
    if ('error' in found) return rejected(found.error ?? 'bad checkout');
    const { checkout } = found;
    await r.ledger.lockWallet(checkout.userId);
    const row = await r.ledger.post(
      {
        kind: 'credits_purchase',
        category: 'credits',
        key: saleKey(e),
        userId: checkout.userId,
        provider: e.provider,
        purchaseId: e.purchaseId,
        transactionId: e.transactionId,
        amountCents: checkout.amountCents,
        credits: checkout.credits,
        at: e.at,
      },
      creditPurchaseLegs(e.provider, checkout.userId, checkout.amountCents, checkout.credits),
    );
    if (!row) return ignored();
    await r.ledger.changeWallet(checkout.userId, checkout.credits);
    await r.billing.setCheckout(checkout.id, 'completed', e.purchaseId, e.at);
    return ok([], [row.idempotencyKey]);
  }

  private async subscriptionStarted(r: MoneyRepos, e: PaymentEvent): Promise<ApplyOutcome> {
    const found = await this.pendingCheckout(r, e, 'subscription');
    if ('error' in found) return rejected(found.error ?? 'bad checkout');
    const { checkout } = found;
    const creatorId = checkout.creatorId;
    if (!creatorId || !e.purchaseId) return rejected('no creator');
    const current = await r.subscriptions.lock(checkout.userId, creatorId);
    if (!nextStatus(current?.status, 'start')) return rejected('bad transition');
    // A second checkout paid while the first one's period runs (two tabs, a double click): the fan
    // is subscribed already, so this payment is declined instead of buying a second period.
    if (
      current?.status === 'active' &&
      current.currentPeriodEnd > e.at &&
      current.purchaseId !== e.purchaseId
    ) {
      await r.billing.setCheckout(checkout.id, 'declined', null, e.at);
      return rejected('already subscribed');
    }
    // An offer link's use is counted when it is paid: one guarded update, never past its limit.
    if (checkout.offerId && !(await r.offers.redeem(checkout.offerId))) {
      await r.billing.setCheckout(checkout.id, 'declined', null, e.at);
      return rejected('offer used up');
    }
    const from =
      current && current.currentPeriodEnd > e.at && current.status !== 'expired'
        ? current.currentPeriodEnd
        : e.at;
    const month = this.config.subscriptionPeriodDays;
    await r.subscriptions.start({
      fanId: checkout.userId,
      creatorId,
      periodEnd: addDays(from, checkout.periodDays ?? month),
      dynamicPricingId: checkout.dynamicPricingId,
      provider: e.provider,
      purchaseId: e.purchaseId,
      // What renews: a bundle's price, or the regular price after a trial or a first-period discount.
      priceCents: checkout.recurringCents ?? checkout.amountCents,
      periodDays: (checkout.recurringDays ?? month) === month ? null : checkout.recurringDays,
      at: e.at,
    });
    // A free trial moves no money: nothing is posted (the ledger stays balanced), no receipt.
    const sale =
      checkout.amountCents > 0
        ? await this.postSale(r, e, 'subscription', checkout.userId, creatorId, checkout.amountCents)
        : undefined;
    await r.billing.setCheckout(checkout.id, 'completed', e.purchaseId, e.at);
    return {
      outcome: 'applied',
      notices: [{ userId: creatorId, kind: 'subscriber_new', actorId: checkout.userId, payload: {} }],
      receipts: sale ? [sale.idempotencyKey] : [],
      started: { fanId: checkout.userId, creatorId, purchaseId: e.purchaseId },
    };
  }

  private async postSale(
    r: MoneyRepos,
    e: PaymentEvent,
    kind: string,
    fanId: string,
    creatorId: string,
    amount: number,
  ) {
    const { split, referrerId, availableAt } = await this.terms.splitFor(r, creatorId, amount, e.at);
    return r.ledger.post(
      {
        kind,
        category: 'subscriptions',
        key: saleKey(e),
        userId: fanId,
        creatorId,
        provider: e.provider,
        purchaseId: e.purchaseId,
        transactionId: e.transactionId,
        amountCents: amount,
        at: e.at,
      },
      saleLegs(ACCOUNTS.provider(e.provider), amount, split, {
        creatorId,
        referrerId,
        availableAt,
      }),
    );
  }

  /**
   * The subscription a purchase pays for. A fan may have started a newer purchase for the same
   * creator; an older purchase still maps to the subscription through its first sale in the ledger.
   */
  private async subscriptionOf(r: MoneyRepos, provider: string, purchaseId: string) {
    const sub = await r.subscriptions.lockByPurchase(provider, purchaseId);
    if (sub) return { sub, priceCents: sub.priceCents, current: true };
    const sale = await r.ledger.latestSaleOfPurchase(provider, purchaseId);
    if (!sale?.userId || !sale.creatorId || sale.kind === 'credits_purchase') return undefined;
    const older = await r.subscriptions.lock(sale.userId, sale.creatorId);
    return older ? { sub: older, priceCents: sale.amountCents, current: false } : undefined;
  }

  private async subscriptionRenewed(r: MoneyRepos, e: PaymentEvent): Promise<ApplyOutcome> {
    if (!e.purchaseId || !e.transactionId) return rejected('no purchase');
    const found = await this.subscriptionOf(r, e.provider, e.purchaseId);
    if (!found || found.priceCents === null) return notYet('unknown purchase');
    const { sub } = found;
    if (e.amountCents !== found.priceCents) return rejected('amount mismatch');
    const status = nextStatus(sub.status, 'renew');
    if (!status) return rejected('bad transition');
    const row = await this.postSale(r, e, 'subscription_renewal', sub.fanId, sub.creatorId, found.priceCents);
    if (!row) return ignored();
    // Out-of-order renewals never shorten the paid period; a bundle renews for its months.
    const end = addDays(e.at, sub.periodDays ?? this.config.subscriptionPeriodDays);
    await r.subscriptions.update(sub.id, {
      status,
      periodEnd: end > sub.currentPeriodEnd ? end : sub.currentPeriodEnd,
      renewedAt: e.at,
      ...(sub.status === 'expired' ? { activatedAt: e.at } : {}),
      at: e.at,
    });
    return ok(
      [{ userId: sub.creatorId, kind: 'subscription_renewed', actorId: sub.fanId, payload: {} }],
      [row.idempotencyKey],
    );
  }

  private async subscriptionChanged(
    r: MoneyRepos,
    e: PaymentEvent,
    event: 'cancel' | 'expire' | 'reactivate',
  ): Promise<ApplyOutcome> {
    if (!e.purchaseId) return rejected('no purchase');
    const found = await this.subscriptionOf(r, e.provider, e.purchaseId);
    if (!found) return notYet('unknown purchase');
    // A superseded purchase no longer drives the subscription's state.
    if (!found.current) return ignored();
    const { sub } = found;
    const status = nextStatus(sub.status, event);
    if (!status || status === sub.status) return ignored();
    await r.subscriptions.update(sub.id, {
      status,
      ...(event === 'expire' && sub.currentPeriodEnd > e.at ? { periodEnd: e.at } : {}),
      ...(event === 'cancel' ? { cancelledAt: e.at } : {}),
      ...(event === 'reactivate' ? { activatedAt: e.at } : {}),
      at: e.at,
    });
    const notices: Notice[] =
      event === 'cancel'
        ? [{ userId: sub.creatorId, kind: 'subscription_cancelled', actorId: sub.fanId, payload: {} }]
        : [];
    return ok(notices);
  }

  private async paymentFailed(r: MoneyRepos, e: PaymentEvent): Promise<ApplyOutcome> {
    if (e.checkoutId && /^[0-9a-f-]{36}$/i.test(e.checkoutId)) {
      const checkout = await r.billing.lockCheckout(e.checkoutId);
      if (checkout?.status === 'pending') await r.billing.setCheckout(checkout.id, 'failed', null, e.at);
    }
    return ok();
  }

  /** Refund, void or chargeback: every leg of the original sale reversed, access revoked. */
  private async reverse(r: MoneyRepos, e: PaymentEvent): Promise<ApplyOutcome> {
    if (!e.relatedTransactionId) return rejected('no related transaction');
    const original = await r.ledger.findSale(e.provider, e.relatedTransactionId);
    if (!original) return notYet('unknown original');
    const kind = e.type === 'chargeback' ? 'chargeback' : 'refund';
    const head = {
      kind,
      category: original.category,
      key: `reverse:${original.id}`,
      userId: original.userId,
      creatorId: original.creatorId,
      provider: e.provider,
      purchaseId: original.purchaseId,
      transactionId: e.transactionId,
      amountCents: -original.amountCents,
      relatedId: original.id,
      at: e.at,
    };
    if (original.kind === 'credits_purchase') {
      const fanId = original.userId as string;
      const wallet = await r.ledger.lockWallet(fanId);
      const { legs, clawedCredits } = creditPurchaseReversalLegs(
        e.provider,
        fanId,
        original.amountCents,
        original.credits,
        wallet,
      );
      const row = await r.ledger.post({ ...head, credits: -clawedCredits }, legs);
      if (!row) return ignored();
      if (clawedCredits) await r.ledger.changeWallet(fanId, -clawedCredits);
      return ok();
    }
    const row = await r.ledger.post(head, reverseLegs(await r.ledger.legsOf(original.id), e.at));
    if (!row) return ignored();
    if (original.purchaseId) {
      const sub = await r.subscriptions.lockByPurchase(e.provider, original.purchaseId);
      if (sub)
        await r.subscriptions.update(sub.id, {
          status: 'expired',
          periodEnd: sub.currentPeriodEnd > e.at ? e.at : sub.currentPeriodEnd,
          at: e.at,
        });
    }
    return ok();
  }
}
