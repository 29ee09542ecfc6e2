import type { Role } from '@fanverse/contract';
import { discountedPrice } from '@fanverse/contract';
import { isActiveSubscription } from '../../access/index.ts';
import type { MoneyConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import type { MoneyStore } from '../wallet/money.unit.ts';
import { presentSubscription } from './subscription.presenter.ts';
import { nextStatus } from './subscription.state.ts';

export interface SubscriptionDeps {
  store: MoneyStore;
  config: MoneyConfig;
  findCreator(handle: string): Promise<{ id: string; username: string; roles: Role[] } | undefined>;
  /** Starts a checkout for a new paid period (renewing an expired subscription). */
  checkout(auth: AuthInfo, handle: string): Promise<{ redirectUrl: string }>;
  notifications: Pick<NotificationService, 'notify'>;
  now?: () => Date;
}

/** Fans' subscriptions (cancel, renew, list), creators' subscribers and price, and expiry. */
export class SubscriptionService {
  private readonly now: () => Date;

  constructor(private readonly deps: SubscriptionDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async mine(auth: AuthInfo) {
    const rows = await this.deps.store.subscriptions.ofFan(auth.userId);
    return { items: rows.map((r) => presentSubscription(r, this.deps.config.subscriptionPeriodDays)) };
  }

  /** The session user's subscriptions with their DynamicPricingID (spec §3). */
  async forSession(userId: string): Promise<{ creator: string; DynamicPricingID: string | null }[]> {
    const rows = await this.deps.store.subscriptions.ofFan(userId);
    return rows
      .filter((r) => isActiveSubscription(r, this.now()))
      .map((r) => ({ creator: r.creator.username, DynamicPricingID: r.dynamicPricingId }));
  }

  private async own(handle: string) {
    const creator = await this.deps.findCreator(handle);
    if (!creator) throw new AppError('NOT_FOUND');
    return creator;
  }

  private async item(auth: AuthInfo, creatorId: string) {
    const row = (await this.deps.store.subscriptions.ofFan(auth.userId)).find(
      (r) => r.creatorId === creatorId,
    );
    if (!row) throw new AppError('NOT_FOUND');
    return presentSubscription(row, this.deps.config.subscriptionPeriodDays);
  }

  /** Cancels: access lasts until the paid period ends; no further renewals. */
  async cancel(auth: AuthInfo, handle: string) {
    const creator = await this.own(handle);
    const at = this.now();
    const changed = await this.deps.store.transaction(async (r) => {
      const sub = await r.subscriptions.lock(auth.userId, creator.id);
      if (!sub) throw new AppError('NOT_FOUND');
      const status = nextStatus(sub.status, 'cancel');
      if (!status) throw new AppError('NOT_FOUND');
      if (status === sub.status) return false;
      await r.subscriptions.update(sub.id, { status, cancelledAt: at, at });
      return true;
    });
    if (changed)
      await this.deps.notifications
        .notify(creator.id, 'subscription_cancelled', { actor: auth.username, link: `/${auth.username}` })
        .catch(() => undefined);
    return { subscription: await this.item(auth, creator.id) };
  }

  /** Renews: within the paid period a cancellation is undone; after it a new payment is needed. */
  async renew(auth: AuthInfo, handle: string) {
    const creator = await this.own(handle);
    const at = this.now();
    const reactivated = await this.deps.store.transaction(async (r) => {
      const sub = await r.subscriptions.lock(auth.userId, creator.id);
      if (!sub) return false;
      const status = sub.status;
      if (!isActiveSubscription(sub, at)) return false;
      if (status === 'cancelled')
        await r.subscriptions.update(sub.id, { status: 'active', activatedAt: at, at });
      return true;
    });
    if (reactivated) return { subscription: await this.item(auth, creator.id) };
    const subscription = await this.item(auth, creator.id);
    const { redirectUrl } = await this.deps.checkout(auth, handle);
    return { subscription, redirectUrl };
  }

  async subscribers(auth: AuthInfo, page: number, limit: number) {
    const { rows, total } = await this.deps.store.subscriptions.subscribersOf(auth.userId, page, limit);
    return {
      items: rows.map((r) => ({
        user: presentPublicUser(r.user),
        status: r.status,
        date: (r.startedAt ?? r.createdAt).toISOString(),
        periodEnd: r.currentPeriodEnd.toISOString(),
      })),
      page,
      total,
      limit,
    };
  }

  async setPricing(
    auth: AuthInfo,
    input: {
      price: number;
      discountStatus: 'on' | 'off';
      discountPercent: number;
      discountDateLimit?: string | null;
    },
  ) {
    if (input.price < 100) throw new AppError('VALIDATION_FAILED', {}, { price: 'invalid' });
    const discountDateLimit = input.discountDateLimit ? new Date(input.discountDateLimit) : null;
    await this.deps.store.subscriptions.setPricing(auth.userId, {
      priceCents: input.price,
      discountStatus: input.discountStatus,
      discountPercent: input.discountPercent,
      discountDateLimit,
    });
    const discount = {
      discountStatus: input.discountStatus,
      discountPercent: input.discountPercent,
      discountDateLimit: discountDateLimit?.toISOString() ?? null,
    };
    return {
      priceCents: input.price,
      ...discount,
      finalPriceCents: discountedPrice(input.price, discount, this.now()),
    };
  }

  /** The scheduled job: expires every subscription whose paid period ended without a renewal. */
  async expireDue(): Promise<number> {
    const rows = await this.deps.store.subscriptions.expireDue(this.now());
    return rows.length;
  }
}
