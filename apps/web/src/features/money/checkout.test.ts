import { describe, expect, it } from 'vitest';
import { checkoutOutcome } from './checkout.ts';

describe('checkoutOutcome', () => {
  it('trusts an explicit payment flag', () => {
    expect(checkoutOutcome('declined', null, 100)).toBe('declined');
    expect(checkoutOutcome('approved', null, 0)).toBe('approved');
  });
  it('reads an approved bag from the grown balance', () => {
    const pending = { kind: 'credits', what: '50', balanceBefore: 0 } as const;
    expect(checkoutOutcome(null, pending, 50)).toBe('approved');
    expect(checkoutOutcome(null, pending, 0)).toBe('declined');
  });
  it('says nothing without a pending credits checkout', () => {
    expect(checkoutOutcome(null, null, 50)).toBeNull();
  });
});
