import { randomUUID } from 'node:crypto';
import { createUser } from '../../test/factories.ts';
import type { TestApp } from '../../test/harness.ts';
import { dollars } from './payment-provider.ts';

/** Buys a credit bag for a fan through a real signed sandbox postback (no HTTP page). */
export async function buyCredits(t: TestApp, fan: { id: string; token: string }, bag = 'bag-50') {
  const res = await t.call('checkout.credits', { bag }, { token: fan.token });
  if (res.status !== 200) throw new Error(`checkout failed: ${JSON.stringify(res.body)}`);
  const checkout = await t.services.moneyStore.billing.checkout(res.body.checkout);
  if (!checkout) throw new Error('no checkout');
  const fields = t.services.billing.signSandbox({
    event: 'credits_purchased',
    tranid: `sbx-t-${randomUUID()}`,
    purchaseid: `sbx-p-${checkout.id}`,
    checkout: checkout.id,
    userid: fan.id,
    amount: dollars(checkout.amountCents),
    eticketid: checkout.eticketid ?? '',
    at: new Date().toISOString(),
  });
  await t.services.billing.handlePostback('sandbox', { headers: {}, fields });
  return fields;
}

/** Sends a signed sandbox postback through the real endpoint; answers the HTTP status. */
export async function postback(t: TestApp, fields: Record<string, string>): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/sandbox/postback',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
  return res.statusCode;
}

/** Ledger health: every currency sums to zero, wallets match their accounts and are never negative. */
export async function ledgerHealth(t: TestApp) {
  const ledger = t.services.moneyStore.ledger;
  return { totals: await ledger.totals(), mismatches: await ledger.walletMismatches() };
}

export async function makeCreator(t: TestApp, priceDollars = '9.99') {
  const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  const res = await t.call('creator.pricing', { price: priceDollars }, { token: creator.token });
  if (res.status !== 200) throw new Error(`pricing failed: ${JSON.stringify(res.body)}`);
  return creator;
}
