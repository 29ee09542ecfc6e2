import { describe, expect, it } from 'vitest';
import { nextStatus } from './subscription.state.ts';

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
});
