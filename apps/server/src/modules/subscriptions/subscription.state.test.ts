import { describe, expect, it } from 'vitest';
import { hasAccess, nextStatus } from './subscription.state.ts';

describe('subscription state machine', () => {
  it.each([
    [undefined, 'start', 'active'],
    [undefined, 'cancel', null],
    [undefined, 'expire', null],
    ['active', 'cancel', 'cancelled'],
    ['active', 'renew', 'active'],
    ['active', 'expire', 'expired'],
    ['active', 'reactivate', null],
    ['cancelled', 'reactivate', 'active'],
    ['cancelled', 'renew', 'active'],
    ['cancelled', 'expire', 'expired'],
    ['cancelled', 'cancel', 'cancelled'],
    ['expired', 'cancel', null],
    ['expired', 'start', 'active'],
    ['expired', 'renew', 'active'],
    ['active', 'revoke', 'expired'],
    ['cancelled', 'revoke', 'expired'],
  ] as const)('%s + %s → %s', (from, event, to) => {
    expect(nextStatus(from, event)).toBe(to);
  });

  it('keeps access of a cancelled subscription until the paid period ends', () => {
    const now = new Date('2026-01-10T00:00:00Z');
    expect(hasAccess('cancelled', new Date('2026-01-20T00:00:00Z'), now)).toBe(true);
    expect(hasAccess('cancelled', new Date('2026-01-05T00:00:00Z'), now)).toBe(false);
    expect(hasAccess('expired', new Date('2026-01-20T00:00:00Z'), now)).toBe(false);
  });
});
