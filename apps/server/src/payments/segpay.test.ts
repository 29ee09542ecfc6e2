import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import type { MoneyConfig } from '../config.ts';
import { makeCreator } from './money.testkit.ts';
import { PostbackRefused } from './payment-provider.ts';
import { SegpayProvider } from './segpay.provider.ts';

const cfg: MoneyConfig['segpay'] = {
  billingUrl: 'https://secure2.segpay.com/billing/poset.cgi',
  subscriptionEticketid: '123456:7890',
  postbackUser: 'segpay-postback',
  postbackPassword: 'pb-secret',
  hmacKey: 'fixture-hmac-key',
  srsUrl: 'https://srs.invalid/MerchantServices/DynamicRecurring',
  srsUser: 'srs-user',
  srsKey: 'srs-key',
};
const basic = `Basic ${Buffer.from('segpay-postback:pb-secret').toString('base64')}`;
const fixtures = fs
  .readdirSync(path.join(import.meta.dirname, 'fixtures'))
  .filter((f) => f.startsWith('segpay-'))
  .map((f) => ({
    name: f,
    ...(JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'fixtures', f), 'utf8')) as {
      expect: string;
      fields: Record<string, string>;
    }),
  }));

describe('SegPay adapter', () => {
  const srsCalls: unknown[] = [];
  const provider = new SegpayProvider(cfg, {
    dynamicRecurring: async (terms) => {
      srsCalls.push(terms);
      return '987654';
    },
  });

  it('builds the documented billing URL for a monthly subscription, pricing obtained server-side', async () => {
    const dynamicPricingId = await provider.dynamicPricing({ amountCents: 999, periodDays: 30 });
    expect(srsCalls).toEqual([
      { initialAmount: '9.99', initialLength: 30, recurringAmount: '9.99', recurringLength: 30 },
    ]);
    const url = new URL(
      provider.buildRedirect({
        checkoutId: 'chk-1',
        kind: 'subscription',
        amountCents: 999,
        credits: 0,
        eticketid: '123456:7890',
        dynamicPricingId,
        payer: { id: 'u-1', name: 'Ana Pérez', email: 'ana@example.com', country: 'co', language: 'es' },
        creator: { id: 'c-1', handle: 'alice1' },
        successUrl: 'https://fan.example/alice1',
        declineUrl: 'https://fan.example/?feed=my-credits',
        description: 'Subscribe to @alice1 for $9.99 monthly',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://secure2.segpay.com/billing/poset.cgi');
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      'x-eticketid': '123456:7890',
      DynamicPricingID: '987654',
      amount: '9.99',
      price: '9.99',
      'x-billname': 'Ana Pérez',
      'x-billemail': 'ana@example.com',
      'x-billcntry': 'CO',
      paypagelanguage: 'ES',
      'x-auth-link': 'https://fan.example/alice1',
      'x-decl-link': 'https://fan.example/?feed=my-credits',
      checkout: 'chk-1',
      userid: 'u-1',
      creatorid: 'c-1',
      priceby: 'monthly',
      sitepath: '/alice1',
      description: 'Subscribe to @alice1 for $9.99 monthly',
    });
    expect(q.fvsig).toMatch(/^[0-9a-f]{64}$/);
    expect(url.search).toContain('x-eticketid=123456:7890');
  });

  it('builds a credit bag URL with the bag eticketid and no dynamic price', () => {
    const url = new URL(
      provider.buildRedirect({
        checkoutId: 'chk-2',
        kind: 'credits',
        amountCents: 500,
        credits: 50,
        eticketid: '123456:5000',
        dynamicPricingId: null,
        payer: { id: 'u-1', name: 'Ana', email: 'ana@example.com', country: null, language: 'en' },
        creator: null,
        successUrl: 'https://fan.example/?feed=my-credits',
        declineUrl: 'https://fan.example/?feed=my-credits',
        description: '50 credits',
      }),
    );
    const q = Object.fromEntries(url.searchParams);
    expect(q['x-eticketid']).toBe('123456:5000');
    expect(q.DynamicPricingID).toBeUndefined();
    expect(q.paypagelanguage).toBe('EN');
    expect(q['x-auth-link']).toBe(q['x-decl-link']);
  });

  it.each(fixtures.map((f) => [f.name, f] as const))('parses the recorded postback %s', (_name, f) => {
    const event = provider.parsePostback({ headers: { authorization: basic }, fields: f.fields });
    expect(event.type).toBe(f.expect);
    expect(event.purchaseId).toBe(f.fields.purchaseid ?? null);
    if (f.fields.relatedtranid) expect(event.relatedTransactionId).toBe(f.fields.relatedtranid);
    if (f.fields.checkout) expect(event.checkoutId).toBe(f.fields.checkout);
    expect(provider.answer(event)).toEqual({ status: 200, body: 'OK' });
  });

  it('maps prices to integer cents', () => {
    const [initial] = fixtures.filter((f) => f.name === 'segpay-subscription-initial.json');
    const event = provider.parsePostback({
      headers: { authorization: basic },
      fields: initial?.fields ?? {},
    });
    expect(event.amountCents).toBe(999);
    expect(event.key).toBe('90000001:auth:subscription_started');
  });

  it('refuses tampered postbacks: changed pass-through fields, bad or missing credentials', () => {
    const f = fixtures.find((x) => x.name === 'segpay-subscription-initial.json')?.fields ?? {};
    const parse = (fields: Record<string, string>, authorization?: string) => () =>
      provider.parsePostback({ headers: { authorization }, fields });
    expect(parse({ ...f, userid: '99999999-2222-4333-8444-555555555555' }, basic)).toThrow(PostbackRefused);
    expect(parse({ ...f, checkout: 'other' }, basic)).toThrow(PostbackRefused);
    expect(parse({ ...f, fvsig: '0'.repeat(64) }, basic)).toThrow(PostbackRefused);
    expect(parse(f)).toThrow(PostbackRefused);
    expect(parse(f, `Basic ${Buffer.from('segpay-postback:wrong').toString('base64')}`)).toThrow(
      PostbackRefused,
    );
    expect(parse({ ...f, action: 'Explode' }, basic)).toThrow(PostbackRefused);
  });
});

describe('SegPay through the app', () => {
  let t: TestApp;
  let srs: http.Server;
  const srsRequests: string[] = [];
  beforeAll(async () => {
    // A stand-in for SegPay's SRS on loopback (no network): answers a DynamicPricingID.
    srs = http.createServer((req, res) => {
      srsRequests.push(`${req.headers.authorization} ${req.url}`);
      res.end('555001');
    });
    await new Promise<void>((resolve) => srs.listen(0, '127.0.0.1', resolve));
    const port = (srs.address() as { port: number }).port;
    t = await createTestApp({
      PAYMENT_PROVIDER: 'segpay',
      PUBLIC_URL: 'https://fan.example',
      SEGPAY_SRS_URL: `http://127.0.0.1:${port}/MerchantServices/DynamicRecurring`,
      SEGPAY_SRS_USER: 'srs-user',
      SEGPAY_SRS_KEY: 'srs-key',
      SEGPAY_SUBSCRIPTION_ETICKETID: '123456:7890',
      SEGPAY_POSTBACK_USER: 'segpay-postback',
      SEGPAY_POSTBACK_PASSWORD: 'pb-secret',
      SEGPAY_HMAC_KEY: 'fixture-hmac-key',
    });
  });
  afterAll(async () => {
    await t?.stop();
    await new Promise((resolve) => srs?.close(resolve));
  });

  it('subscribes: URL from the server, postback with credentials applied once, tampered refused', async () => {
    const creator = await makeCreator(t, '9.99');
    const fan = await createUser(t);
    const res = await t.call(
      'checkout.subscription',
      { creator: creator.username },
      { token: fan.token, lang: 'es' },
    );
    expect(res.status).toBe(200);
    const q = new URL(res.body.redirectUrl).searchParams;
    expect(q.get('DynamicPricingID')).toBe('555001');
    expect(q.get('paypagelanguage')).toBe('ES');
    expect(q.get('x-auth-link')).toBe(`https://fan.example/${creator.username}?payment=approved`);
    expect(q.get('x-decl-link')).toBe(`https://fan.example/${creator.username}?payment=declined`);
    expect(srsRequests[0]).toContain('InitialAmount=9.99');
    expect(srsRequests[0]).toContain(`Basic ${Buffer.from('srs-user:srs-key').toString('base64')}`);
    const fields = {
      action: 'Auth',
      stage: 'Initial',
      approved: 'Yes',
      trantype: 'sale',
      purchaseid: '70000001',
      tranid: '80000001',
      price: '9.99',
      eticketid: '123456:7890',
      checkout: q.get('checkout') ?? '',
      userid: q.get('userid') ?? '',
      creatorid: q.get('creatorid') ?? '',
      priceby: q.get('priceby') ?? '',
      fvsig: q.get('fvsig') ?? '',
    };
    const post = (f: Record<string, string>, authorization = basic) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/payments/segpay/postback?${new URLSearchParams(f)}`,
        headers: { authorization },
      });
    expect((await post({ ...fields, tranid: '80000000', price: '0.99' })).statusCode).toBe(400);
    const ok = await post(fields);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('OK');
    expect((await post(fields)).statusCode).toBe(200);
    expect(
      (await post({ ...fields, tranid: '80000002', userid: fan.id.replace(/.$/, '0') })).statusCode,
    ).toBe(400);
    expect((await post(fields, 'Basic bm9wZTpub3Bl')).statusCode).toBe(400);
    const mine = await t.call('subscriptions.mine', undefined, { token: fan.token });
    expect(mine.body.items).toHaveLength(1);
    expect(mine.body.items[0]).toMatchObject({ status: 'active', DynamicPricingID: '555001' });
    // Cancel (member-management postback) answers OK and cancels.
    const cancel = await post({
      action: 'Cancel',
      purchaseid: '70000001',
      transguid: 'g-1',
      checkout: fields.checkout,
      userid: fields.userid,
      creatorid: fields.creatorid,
      priceby: fields.priceby,
      fvsig: fields.fvsig,
    });
    expect(cancel.body).toBe('OK');
    expect((await t.call('subscriptions.mine', undefined, { token: fan.token })).body.items[0]?.status).toBe(
      'cancelled',
    );
    // The sandbox endpoint is still there for demos, but segpay events cannot be forged through it.
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/payments/nope/postback', payload: {} });
    expect(bad.statusCode).toBe(400);
  });

  it('offers: a bundle and a free trial are priced through SRS (initial and recurring terms) and applied from postbacks', async () => {
    const creator = await makeCreator(t, '10');
    await t.call(
      'creator.saveBundles',
      { bundles: [{ months: 3, discountPercent: 10 }] },
      { token: creator.token },
    );
    const trial = await t.call(
      'creator.createOfferLink',
      { kind: 'trial', trialDays: 7, expiresAt: new Date(Date.now() + 86_400_000).toISOString(), maxUses: 5 },
      { token: creator.token },
    );
    const pass = (url: string) => {
      const q = new URL(url).searchParams;
      return Object.fromEntries(
        ['checkout', 'userid', 'creatorid', 'priceby', 'fvsig'].map((k) => [k, q.get(k) ?? '']),
      );
    };
    const post = (f: Record<string, string>) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/payments/segpay/postback?${new URLSearchParams(f)}`,
        headers: { authorization: basic },
      });
    const sale = {
      action: 'Auth',
      stage: 'Initial',
      approved: 'Yes',
      trantype: 'sale',
      eticketid: '123456:7890',
    };

    const bundleFan = await createUser(t);
    srsRequests.length = 0;
    const bundle = await t.call(
      'checkout.subscription',
      { creator: creator.username, bundle: 3 },
      { token: bundleFan.token },
    );
    expect(bundle.status).toBe(200);
    expect(srsRequests[0]).toContain('InitialAmount=27.00');
    expect(srsRequests[0]).toContain('InitialLength=90');
    expect(srsRequests[0]).toContain('RecurringAmount=27.00');
    expect(srsRequests[0]).toContain('RecurringLength=90');
    expect(new URL(bundle.body.redirectUrl).searchParams.get('price')).toBe('27.00');
    const ok = await post({
      ...sale,
      purchaseid: '71000001',
      tranid: '81000001',
      price: '27.00',
      ...pass(bundle.body.redirectUrl),
    });
    expect(ok.statusCode).toBe(200);
    const [b] = (await t.call('subscriptions.mine', undefined, { token: bundleFan.token })).body.items;
    expect(b).toMatchObject({ status: 'active', period: { days: 90 }, nextCharge: { amountCents: 2700 } });
    // SegPay's rebill 90 days later.
    const rebill = await post({
      action: 'Auth',
      stage: 'Rebill',
      approved: 'Yes',
      trantype: 'sale',
      purchaseid: '71000001',
      tranid: '81000002',
      price: '27.00',
      eticketid: '123456:7890',
      ...pass(bundle.body.redirectUrl),
    });
    expect(rebill.statusCode).toBe(200);

    const trialFan = await createUser(t);
    srsRequests.length = 0;
    const started = await t.call(
      'checkout.subscription',
      { creator: creator.username, offer: trial.body.code },
      { token: trialFan.token },
    );
    expect(started.status).toBe(200);
    expect(srsRequests[0]).toContain('InitialAmount=0.00');
    expect(srsRequests[0]).toContain('InitialLength=7');
    expect(srsRequests[0]).toContain('RecurringAmount=10.00');
    expect(srsRequests[0]).toContain('RecurringLength=30');
    const free = await post({
      ...sale,
      purchaseid: '72000001',
      tranid: '82000001',
      price: '0.00',
      ...pass(started.body.redirectUrl),
    });
    expect(free.statusCode).toBe(200);
    const [tr] = (await t.call('subscriptions.mine', undefined, { token: trialFan.token })).body.items;
    expect(tr).toMatchObject({ status: 'active', nextCharge: { amountCents: 1000 } });
    const health = await t.services.moneyStore.ledger.totals();
    expect(health.cents ?? 0).toBe(0);
    const charged = await t.database.session((exec) =>
      exec(
        `SELECT kind, amount_cents FROM ledger_transactions WHERE user_id IN ('${bundleFan.id}', '${trialFan.id}') ORDER BY created_at`,
      ),
    );
    expect(charged).toEqual([
      { kind: 'subscription', amount_cents: 2700 },
      { kind: 'subscription_renewal', amount_cents: 2700 },
    ]);
  });
});
