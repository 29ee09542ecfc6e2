import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { ledgerHealth, makeCreator, postback } from '../../payments/money.testkit.ts';
import { approvalFields } from '../billing/billing.service.ts';

const DAY = 86_400_000;
let clock = new Date();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ EARNINGS_HOLD_DAYS: '0' }, { now: () => clock });
});
afterAll(async () => {
  await t?.stop();
});

type Who = { id: string; token: string; username: string };

/** Opens a checkout with the given choice; answers the sandbox approval fields (not sent yet). */
async function checkout(fan: Who, creator: Who, choice: { bundle?: 3 | 6 | 12; offer?: string } = {}) {
  const res = await t.call(
    'checkout.subscription',
    { creator: creator.username, ...choice },
    { token: fan.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const row = await t.services.moneyStore.billing.checkout(res.body.checkout);
  if (!row) throw new Error('no checkout');
  return { res, fields: approvalFields(row, clock) };
}

async function pay(fan: Who, creator: Who, choice: { bundle?: 3 | 6 | 12; offer?: string } = {}) {
  const { fields } = await checkout(fan, creator, choice);
  expect(await postback(t, t.services.billing.signSandbox(fields))).toBe(200);
  return fields;
}

async function sales(fanId: string) {
  return t.database.session((exec) =>
    exec(
      `SELECT kind, amount_cents FROM ledger_transactions WHERE user_id = '${fanId}' AND category = 'subscriptions' ORDER BY created_at`,
    ),
  );
}

async function subscription(fan: Who) {
  const [item] = (await t.call('subscriptions.mine', undefined, { token: fan.token })).body.items;
  if (!item) throw new Error('no subscription');
  return item;
}

async function link(creator: Who, body: Record<string, unknown>) {
  const res = await t.call(
    'creator.createOfferLink',
    { expiresAt: new Date(clock.getTime() + 2 * DAY).toISOString(), maxUses: 10, ...body },
    { token: creator.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('bundles', () => {
  it('sells 3, 6 and 12 months at the discount the creator set; a bundle renews for its months and price', async () => {
    const creator = await makeCreator(t, '10');
    const fan = await createUser(t);
    const saved = await t.call(
      'creator.saveBundles',
      {
        bundles: [
          { months: 3, discountPercent: 10 },
          { months: 6, discountPercent: 20 },
          { months: 12, discountPercent: 30 },
        ],
      },
      { token: creator.token },
    );
    expect(saved.status).toBe(200);
    const shown = await t.call('offers.bundles', undefined, { params: { creator: creator.username } });
    expect(shown.body.bundles).toEqual([
      { months: 3, discountPercent: 10, fullPriceCents: 3000, priceCents: 2700 },
      { months: 6, discountPercent: 20, fullPriceCents: 6000, priceCents: 4800 },
      { months: 12, discountPercent: 30, fullPriceCents: 12000, priceCents: 8400 },
    ]);
    const { res } = await checkout(fan, creator, { bundle: 6 });
    const page = await t.app.inject({ method: 'GET', url: res.body.redirectUrl });
    expect(page.body).toContain('for 6 months: $48.00 every 6 months');
    const fields = await pay(fan, creator, { bundle: 6 });
    const item = await subscription(fan);
    expect(item.period.days).toBe(180);
    expect(item.nextCharge?.amountCents).toBe(4800);
    expect(Date.parse(item.period.end) - clock.getTime()).toBe(180 * DAY);
    // The renewal charges the bundle's price for another 6 months.
    const at = new Date(Date.parse(item.period.end));
    const sim = await t.call(
      'payments.sandboxSimulate',
      { purchase: fields.purchaseid, event: 'renewal', at: at.toISOString() },
      { token: fan.token },
    );
    expect(sim.body.status).toBe(200);
    expect(Date.parse((await subscription(fan)).period.end)).toBe(at.getTime() + 180 * DAY);
    expect(await sales(fan.id)).toEqual([
      { kind: 'subscription', amount_cents: 4800 },
      { kind: 'subscription_renewal', amount_cents: 4800 },
    ]);
    expect((await ledgerHealth(t)).totals.cents ?? 0).toBe(0);
  });

  it('a bundle the creator does not offer is not sold; only creators set bundles', async () => {
    const creator = await makeCreator(t, '10');
    const fan = await createUser(t);
    const res = await t.call(
      'checkout.subscription',
      { creator: creator.username, bundle: 12 },
      { token: fan.token },
    );
    expect(res.status).toBe(404);
    for (const [name, input] of [
      ['creator.saveBundles', { bundles: [{ months: 3, discountPercent: 10 }] }],
      [
        'creator.createOfferLink',
        { kind: 'trial', trialDays: 7, expiresAt: new Date(Date.now() + DAY).toISOString(), maxUses: 1 },
      ],
      ['creator.saveWelcome', { text: 'hi', active: true }],
    ] as const) {
      expect((await t.call(name, input, { token: fan.token })).status).toBe(403);
      expect((await t.call(name, input)).status).toBe(401);
    }
    expect((await t.call('creator.offers', undefined, { token: fan.token })).status).toBe(403);
  });
});

describe('offer links', () => {
  it('a free trial charges nothing now, then the regular price; the ledger stays balanced', async () => {
    const creator = await makeCreator(t, '10');
    const fan = await createUser(t);
    const trial = await link(creator, { kind: 'trial', trialDays: 7 });
    const view = await t.call('offers.view', undefined, { params: { code: trial.code } });
    expect(view.body).toMatchObject({
      kind: 'trial',
      trialDays: 7,
      firstCents: 0,
      recurringCents: 1000,
      remaining: 10,
    });
    expect(view.body.creator.user).toBe(creator.username);
    const fields = await pay(fan, creator, { offer: trial.code });
    expect(fields.amount).toBe('0.00');
    const item = await subscription(fan);
    expect(item.status).toBe('active');
    expect(Date.parse(item.period.end) - clock.getTime()).toBe(7 * DAY);
    expect(item.nextCharge).toEqual({ at: item.period.end, amountCents: 1000 });
    expect(await sales(fan.id)).toEqual([]);
    // After the trial the first real charge is the regular month.
    const sim = await t.call(
      'payments.sandboxSimulate',
      { purchase: fields.purchaseid, event: 'renewal', at: item.period.end },
      { token: fan.token },
    );
    expect(sim.body.status).toBe(200);
    expect(await sales(fan.id)).toEqual([{ kind: 'subscription_renewal', amount_cents: 1000 }]);
    expect((await t.call('creator.offers', undefined, { token: creator.token })).body.links[0]?.uses).toBe(1);
    expect((await ledgerHealth(t)).totals.cents ?? 0).toBe(0);
  });

  it('a discount link discounts the first month by the percent set, then renews at the regular price', async () => {
    const creator = await makeCreator(t, '10');
    const fan = await createUser(t);
    const off = await link(creator, { kind: 'discount', discountPercent: 25 });
    const fields = await pay(fan, creator, { offer: off.code });
    expect(fields.amount).toBe('7.50');
    const item = await subscription(fan);
    expect(item.nextCharge?.amountCents).toBe(1000);
    expect(await sales(fan.id)).toEqual([{ kind: 'subscription', amount_cents: 750 }]);
    expect((await ledgerHealth(t)).totals.cents ?? 0).toBe(0);
  });

  it("an expired link is refused with a clear message in the fan's language", async () => {
    const creator = await makeCreator(t, '10');
    const fan = await createUser(t);
    const off = await link(creator, { kind: 'discount', discountPercent: 50 });
    const start = clock;
    clock = new Date(clock.getTime() + 3 * DAY);
    try {
      const view = await t.call('offers.view', undefined, { params: { code: off.code }, lang: 'es' });
      expect(view.status).toBe(410);
      expect(view.body).toMatchObject({ code: 'OFFER_EXPIRED' });
      expect(view.body.message).toContain('caducado');
      const res = await t.call(
        'checkout.subscription',
        { creator: creator.username, offer: off.code },
        { token: fan.token },
      );
      expect(res.status).toBe(410);
      expect(res.body.message).toContain('expired');
    } finally {
      clock = start;
    }
  });

  it('concurrent redemptions never pass the use limit', async () => {
    const creator = await makeCreator(t, '10');
    const off = await link(creator, { kind: 'discount', discountPercent: 10, maxUses: 2 });
    const fans = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(t)));
    // Five fans opened the offer before it ran out; all five pay at the same moment.
    const opened = [];
    for (const fan of fans) opened.push(await checkout(fan, creator, { offer: off.code }));
    const statuses = await Promise.all(
      opened.map((o) => postback(t, t.services.billing.signSandbox(o.fields))),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 400)).toHaveLength(3);
    const offers = await t.call('creator.offers', undefined, { token: creator.token });
    expect(offers.body.links[0]).toMatchObject({ uses: 2, maxUses: 2 });
    // Used up: the next fan is told so before paying.
    const late = await createUser(t);
    const res = await t.call(
      'checkout.subscription',
      { creator: creator.username, offer: off.code },
      { token: late.token },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('OFFER_USED_UP');
    expect((await ledgerHealth(t)).totals.cents ?? 0).toBe(0);
  });

  it("a link works only for its creator's page", async () => {
    const a = await makeCreator(t, '10');
    const b = await makeCreator(t, '10');
    const fan = await createUser(t);
    const off = await link(a, { kind: 'trial', trialDays: 3 });
    const res = await t.call(
      'checkout.subscription',
      { creator: b.username, offer: off.code },
      { token: fan.token },
    );
    expect(res.status).toBe(404);
  });
});

describe('welcome message', () => {
  it('is sent once to each new subscriber through the job queue', async () => {
    const creator = await makeCreator(t, '10');
    const fan = await createUser(t);
    const saved = await t.call(
      'creator.saveWelcome',
      { text: 'Welcome! Thanks for subscribing.', active: true },
      { token: creator.token },
    );
    expect(saved.body.welcome).toEqual({
      text: 'Welcome! Thanks for subscribing.',
      active: true,
      price: 0,
      media: [],
    });
    const fields = await pay(fan, creator);
    // A replayed start postback sends nothing more.
    expect(await postback(t, t.services.billing.signSandbox(fields))).toBe(200);
    await t.jobs.drain();
    const chat = await t.call('message.conversation', { user: creator.username }, { token: fan.token });
    expect(chat.body.messages.map((m) => m.message)).toEqual(['Welcome! Thanks for subscribing.']);
    // Switched off: the next subscriber gets none.
    await t.call('creator.saveWelcome', { text: 'Welcome!', active: false }, { token: creator.token });
    const other = await createUser(t);
    await pay(other, creator);
    await t.jobs.drain();
    const none = await t.call('message.conversation', { user: creator.username }, { token: other.token });
    expect(none.body.messages).toEqual([]);
  });
});
