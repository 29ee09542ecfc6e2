import { describe, expect, it } from 'vitest';
import { dollars, priceDisplay, relativeTime } from './format.ts';

const now = Date.parse('2026-01-31T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('relativeTime (spec §9)', () => {
  it('counts seconds, minutes, hours, days under 30, then months', () => {
    expect(relativeTime(ago(5_000), now)).toEqual({ unit: 'seconds', count: 5 });
    expect(relativeTime(ago(3 * 60_000), now)).toEqual({ unit: 'minutes', count: 3 });
    expect(relativeTime(ago(5 * 3_600_000), now)).toEqual({ unit: 'hours', count: 5 });
    expect(relativeTime(ago(29 * 86_400_000), now)).toEqual({ unit: 'days', count: 29 });
    expect(relativeTime(ago(65 * 86_400_000), now)).toEqual({ unit: 'months', count: 2 });
  });
});

describe('priceDisplay', () => {
  const on = { discountStatus: 'on' as const, discountPercent: 20, discountDateLimit: null };
  it('shows the discount and the percent the creator set, only while active', () => {
    // 20% off 60 credits: 48 credits and −20% (not spec §9's (60 − 48) / 48 = 25%; ADR 0016).
    expect(priceDisplay(60, 48, { ...on, discountPercent: 20 })).toEqual({
      price: 48,
      original: 60,
      percent: 20,
    });
    expect(priceDisplay(100, 100, { ...on, discountStatus: 'off' })).toEqual({
      price: 100,
      original: null,
      percent: null,
    });
    const expired = { ...on, discountDateLimit: '2020-01-01T00:00:00Z' };
    expect(priceDisplay(100, 80, expired).original).toBeNull();
  });
  it('formats cents as dollars', () => {
    expect(dollars(999)).toBe('9.99');
  });
});
