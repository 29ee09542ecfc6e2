import { createHash, randomBytes } from 'node:crypto';
import type { BundleMonths, Role } from '@fanverse/contract';
import { discountedPrice } from '@fanverse/contract';
import { isCreator } from '../../access/index.ts';
import type { MoneyConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { JobSender } from '../../jobs/job.ts';
import { WELCOME_MESSAGE } from '../../payments/money.jobs.ts';
import type { PartyRow } from '../billing/billing.repository.ts';
import type { MediaPort } from '../posts/media.port.ts';
import type { FeatureGate } from '../settings/platform-settings.ts';
import { type PublicUserRow, presentPublicUser } from '../users/public-user.presenter.ts';
import type { MoneyRepos, MoneyStore } from '../wallet/money.unit.ts';
import type { OfferLinkRow } from './offer.repository.ts';

/** What a subscription checkout charges now and what renews after it. */
export interface SubscriptionTerms {
  kind: 'monthly' | 'bundle' | 'trial' | 'discount';
  /** Charged now (0 for a free trial) for the first period of `periodDays`. */
  amountCents: number;
  periodDays: number;
  /** Charged at each renewal, every `recurringDays`. */
  recurringCents: number;
  recurringDays: number;
  offerId: string | null;
  months: number;
  trialDays: number;
}

/** Spec §4's discount rule, for every offer: on, a percent, and a date limit (the link's expiry). */
const discount = (percent: number, until: Date | null) => ({
  discountStatus: 'on' as const,
  discountPercent: percent,
  discountDateLimit: until?.toISOString() ?? null,
});

export interface OfferDeps {
  store: MoneyStore;
  config: MoneyConfig;
  jobs: JobSender;
  findCreator(
    handle: string,
  ): Promise<(PublicUserRow & { id: string; username: string; roles: Role[] }) | undefined>;
  /** Sends a chat message as the creator (the messages module). */
  sendMessage(
    from: AuthInfo,
    to: string,
    input: { message: string; messageUUID: string; price: number; vaultMedia: string[] },
  ): Promise<void>;
  /** Vault files of the welcome message (ADR 0032). */
  media: Pick<MediaPort, 'attachable' | 'getMany' | 'present'>;
  /** Paid media need the paid-messages feature. */
  features: FeatureGate;
  now?: () => Date;
}

/** Subscription offers (issue 19): bundles, trial and discount links, the welcome message. */
export class OfferService {
  private readonly now: () => Date;

  constructor(private readonly deps: OfferDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private get monthDays() {
    return this.deps.config.subscriptionPeriodDays;
  }

  private bundleView(price: number | null, b: { months: number; discountPercent: number }) {
    const full = (price ?? 0) * b.months;
    return {
      months: b.months as BundleMonths,
      discountPercent: b.discountPercent,
      fullPriceCents: full,
      priceCents: discountedPrice(full, discount(b.discountPercent, null), this.now()),
    };
  }

  private linkView(l: OfferLinkRow) {
    return {
      _id: l.id,
      code: l.code,
      kind: l.kind,
      trialDays: l.trialDays,
      discountPercent: l.discountPercent,
      expiresAt: l.expiresAt.toISOString(),
      maxUses: l.maxUses,
      uses: l.uses,
    };
  }

  /**
   * The terms of a subscription checkout: monthly (with the profile's discount), a bundle, or an
   * offer link. An expired or used-up link is refused here with a clear message.
   */
  async termsFor(
    r: MoneyRepos,
    creator: PartyRow,
    choice: { bundle?: number; offer?: string },
  ): Promise<SubscriptionTerms> {
    const price = creator.subscriptionPriceCents;
    if (!price) throw new AppError('SUBSCRIPTION_PRICE_NOT_SET');
    const now = this.now();
    const month = this.monthDays;
    if (choice.bundle && choice.offer) throw new AppError('VALIDATION_FAILED', {}, { offer: 'invalid' });
    if (choice.bundle) {
      const row = (await r.offers.bundles(creator.id)).find((b) => b.months === choice.bundle);
      if (!row) throw new AppError('NOT_FOUND');
      const { priceCents } = this.bundleView(price, row);
      const days = row.months * month;
      return {
        kind: 'bundle',
        amountCents: priceCents,
        periodDays: days,
        recurringCents: priceCents,
        recurringDays: days,
        offerId: null,
        months: row.months,
        trialDays: 0,
      };
    }
    if (choice.offer) {
      const link = await this.usableLink(r, choice.offer, now);
      if (link.creatorId !== creator.id) throw new AppError('NOT_FOUND');
      if (link.kind === 'trial')
        return {
          kind: 'trial',
          amountCents: 0,
          periodDays: link.trialDays,
          recurringCents: price,
          recurringDays: month,
          offerId: link.id,
          months: 1,
          trialDays: link.trialDays,
        };
      return {
        kind: 'discount',
        amountCents: discountedPrice(price, discount(link.discountPercent, link.expiresAt), now),
        periodDays: month,
        recurringCents: price,
        recurringDays: month,
        offerId: link.id,
        months: 1,
        trialDays: 0,
      };
    }
    const amount = discountedPrice(
      price,
      {
        discountStatus: creator.discountStatus === 'on' ? 'on' : 'off',
        discountPercent: creator.discountPercent,
        discountDateLimit: creator.discountDateLimit?.toISOString() ?? null,
      },
      now,
    );
    return {
      kind: 'monthly',
      amountCents: amount,
      periodDays: month,
      recurringCents: amount,
      recurringDays: month,
      offerId: null,
      months: 1,
      trialDays: 0,
    };
  }

  private async usableLink(r: MoneyRepos, code: string, now: Date): Promise<OfferLinkRow> {
    const link = await r.offers.link(code);
    if (!link) throw new AppError('NOT_FOUND');
    if (link.expiresAt <= now) throw new AppError('OFFER_EXPIRED');
    if (link.uses >= link.maxUses) throw new AppError('OFFER_USED_UP');
    return link;
  }

  /** What an offer link gives, for the fan's page before paying. */
  async view(code: string) {
    const { store } = this.deps;
    const link = await this.usableLink(store, code, this.now());
    const party = await store.billing.party(link.creatorId);
    const creator = party ? await this.deps.findCreator(party.username) : undefined;
    if (!creator || !party) throw new AppError('NOT_FOUND');
    const terms = await this.termsFor(store, party, { offer: code });
    return {
      code: link.code,
      creator: presentPublicUser(creator),
      kind: link.kind,
      trialDays: link.trialDays,
      discountPercent: link.discountPercent,
      expiresAt: link.expiresAt.toISOString(),
      firstCents: terms.amountCents,
      recurringCents: terms.recurringCents,
      remaining: link.maxUses - link.uses,
    };
  }

  async bundlesOf(handle: string) {
    const creator = await this.deps.findCreator(handle);
    if (!isCreator(creator)) throw new AppError('NOT_FOUND');
    const party = await this.deps.store.billing.party(creator.id);
    if (!party?.subscriptionPriceCents) return { bundles: [] };
    const rows = await this.deps.store.offers.bundles(creator.id);
    return { bundles: rows.map((b) => this.bundleView(party.subscriptionPriceCents, b)) };
  }

  async mine(auth: AuthInfo) {
    const { offers, billing } = this.deps.store;
    const [party, bundles, links, welcome, mediaIds] = await Promise.all([
      billing.party(auth.userId),
      offers.bundles(auth.userId),
      offers.links(auth.userId),
      offers.welcome(auth.userId),
      offers.welcomeMedia(auth.userId),
    ]);
    const files = new Map((await this.deps.media.getMany(mediaIds)).map((m) => [m.id, m]));
    const media = mediaIds.flatMap((id) => {
      const row = files.get(id);
      return row ? [this.deps.media.present(row, true, auth.userId)] : [];
    });
    return {
      bundles: bundles.map((b) => this.bundleView(party?.subscriptionPriceCents ?? null, b)),
      links: links.map((l) => this.linkView(l)),
      welcome: welcome ? { text: welcome.text, active: welcome.active, price: welcome.price, media } : null,
    };
  }

  async saveBundles(auth: AuthInfo, bundles: { months: number; discountPercent: number }[]) {
    if (new Set(bundles.map((b) => b.months)).size !== bundles.length)
      throw new AppError('VALIDATION_FAILED', {}, { bundles: 'invalid' });
    await this.deps.store.transaction((r) => r.offers.setBundles(auth.userId, bundles));
    return this.mine(auth);
  }

  async createLink(
    auth: AuthInfo,
    input: {
      kind: 'trial' | 'discount';
      trialDays?: number;
      discountPercent?: number;
      expiresAt: string;
      maxUses: number;
    },
  ) {
    const expiresAt = new Date(input.expiresAt);
    if (expiresAt <= this.now()) throw new AppError('VALIDATION_FAILED', {}, { expiresAt: 'invalid' });
    const row = await this.deps.store.offers.createLink({
      creatorId: auth.userId,
      code: randomBytes(9).toString('base64url'),
      kind: input.kind,
      trialDays: input.kind === 'trial' ? (input.trialDays ?? 0) : 0,
      discountPercent: input.kind === 'discount' ? (input.discountPercent ?? 0) : 0,
      expiresAt,
      maxUses: input.maxUses,
    });
    return this.linkView(row);
  }

  /**
   * The welcome message with optional vault files; a price locks them for each subscriber until
   * paid (the paid-message unlock, through the ledger).
   */
  async saveWelcome(
    auth: AuthInfo,
    input: { text: string; active: boolean; price: number; vaultMedia: string[] },
  ) {
    const files = await this.deps.media.attachable(auth, input.vaultMedia);
    if (input.price > 0 && !files.length) throw new AppError('VALIDATION_FAILED', {}, { price: 'invalid' });
    if (input.price > 0) await this.deps.features.require('paidMessages');
    const { text, active, price } = input;
    await this.deps.store.transaction((r) =>
      r.offers.setWelcome(
        auth.userId,
        { text, active, price },
        files.map((f) => f.id),
        this.now(),
      ),
    );
    return this.mine(auth);
  }

  /** Queues the welcome message of a new subscription (after the payment committed). */
  async queueWelcome(started: { fanId: string; creatorId: string; purchaseId: string }): Promise<void> {
    await this.deps.jobs.send(WELCOME_MESSAGE, started, { singletonKey: started.purchaseId });
  }

  /**
   * The `offers.welcome` job: the creator's welcome message to a new subscriber, once per purchase
   * (its message id is derived from the purchase, so a retried job never stores a second copy).
   */
  async sendWelcome(job: { fanId: string; creatorId: string; purchaseId: string }): Promise<void> {
    const [welcome, vaultMedia] = await Promise.all([
      this.deps.store.offers.welcome(job.creatorId),
      this.deps.store.offers.welcomeMedia(job.creatorId),
    ]);
    if (!welcome?.active) return;
    const [creator, fan] = await Promise.all([
      this.deps.store.billing.party(job.creatorId),
      this.deps.store.billing.party(job.fanId),
    ]);
    if (!creator || !fan) return;
    const as: AuthInfo = {
      userId: creator.id,
      sessionId: 'welcome-message',
      username: creator.username,
      roles: creator.roles,
      verified: true,
    };
    await this.deps.sendMessage(as, fan.username, {
      message: welcome.text,
      messageUUID: uuidFrom(`welcome:${job.purchaseId}`),
      // Locked until the subscriber pays, like any paid message (only with files to unlock).
      price: vaultMedia.length ? welcome.price : 0,
      vaultMedia,
    });
  }
}

/** A stable UUID (v4 layout) derived from a key. */
function uuidFrom(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
