import { describe, expect, it } from 'vitest';
import { billingRates } from './statistics.service.ts';

describe('billing rates', () => {
  it('renewal rate over the periods that ended, cancel rate over the subscriptions of the period', () => {
    expect(billingRates({ renewals: 3, lapsed: 1, cancellations: 1, subscribed: 8 })).toEqual({
      renewals: 3,
      cancellations: 1,
      renewalRate: 75,
      cancelRate: 12.5,
    });
    expect(billingRates({ renewals: 1, lapsed: 2, cancellations: 0, subscribed: 0 })).toMatchObject({
      renewalRate: 33.3,
      cancelRate: 0,
    });
    expect(billingRates({})).toMatchObject({ renewalRate: 0, cancelRate: 0 });
  });
});
