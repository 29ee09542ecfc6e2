import type { Role } from '@fanverse/contract';
import { discountedPrice, pickLanguage } from '@fanverse/contract';
import { isActiveSubscription } from '../../access/index.ts';
import type { MoneyConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { JobSender } from '../../jobs/job.ts';
import { type MailContext, mailDate, renewalNoticeMail } from '../../mail/templates.ts';
import { RENEWAL_NOTICE } from '../../payments/money.jobs.ts';
import { dollars } from '../../payments/payment-provider.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import type { MoneyStore } from '../wallet/money.unit.ts';
import type { CancelLinks } from './cancel-link.ts';
import { presentSubscription } from './subscription.presenter.ts';
import { nextCharge, nextStatus } from './subscription.state.ts';

/** The renewal notice goes this long before the charge. */
export const RENEWAL_NOTICE_DAYS = 7;

export interface SubscriptionDeps {
  store: MoneyStore;
  config: MoneyConfig;
  findCreator(handle: string): Promise<{ id: string; username: string; roles: Role[] } | undefined>;
  /** Starts a checkout for a new paid period (renewing an expired subscription). */
  checkout(auth: AuthInfo, handle: string): Promise<{ redirectUrl: string }>;
  notifications: Pick<NotificationService, 'notify'>;
  jobs: JobSender;
  mail: MailContext;
  cancelLinks: CancelLinks;
  now?: () => Date;
}

/** Fans' subscriptions (cancel, renew, list), creators' subscribers and price, and expiry. */
export class SubscriptionService {
  private readonly now: () => Date;

  constructor(private readonly deps: SubscriptionDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  get cancelLinks(): CancelLinks {
    return this.deps.cancelLinks;
  }

  async mine(auth: AuthInfo) {
    const rows = await this.deps.store.subscriptions.ofFan(auth.userId);
    const now = this.now();
    return { items: rows.map((r) => presentSubscription(r, this.deps.config.subscriptionPeriodDays, now)) };
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
    return presentSubscription(row, this.deps.config.subscriptionPeriodDays, this.now());
  }

  /** Cancels: access lasts until the paid period ends; no further renewals. */
  async cancel(auth: AuthInfo, handle: string) {
    const creator = await this.own(handle);
    await this.cancelPair(auth.userId, auth.username, creator.id);
    return { subscription: await this.item(auth, creator.id) };
  }

  /** One rule for every way of cancelling (the app, the mail's link): no questions, access to the period's end. */
  private async cancelPair(fanId: string, fanHandle: string, creatorId: string): Promise<void> {
    const at = this.now();
    const changed = await this.deps.store.transaction(async (r) => {
      const sub = await r.subscriptions.lock(fanId, creatorId);
      if (!sub) throw new AppError('NOT_FOUND');
      const status = nextStatus(sub.status, 'cancel');
      if (!status) return false; // expired already: nothing renews
      if (status === sub.status) return false;
      await r.subscriptions.update(sub.id, { status, cancelledAt: at, at });
      return true;
    });
    if (changed)
      await this.deps.notifications
        .notify(creatorId, 'subscription_cancelled', { actor: fanHandle, link: `/${fanHandle}` })
        .catch(() => undefined);
  }

  private async byLink(token: string) {
    const id = this.deps.cancelLinks.verify(token, this.now());
    const facts = id ? await this.deps.store.subscriptions.mailFacts(id) : undefined;
    if (!facts) throw new AppError('CANCEL_LINK_INVALID');
    return facts;
  }

  private linkView(facts: NonNullable<Awaited<ReturnType<SubscriptionService['byLink']>>>) {
    return {
      creator: facts.creator,
      status: facts.sub.status,
      periodEnd: facts.sub.currentPeriodEnd.toISOString(),
      nextCharge: nextCharge(facts.sub, this.now()),
    };
  }

  /** What a renewal mail's cancel link would cancel (no session: the signed token is the proof). */
  async cancelLink(token: string) {
    return this.linkView(await this.byLink(token));
  }

  /** One click from the renewal mail: cancels that subscription, nothing else; a repeat changes nothing. */
  async cancelByLink(token: string) {
    const facts = await this.byLink(token);
    const fan = await this.deps.store.billing.party(facts.sub.fanId);
    await this.cancelPair(facts.sub.fanId, fan?.username ?? '', facts.sub.creatorId);
    return this.linkView((await this.deps.store.subscriptions.mailFacts(facts.sub.id)) ?? facts);
  }

  /** The hourly job: queues one notice per subscription renewing within 7 days and not told yet. */
  async queueRenewalNotices(): Promise<number> {
    const now = this.now();
    const due = await this.deps.store.subscriptions.dueForNotice(
      now,
      new Date(now.getTime() + RENEWAL_NOTICE_DAYS * 86_400_000),
    );
    for (const d of due) {
      const periodEnd = d.periodEnd.toISOString();
      await this.deps.jobs.send(
        RENEWAL_NOTICE,
        { subscription: d.id, periodEnd },
        { singletonKey: `${d.id}:${periodEnd}` },
      );
    }
    return due.length;
  }

  /**
   * Mails one renewal notice in the fan's language, then records it for that period. Checked again
   * here: a subscription cancelled or renewed since it was queued gets no mail.
   */
  async sendRenewalNotice(subscriptionId: string, periodEnd: Date): Promise<void> {
    const facts = await this.deps.store.subscriptions.mailFacts(subscriptionId);
    if (!facts || facts.renewalNoticeFor?.getTime() === periodEnd.getTime()) return;
    const charge = nextCharge(facts.sub, this.now());
    if (!charge || Date.parse(charge.at) !== periodEnd.getTime()) return;
    const lang = pickLanguage(facts.fanLanguage);
    const { mail } = this.deps;
    const token = this.deps.cancelLinks.sign(subscriptionId, this.now());
    await mail.mailer.send(
      renewalNoticeMail(lang, {
        to: facts.fanEmail,
        name: facts.fanName || facts.creator,
        app: mail.app,
        handle: facts.creator,
        date: mailDate(lang, periodEnd, mail.timezone),
        price: dollars(charge.amountCents),
        cancelLink: new URL(`/billing/cancel?token=${encodeURIComponent(token)}`, mail.baseUrl).toString(),
        manageLink: new URL('/?feed=my-subscriptions', mail.baseUrl).toString(),
      }),
    );
    await this.deps.store.subscriptions.markNoticed(subscriptionId, periodEnd);
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
