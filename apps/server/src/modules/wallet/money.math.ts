/**
 * Pure money math: integer cents and credits only, never floats. The split uses the largest
 * remainder method with a fixed tie order, so the parts always add up to the whole amount.
 */

export type Currency = 'cents' | 'credits';

export interface Leg {
  account: string;
  currency: Currency;
  amount: number;
  /** Creator earnings: when the holding period ends. */
  availableAt?: Date | null;
}

export const ACCOUNTS = {
  fan: (id: string) => `fan:${id}`,
  creator: (id: string) => `creator:${id}`,
  referral: (id: string) => `referral:${id}`,
  provider: (name: string) => `provider:${name}`,
  revenue: 'platform:revenue',
  creditsIssued: 'platform:credits',
  creditFloat: 'platform:credit_float',
  chargebackLosses: 'platform:chargeback_losses',
  payoutsPayable: 'platform:payouts_payable',
  paidOut: 'platform:paid_out',
} as const;

/** Splits `parts` of integer weights (summing to `total`) by largest remainder; ties go to the earlier part. */
export function largestRemainder(amount: number, weights: number[], total: number): number[] {
  if (!Number.isSafeInteger(amount) || weights.some((w) => !Number.isSafeInteger(w) || w < 0))
    throw new Error('largestRemainder needs integers');
  if (total <= 0 || weights.reduce((a, b) => a + b, 0) !== total)
    throw new Error('weights must sum to total');
  const sign = amount < 0 ? -1 : 1;
  const abs = Math.abs(amount);
  const floors = weights.map((w) => Math.floor((abs * w) / total));
  const remainders = weights.map((w) => (abs * w) % total);
  let left = abs - floors.reduce((a, b) => a + b, 0);
  const order = weights.map((_, i) => i).sort((a, b) => (remainders[b] ?? 0) - (remainders[a] ?? 0) || a - b);
  for (const i of order) {
    if (left <= 0) break;
    floors[i] = (floors[i] ?? 0) + 1;
    left -= 1;
  }
  return floors.map((v) => v * sign || 0);
}

export interface SplitTerms {
  /** The platform's commission in whole percent (the creator keeps the rest). */
  platformPercent: number;
  /** Paid to the creator's referrer out of the platform's share, in whole percent of the sale. */
  referralPercent: number;
  hasReferrer: boolean;
}

export interface Split {
  creator: number;
  platform: number;
  referral: number;
}

/** A sale's split: creator share whole, referral out of the platform's share. */
export function splitSale(amount: number, terms: SplitTerms): Split {
  const referral = terms.hasReferrer ? Math.min(terms.referralPercent, terms.platformPercent) : 0;
  const [creator = 0, ref = 0, platform = 0] = largestRemainder(
    amount,
    [100 - terms.platformPercent, referral, terms.platformPercent - referral],
    100,
  );
  return { creator, platform, referral: ref };
}

/** Whether the legs balance: per currency the amounts sum to zero. */
export function isBalanced(legs: Leg[]): boolean {
  const sums = new Map<Currency, number>();
  for (const l of legs) {
    if (!Number.isSafeInteger(l.amount)) return false;
    sums.set(l.currency, (sums.get(l.currency) ?? 0) + l.amount);
  }
  return [...sums.values()].every((v) => v === 0);
}

interface SaleParties {
  creatorId: string;
  referrerId: string | null;
  availableAt: Date;
}

/** The cents legs that pay a sale of `amount` out of `source` to creator, platform and referrer. */
export function saleLegs(source: string, amount: number, split: Split, p: SaleParties): Leg[] {
  const legs: Leg[] = [
    { account: source, currency: 'cents', amount: -amount },
    {
      account: ACCOUNTS.creator(p.creatorId),
      currency: 'cents',
      amount: split.creator,
      availableAt: p.availableAt,
    },
    { account: ACCOUNTS.revenue, currency: 'cents', amount: split.platform },
  ];
  if (split.referral && p.referrerId)
    legs.push({ account: ACCOUNTS.referral(p.referrerId), currency: 'cents', amount: split.referral });
  return legs.filter((l) => l.amount !== 0 || l.account === source);
}

/** A fan buys `credits` for `cents` through a provider. */
export function creditPurchaseLegs(provider: string, fanId: string, cents: number, credits: number): Leg[] {
  return [
    { account: ACCOUNTS.provider(provider), currency: 'cents', amount: -cents },
    { account: ACCOUNTS.creditFloat, currency: 'cents', amount: cents },
    { account: ACCOUNTS.creditsIssued, currency: 'credits', amount: -credits },
    { account: ACCOUNTS.fan(fanId), currency: 'credits', amount: credits },
  ];
}

/** Free credits (verified flag): issued by the platform, no cash behind them. */
export function freeCreditLegs(fanId: string, credits: number): Leg[] {
  return [
    { account: ACCOUNTS.creditsIssued, currency: 'credits', amount: -credits },
    { account: ACCOUNTS.fan(fanId), currency: 'credits', amount: credits },
  ];
}

/** A fan spends credits with a creator: the credits return to the issuer, their value is split. */
export function spendLegs(
  fanId: string,
  credits: number,
  valueCents: number,
  split: Split,
  p: SaleParties,
): Leg[] {
  return [
    { account: ACCOUNTS.fan(fanId), currency: 'credits', amount: -credits },
    { account: ACCOUNTS.creditsIssued, currency: 'credits', amount: credits },
    ...saleLegs(ACCOUNTS.creditFloat, valueCents, split, p),
  ];
}

/** Every leg of a transfer negated (a refund or chargeback reverses creator, platform and referral). */
export function reverseLegs(legs: Leg[], now: Date): Leg[] {
  return legs.map((l) => ({
    account: l.account,
    currency: l.currency,
    amount: -l.amount,
    availableAt: l.availableAt ? now : null,
  }));
}

/**
 * Reversal of a credit purchase: the unspent part of the credits is taken back; the cash for
 * credits already spent is a loss (creators keep what they earned).
 */
export function creditPurchaseReversalLegs(
  provider: string,
  fanId: string,
  cents: number,
  credits: number,
  walletCredits: number,
): { legs: Leg[]; clawedCredits: number } {
  const clawed = Math.max(0, Math.min(walletCredits, credits));
  const recovered = credits === 0 ? 0 : Math.floor((cents * clawed) / credits);
  const legs: Leg[] = [
    { account: ACCOUNTS.provider(provider), currency: 'cents', amount: cents },
    { account: ACCOUNTS.creditFloat, currency: 'cents', amount: -recovered },
    { account: ACCOUNTS.chargebackLosses, currency: 'cents', amount: -(cents - recovered) },
  ];
  if (clawed > 0)
    legs.push(
      { account: ACCOUNTS.fan(fanId), currency: 'credits', amount: -clawed },
      { account: ACCOUNTS.creditsIssued, currency: 'credits', amount: clawed },
    );
  return {
    legs: legs.filter((l) => l.amount !== 0 || l.account.startsWith('provider:')),
    clawedCredits: clawed,
  };
}

const DAY = 86_400_000;

/** The payout batch a moment belongs to: weekly (Monday UTC) or the 1st/16th of the month. */
export function payoutBatchKey(at: Date, period: 'weekly' | '15days'): string {
  if (period === 'weekly') {
    const day = (at.getUTCDay() + 6) % 7;
    const monday = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) - day * DAY);
    return `w-${monday.toISOString().slice(0, 10)}`;
  }
  const half = at.getUTCDate() <= 15 ? 1 : 16;
  return `h-${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}-${String(half).padStart(2, '0')}`;
}

/** When the next payout batch runs after `at`. */
export function nextPayoutDate(at: Date, period: 'weekly' | '15days'): Date {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (period === 'weekly') {
    const day = (at.getUTCDay() + 6) % 7;
    return new Date(midnight + (7 - day) * DAY);
  }
  return at.getUTCDate() < 16
    ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 16))
    : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY);
}
