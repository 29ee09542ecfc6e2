import type { MoneyConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import {
  type PayoutTerms,
  readGiftCosts,
  readPayoutTerms,
  SETTING_KEYS,
  writePayoutTerms,
} from '../settings/platform-settings.ts';
import { addDays, type Split, splitSale } from './money.math.ts';
import type { MoneyRepos, MoneyStore } from './money.unit.ts';

/**
 * The commercial terms: platform commission (admin setting), creator share, referral percent,
 * payout period and holding time (super settings). Stored values win over the configuration.
 */
export class MoneyTerms {
  constructor(
    private readonly store: MoneyStore,
    private readonly config: MoneyConfig,
  ) {}

  /** Allowed commission: the referral comes out of it, and the creator keeps at least the minimum share. */
  range(): { min: number; max: number } {
    return { min: this.config.referralPercent, max: 100 - this.config.minCreatorPercent };
  }

  async platformPercent(repos: MoneyRepos = this.store): Promise<number> {
    const values = await repos.settings.some([SETTING_KEYS.platformPercent]);
    return this.percentOf(values);
  }

  async setPlatformPercent(percent: number): Promise<void> {
    const { min, max } = this.range();
    if (percent < min || percent > max) throw new AppError('COMMISSION_OUT_OF_RANGE', { min, max });
    await this.store.settings.set({ [SETTING_KEYS.platformPercent]: percent });
  }

  /** How often creators are paid and how long earnings are held first. */
  async payoutTerms(repos: MoneyRepos = this.store): Promise<PayoutTerms> {
    const values = await repos.settings.some([SETTING_KEYS.payoutPeriodDays, SETTING_KEYS.holdDays]);
    return readPayoutTerms(values, this.config);
  }

  async setPayoutTerms(terms: Partial<PayoutTerms>): Promise<void> {
    await this.store.settings.set(writePayoutTerms(terms));
  }

  /** The credit price of flowers or a gift, read fresh (never a cached copy) before charging. */
  async giftCost(kind: 'flowers' | 'gift', repos: MoneyRepos = this.store): Promise<number> {
    const values = await repos.settings.some([SETTING_KEYS.flowersCredits, SETTING_KEYS.giftCredits]);
    return readGiftCosts(values, this.config)[kind];
  }

  async describe() {
    const platformPercent = await this.platformPercent();
    return {
      platformPercent,
      creatorPercent: 100 - platformPercent,
      referralPercent: this.config.referralPercent,
      minCreatorPercent: this.config.minCreatorPercent,
    };
  }

  /**
   * How a sale of `amount` cents to this creator at `at` splits, who referred the creator, and
   * when the creator's share becomes available for a payout (after the holding time).
   */
  async splitFor(
    repos: MoneyRepos,
    creatorId: string,
    amount: number,
    at: Date,
  ): Promise<{ split: Split; referrerId: string | null; availableAt: Date }> {
    const [values, creator] = await Promise.all([
      repos.settings.some([SETTING_KEYS.platformPercent, SETTING_KEYS.holdDays]),
      repos.billing.party(creatorId),
    ]);
    const referredBy = creator?.referredBy && creator.referredBy !== creatorId ? creator.referredBy : null;
    // A referrer who deleted their account earns nothing more: the platform keeps that share.
    const referrerId = referredBy && (await repos.billing.party(referredBy)) ? referredBy : null;
    const split = splitSale(amount, {
      platformPercent: this.percentOf(values),
      referralPercent: this.config.referralPercent,
      hasReferrer: referrerId !== null,
    });
    const { holdDays } = readPayoutTerms(values, this.config);
    return { split, referrerId, availableAt: addDays(at, holdDays) };
  }

  private percentOf(values: Map<string, number>): number {
    const { min, max } = this.range();
    return Math.min(
      max,
      Math.max(min, values.get(SETTING_KEYS.platformPercent) ?? this.config.platformPercent),
    );
  }
}
