import { describe, expect, it } from 'vitest';
import {
  creditPurchaseReversalLegs,
  isBalanced,
  largestRemainder,
  nextPayoutDate,
  payoutBatchKey,
  reverseLegs,
  saleLegs,
  splitSale,
} from './money.math.ts';

describe('largest remainder split', () => {
  it('never creates or loses a cent over many amounts and terms', () => {
    for (let amount = 0; amount < 3000; amount += 7) {
      for (const platformPercent of [5, 20, 33, 50]) {
        for (const hasReferrer of [false, true]) {
          const s = splitSale(amount, { platformPercent, referralPercent: 5, hasReferrer });
          expect(s.creator + s.platform + s.referral).toBe(amount);
          const exactCreator = (amount * (100 - platformPercent)) / 100;
          expect(Math.abs(s.creator - exactCreator)).toBeLessThan(1);
          if (!hasReferrer) expect(s.referral).toBe(0);
        }
      }
    }
  });

  it('gives ties to the earlier part deterministically', () => {
    expect(largestRemainder(1, [1, 1], 2)).toEqual([1, 0]);
    expect(largestRemainder(-1, [1, 1], 2)).toEqual([-1, 0]);
    expect(largestRemainder(999, [80, 5, 15], 100)).toEqual([799, 50, 150]);
  });

  it('takes the referral out of the platform share, creator share whole', () => {
    expect(splitSale(10_000, { platformPercent: 20, referralPercent: 5, hasReferrer: true })).toEqual({
      creator: 8000,
      referral: 500,
      platform: 1500,
    });
  });

  it('refuses floats', () => {
    expect(() => largestRemainder(1.5, [50, 50], 100)).toThrow();
  });
});

describe('legs', () => {
  const p = { creatorId: 'c', referrerId: 'r', availableAt: new Date(0) };
  it('a sale and its reversal balance and cancel out', () => {
    const legs = saleLegs(
      'provider:x',
      999,
      splitSale(999, { platformPercent: 20, referralPercent: 5, hasReferrer: true }),
      p,
    );
    expect(isBalanced(legs)).toBe(true);
    const rev = reverseLegs(legs, new Date());
    expect(isBalanced(rev)).toBe(true);
    expect(isBalanced([...legs, ...rev])).toBe(true);
  });

  it('a credit purchase refund takes back only unspent credits and books the rest as a loss', () => {
    const { legs, clawedCredits } = creditPurchaseReversalLegs('sandbox', 'f', 500, 50, 20);
    expect(clawedCredits).toBe(20);
    expect(isBalanced(legs)).toBe(true);
    expect(legs.find((l) => l.account === 'platform:chargeback_losses')?.amount).toBe(-300);
  });
});

describe('payout periods', () => {
  it('weekly batches start on Monday and the next payout is the next Monday', () => {
    const wed = new Date('2026-11-18T10:00:00Z');
    expect(payoutBatchKey(wed, 'weekly')).toBe('w-2026-11-16');
    expect(nextPayoutDate(wed, 'weekly').toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('15-day batches split the month on the 1st and the 16th', () => {
    expect(payoutBatchKey(new Date('2026-11-15T23:00:00Z'), '15days')).toBe('h-2026-11-01');
    expect(payoutBatchKey(new Date('2026-11-16T00:00:00Z'), '15days')).toBe('h-2026-11-16');
    expect(nextPayoutDate(new Date('2026-11-03T00:00:00Z'), '15days').toISOString()).toBe(
      '2026-11-16T00:00:00.000Z',
    );
    expect(nextPayoutDate(new Date('2026-12-20T00:00:00Z'), '15days').toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });
});
