import type { MoneyConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import { type Split, splitSale } from './money.math.ts';
import type { MoneyRepos, MoneyStore } from './money.unit.ts';

const PLATFORM_PERCENT = 'platform_percent';

/** The commercial terms: platform commission (admin setting), creator share, referral percent. */
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
    const set = await repos.ledger.setting(PLATFORM_PERCENT);
    const { min, max } = this.range();
    return Math.min(max, Math.max(min, set ?? this.config.platformPercent));
  }

  async setPlatformPercent(percent: number): Promise<void> {
    const { min, max } = this.range();
    if (percent < min || percent > max) throw new AppError('COMMISSION_OUT_OF_RANGE', { min, max });
    await this.store.ledger.setSetting(PLATFORM_PERCENT, percent);
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

  /** How a sale of `amount` cents to this creator splits, and who referred the creator. */
  async splitFor(
    repos: MoneyRepos,
    creatorId: string,
    amount: number,
  ): Promise<{ split: Split; referrerId: string | null }> {
    const [platformPercent, creator] = await Promise.all([
      this.platformPercent(repos),
      repos.billing.party(creatorId),
    ]);
    const referrerId = creator?.referredBy && creator.referredBy !== creatorId ? creator.referredBy : null;
    const split = splitSale(amount, {
      platformPercent,
      referralPercent: this.config.referralPercent,
      hasReferrer: referrerId !== null,
    });
    return { split, referrerId };
  }
}
