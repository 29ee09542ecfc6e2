import { randomUUID } from 'node:crypto';
import type { Role } from '@fanverse/contract';
import { type Language, pickLanguage } from '@fanverse/contract';
import { isActiveSubscription, isAdministrator, isCreator } from '../../access/index.ts';
import type { MoneyConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { serverText } from '../../i18n/i18n.ts';
import type { JobSender } from '../../jobs/job.ts';
import { type MailContext, mailDate, receiptMail } from '../../mail/templates.ts';
import { BILLING_RECEIPT } from '../../payments/money.jobs.ts';
import {
  dollars,
  type PaymentEvent,
  type PaymentProvider,
  type PostbackAnswer,
  PostbackRefused,
  type PostbackRequest,
} from '../../payments/payment-provider.ts';
import type { SandboxFields, SandboxProvider } from '../../payments/sandbox.provider.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import type { OfferService, SubscriptionTerms } from '../subscriptions/offer.service.ts';
import { nextCharge } from '../subscriptions/subscription.state.ts';
import type { MoneyStore } from '../wallet/money.unit.ts';
import type { CheckoutRow } from './billing.repository.ts';
import type { Notice, PostbackApplier } from './postback.applier.ts';

/** Sends a postback to the app's own endpoint, as the processor would; answers the HTTP status. */
export type PostbackSender = (provider: string, body: Record<string, string>) => Promise<number>;

export interface BillingDeps {
  store: MoneyStore;
  /** Bundles and offer links: the terms of a subscription checkout; the welcome message. */
  offers: Pick<OfferService, 'termsFor' | 'queueWelcome'>;
  applier: PostbackApplier;
  /** The configured provider for new checkouts. */
  provider: PaymentProvider;
  sandbox: SandboxProvider;
  config: MoneyConfig;
  publicUrl: string | undefined;
  findCreator(handle: string): Promise<{ id: string; username: string; roles: Role[] } | undefined>;
  notifications: Pick<NotificationService, 'notify'>;
  jobs: JobSender;
  mail: MailContext;
  now?: () => Date;
  log?: (msg: string, data: Record<string, string>) => void;
}

const MY_CREDITS = '/?feed=my-credits';
/** Where the processor sends the payer back; the flag lets the page say how it went. */
const APPROVED = 'payment=approved';
const DECLINED = 'payment=declined';
const withFlag = (path: string, flag: string) => `${path}${path.includes('?') ? '&' : '?'}${flag}`;
/**
 * Where a checkout sends the fan back, approved or declined: the page it started from (the
 * creator's page for a subscription, my-credits for a bag), which says how it went.
 */
const returnPaths = (creatorUsername: string | null) => {
  const path = creatorUsername ? `/${creatorUsername}` : MY_CREDITS;
  return { success: withFlag(path, APPROVED), decline: withFlag(path, DECLINED) };
};

/** Hosted-billing checkouts and provider postbacks (stored raw, applied exactly once). */
export class BillingService {
  private readonly now: () => Date;

  constructor(private readonly deps: BillingDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private get store() {
    return this.deps.store;
  }

  providerFor(name: string): PaymentProvider | undefined {
    if (name === this.deps.provider.name) return this.deps.provider;
    if (name === 'sandbox' && this.deps.config.sandboxControls) return this.deps.sandbox;
    return undefined;
  }

  async bags() {
    const rows = await this.store.billing.bags();
    return {
      bags: rows.map((b) => ({
        id: b.id,
        credits: b.credits,
        priceCents: b.priceCents,
        eticketid: b.eticketid,
      })),
    };
  }

  /** Admins create or edit a bag; checkouts already started keep the price they were given. */
  async saveBag(bag: {
    id: string;
    credits: number;
    priceCents: number;
    eticketid: string;
    active: boolean;
    position: number;
  }) {
    await this.store.billing.saveBag(bag);
    return this.bags();
  }

  private link(path: string): string {
    return this.deps.publicUrl ? new URL(path, this.deps.publicUrl).toString() : path;
  }

  async checkoutCredits(auth: AuthInfo, bagId: string, lang: Language) {
    const bag = await this.store.billing.bag(bagId);
    if (!bag) throw new AppError('NOT_FOUND');
    const payer = await this.payer(auth.userId, lang);
    const checkout = await this.store.billing.createCheckout({
      provider: this.deps.provider.name,
      userId: auth.userId,
      kind: 'credits',
      bagId: bag.id,
      amountCents: bag.priceCents,
      credits: bag.credits,
      eticketid: bag.eticketid,
    });
    const redirectUrl = this.deps.provider.buildRedirect({
      checkoutId: checkout.id,
      kind: 'credits',
      amountCents: bag.priceCents,
      credits: bag.credits,
      eticketid: bag.eticketid,
      dynamicPricingId: null,
      payer,
      creator: null,
      successUrl: this.link(returnPaths(null).success),
      declineUrl: this.link(returnPaths(null).decline),
      description: creditsDescription(lang, bag.credits),
    });
    return { redirectUrl, checkout: checkout.id };
  }

  async checkoutSubscription(
    auth: AuthInfo,
    handle: string,
    lang: Language,
    choice: { bundle?: number; offer?: string } = {},
  ) {
    const creator = await this.deps.findCreator(handle);
    if (!isCreator(creator)) throw new AppError('NOT_FOUND');
    if (creator.id === auth.userId) throw new AppError('CANNOT_PAY_YOURSELF');
    const party = await this.store.billing.party(creator.id);
    if (!party?.subscriptionPriceCents) throw new AppError('SUBSCRIPTION_PRICE_NOT_SET');
    const existing = await this.store.subscriptions.find(auth.userId, creator.id);
    if (existing?.status === 'active' && isActiveSubscription(existing, this.now()))
      throw new AppError('ALREADY_SUBSCRIBED');
    const terms = await this.deps.offers.termsFor(this.store, party, choice);
    const payer = await this.payer(auth.userId, lang);
    const dynamicPricingId = await this.deps.provider.dynamicPricing({
      amountCents: terms.amountCents,
      periodDays: terms.periodDays,
      recurringCents: terms.recurringCents,
      recurringDays: terms.recurringDays,
    });
    const eticketid = this.deps.config.segpay.subscriptionEticketid;
    const checkout = await this.store.billing.createCheckout({
      provider: this.deps.provider.name,
      userId: auth.userId,
      kind: 'subscription',
      creatorId: creator.id,
      amountCents: terms.amountCents,
      eticketid,
      dynamicPricingId,
      periodDays: terms.periodDays,
      recurringCents: terms.recurringCents,
      recurringDays: terms.recurringDays,
      offerId: terms.offerId,
    });
    const redirectUrl = this.deps.provider.buildRedirect({
      checkoutId: checkout.id,
      kind: 'subscription',
      amountCents: terms.amountCents,
      credits: 0,
      eticketid,
      dynamicPricingId,
      payer,
      creator: { id: creator.id, handle: creator.username },
      successUrl: this.link(returnPaths(creator.username).success),
      declineUrl: this.link(returnPaths(creator.username).decline),
      description: subscriptionDescription(lang, creator.username, checkoutTerms(checkout, this.deps.config)),
    });
    return { redirectUrl, checkout: checkout.id };
  }

  private async payer(userId: string, lang: Language) {
    const p = await this.store.billing.party(userId);
    if (!p) throw new AppError('NOT_FOUND');
    return { id: p.id, name: p.name, email: p.email, country: p.country, language: lang };
  }

  /**
   * Authenticates, stores raw (unique key per provider, transaction and event) and applies a
   * postback exactly once; a replay answers success and changes nothing.
   */
  async handlePostback(providerName: string, req: PostbackRequest): Promise<PostbackAnswer> {
    const provider = this.providerFor(providerName);
    if (!provider) throw this.refuse(providerName, 'unknown provider');
    let event: PaymentEvent;
    try {
      event = provider.parsePostback(req);
    } catch (err) {
      if (err instanceof PostbackRefused) throw this.refuse(providerName, err.reason);
      throw err;
    }
    const stored = await this.store.billing.storeEvent(provider.name, event.key, event.type, req.fields);
    if (stored.status === 'rejected') throw this.refuse(providerName, 'previously refused', event);
    if (stored.status !== 'received') return provider.answer(event);
    const result = await this.store.transaction(async (r) => {
      const status = await r.billing.lockEvent(stored.id);
      if (status !== 'received') return undefined; // applied by a concurrent delivery
      const outcome = await this.deps.applier.apply(r, event);
      if (outcome.outcome === 'rejected' && outcome.retry) return outcome; // stays 'received' for the retry
      await r.billing.markEvent(
        stored.id,
        outcome.outcome,
        this.now(),
        outcome.outcome === 'rejected' ? outcome.reason : undefined,
      );
      return outcome;
    });
    if (result?.outcome === 'rejected') throw this.refuse(providerName, result.reason, event);
    if (result) await this.send(result.notices);
    if (result?.started) await this.deps.offers.queueWelcome(result.started);
    for (const key of result?.receipts ?? [])
      await this.deps.jobs.send(BILLING_RECEIPT, { key }, { singletonKey: key });
    return provider.answer(event);
  }

  /** The receipt mail of one charge, in the payer's language (the `billing.receipt` job). */
  async sendReceipt(key: string): Promise<void> {
    const sale = await this.store.ledger.findByKey(key);
    if (!sale?.userId) return;
    const payer = await this.store.billing.party(sale.userId);
    if (!payer) return; // the account was deleted since
    const lang = pickLanguage(payer.language);
    const { mail } = this.deps;
    const creator = sale.creatorId ? await this.store.billing.party(sale.creatorId) : undefined;
    const handle = creator?.username ?? '';
    const what =
      sale.kind === 'credits_purchase'
        ? serverText(lang, 'billing.receiptCredits', { credits: sale.credits })
        : serverText(
            lang,
            sale.kind === 'subscription' ? 'billing.receiptSubscription' : 'billing.receiptRenewal',
            {
              handle,
            },
          );
    const sub = sale.creatorId ? await this.store.subscriptions.find(sale.userId, sale.creatorId) : undefined;
    const next = sub ? nextCharge(sub, this.now()) : null;
    await mail.mailer.send(
      receiptMail(lang, {
        to: payer.email,
        name: payer.name || payer.username,
        app: mail.app,
        what,
        date: mailDate(lang, sale.createdAt, mail.timezone),
        price: dollars(sale.amountCents),
        reference: sale.transactionId ?? sale.id,
        next: next
          ? serverText(lang, 'billing.receiptNext', {
              price: dollars(next.amountCents),
              date: mailDate(lang, new Date(next.at), mail.timezone),
            })
          : '',
      }),
    );
  }

  private refuse(provider: string, reason: string, event?: PaymentEvent): AppError {
    // Ids and reasons only: no payer data in logs.
    this.deps.log?.('payment postback refused', {
      provider,
      reason,
      ...(event ? { event: event.type, transaction: event.transactionId ?? '' } : {}),
    });
    return new AppError('PAYMENT_REJECTED');
  }

  private async send(notices: Notice[]): Promise<void> {
    for (const n of notices) {
      const actor = await this.store.billing.party(n.actorId);
      await this.deps.notifications
        .notify(n.userId, n.kind, {
          ...n.payload,
          actor: actor?.username ?? '',
          link: `/${actor?.username ?? ''}`,
        })
        .catch(() => undefined);
    }
  }

  // ---- sandbox processor ----

  /** A sandbox postback body signed as the sandbox processor signs it (tests, demos). */
  signSandbox(fields: SandboxFields): Record<string, string> {
    return this.deps.sandbox.sign(fields);
  }

  /** What the sandbox billing page shows; the signature proves the link came from a checkout. */
  async sandboxCheckout(checkoutId: string, sig: string, lang: Language = 'en') {
    if (!/^[0-9a-f-]{36}$/i.test(checkoutId) || !this.deps.sandbox.checkPage(checkoutId, sig))
      throw new AppError('NOT_FOUND');
    const checkout = await this.store.billing.checkout(checkoutId);
    if (checkout?.provider !== 'sandbox') throw new AppError('NOT_FOUND');
    const payer = await this.store.billing.party(checkout.userId);
    const creator = checkout.creatorId ? await this.store.billing.party(checkout.creatorId) : undefined;
    return {
      checkout,
      payer: { name: payer?.name ?? '', email: payer?.email ?? '', country: payer?.country ?? '' },
      amount: dollars(checkout.amountCents),
      description: creator
        ? subscriptionDescription(lang, creator.username, checkoutTerms(checkout, this.deps.config))
        : creditsDescription(lang, checkout.credits),
      successUrl: this.link(returnPaths(creator?.username ?? null).success),
      declineUrl: this.link(returnPaths(creator?.username ?? null).decline),
    };
  }

  /** Approve sends the signed postback to our own endpoint and answers the success link; Decline the decline link. */
  async sandboxDecide(
    checkoutId: string,
    sig: string,
    approve: boolean,
    send: PostbackSender,
  ): Promise<string> {
    const page = await this.sandboxCheckout(checkoutId, sig);
    const { checkout } = page;
    if (checkout.status === 'completed') return page.successUrl;
    if (checkout.status !== 'pending' || !approve) {
      if (checkout.status === 'pending')
        await this.store.billing.setCheckout(checkout.id, 'declined', null, this.now());
      return page.declineUrl;
    }
    const status = await send('sandbox', this.deps.sandbox.sign(approvalFields(checkout, this.now())));
    return status < 300 ? page.successUrl : page.declineUrl;
  }

  /** Sandbox controls: a renewal, cancellation, expiry, refund or chargeback of an existing purchase. */
  async sandboxSimulate(
    auth: AuthInfo,
    input: {
      purchase: string;
      event: 'renewal' | 'cancellation' | 'expiry' | 'refund' | 'chargeback';
      at?: string;
    },
    send: PostbackSender,
  ) {
    if (!this.deps.config.sandboxControls) throw new AppError('FEATURE_DISABLED');
    const at = input.at ? new Date(input.at) : this.now();
    const { ledger, subscriptions } = this.store;
    const sale =
      (await ledger.findSale('sandbox', input.purchase)) ??
      (await ledger.latestSaleOfPurchase('sandbox', input.purchase));
    // A free trial has a purchase but no sale yet: its subscription names the fan and the creator.
    const trial = sale ? undefined : await subscriptions.byPurchase('sandbox', input.purchase);
    const owner =
      sale?.purchaseId && sale.userId
        ? { purchaseId: sale.purchaseId, userId: sale.userId, creatorId: sale.creatorId }
        : trial?.purchaseId
          ? { purchaseId: trial.purchaseId, userId: trial.fanId, creatorId: trial.creatorId }
          : undefined;
    if (!owner) throw new AppError('NOT_FOUND');
    if (owner.userId !== auth.userId && !isAdministrator(auth)) throw new AppError('NOT_FOUND');
    const tranid = `sbx-t-${randomUUID()}`;
    const base: SandboxFields = {
      tranid,
      purchaseid: owner.purchaseId,
      userid: owner.userId,
      creatorid: owner.creatorId ?? '',
      at: at.toISOString(),
    };
    let fields: SandboxFields;
    switch (input.event) {
      case 'renewal': {
        const sub = owner.creatorId ? await subscriptions.find(owner.userId, owner.creatorId) : undefined;
        if (!sub?.priceCents) throw new AppError('NOT_FOUND');
        fields = { ...base, event: 'subscription_renewed', amount: dollars(sub.priceCents) };
        break;
      }
      case 'cancellation':
        fields = { ...base, event: 'subscription_cancelled' };
        break;
      case 'expiry':
        fields = { ...base, event: 'subscription_expired' };
        break;
      default:
        if (!sale) throw new AppError('NOT_FOUND'); // nothing was charged, nothing to refund
        fields = {
          ...base,
          event: input.event === 'refund' ? 'refunded' : 'chargeback',
          relatedtranid: sale.transactionId ?? '',
          amount: dollars(sale.amountCents),
        };
    }
    const status = await send('sandbox', this.deps.sandbox.sign(fields));
    return { success: true as const, transactionId: tranid, status };
  }
}

/** The terms a stored subscription checkout was opened with. */
export function checkoutTerms(c: CheckoutRow, config: MoneyConfig): DescribedTerms {
  const month = config.subscriptionPeriodDays;
  const periodDays = c.periodDays ?? month;
  return {
    amountCents: c.amountCents,
    periodDays,
    recurringCents: c.recurringCents ?? c.amountCents,
    recurringDays: c.recurringDays ?? periodDays,
    months: Math.max(1, Math.round(periodDays / month)),
  };
}

type DescribedTerms = Pick<
  SubscriptionTerms,
  'amountCents' | 'periodDays' | 'recurringCents' | 'recurringDays' | 'months'
>;

/**
 * What a subscription checkout buys, in the payer's language (billing page and processor): monthly,
 * a bundle of months, a free trial, or a discounted first period, always with what renews after it.
 */
export function subscriptionDescription(lang: Language, handle: string, t: DescribedTerms): string {
  const price = dollars(t.amountCents);
  const recurring = dollars(t.recurringCents);
  if (t.amountCents === 0)
    return serverText(lang, 'billing.trial', { handle, days: t.periodDays, recurring });
  if (t.recurringCents !== t.amountCents)
    return serverText(lang, 'billing.firstPeriod', { handle, price, recurring });
  if (t.months > 1) return serverText(lang, 'billing.bundle', { handle, price, months: t.months });
  return serverText(lang, 'billing.subscription', { handle, price });
}

export function creditsDescription(lang: Language, credits: number): string {
  return serverText(lang, 'billing.credits', { credits });
}

/** The postback fields of an approved sandbox checkout. */
export function approvalFields(checkout: CheckoutRow, at: Date): SandboxFields {
  return {
    event: checkout.kind === 'credits' ? 'credits_purchased' : 'subscription_started',
    tranid: `sbx-t-${randomUUID()}`,
    purchaseid: `sbx-p-${checkout.id}`,
    checkout: checkout.id,
    userid: checkout.userId,
    creatorid: checkout.creatorId ?? '',
    amount: dollars(checkout.amountCents),
    eticketid: checkout.eticketid ?? '',
    at: at.toISOString(),
  };
}
