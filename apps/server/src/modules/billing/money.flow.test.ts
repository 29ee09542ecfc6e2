import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createPost, createUser, TEST_PASSWORD } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { buyCredits, ledgerHealth, makeCreator, postback } from '../../payments/money.testkit.ts';
import { EarningsService } from '../earnings/earnings.service.ts';
import { addDays, nextPayoutDate } from '../wallet/money.math.ts';

let t: TestApp;
let now = new Date();
beforeAll(async () => {
  t = await createTestApp({ EARNINGS_HOLD_DAYS: '0' }, { now: () => now });
});
afterAll(async () => {
  await t?.stop();
});

describe('credits', () => {
  it('lists the three credit bags', async () => {
    const res = await t.call('credits.bags');
    expect(res.status).toBe(200);
    expect(res.body.bags.map((b) => b.credits)).toEqual([250, 150, 50]);
  });

  it('buys a bag through the sandbox page: approve credits the wallet once, success and decline go to my-credits', async () => {
    const fan = await createUser(t);
    // Asked from a Spanish page: the billing page is in Spanish too (its link carries the language).
    const res = await t.call('checkout.credits', { bag: 'bag-50' }, { token: fan.token, lang: 'es' });
    expect(res.status).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: res.body.redirectUrl });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('$5.00 USD');
    expect(page.body).toContain('Aprobar');
    expect(page.body).not.toContain('<script');
    const form = new URL(res.body.redirectUrl, 'http://x').searchParams;
    const approve = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/sandbox/pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `checkout=${form.get('checkout')}&sig=${form.get('sig')}&decision=approve`,
    });
    expect(approve.statusCode).toBe(303);
    expect(approve.headers.location).toBe('/?feed=my-credits&payment=approved');
    const wallet = await t.call('wallet.get', undefined, { token: fan.token });
    expect(wallet.body.credits).toBe(50);
    // Approving twice (double click) charges nothing more.
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/sandbox/pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `checkout=${form.get('checkout')}&sig=${form.get('sig')}&decision=approve`,
    });
    expect((await t.call('wallet.get', undefined, { token: fan.token })).body.credits).toBe(50);
    const history = await t.call('wallet.history', {}, { token: fan.token });
    expect(history.body.items[0]).toMatchObject({ kind: 'credits_purchase', credits: 50 });
  });

  it('a replayed postback answers success and changes nothing; a tampered one is refused', async () => {
    const fan = await createUser(t);
    const fields = await buyCredits(t, fan, 'bag-150');
    expect(await postback(t, fields)).toBe(200);
    expect(await postback(t, fields)).toBe(200);
    expect((await t.call('wallet.get', undefined, { token: fan.token })).body.credits).toBe(150);
    expect(await postback(t, { ...fields, amount: '0.01', tranid: 'other' })).toBe(400);
    expect(await postback(t, { ...fields, sig: 'f'.repeat(64) })).toBe(400);
    expect((await t.call('wallet.get', undefined, { token: fan.token })).body.credits).toBe(150);
  });

  it('refuses a postback whose amount does not match the pending checkout', async () => {
    const fan = await createUser(t);
    const res = await t.call('checkout.credits', { bag: 'bag-250' }, { token: fan.token });
    const fields = t.services.billing.signSandbox({
      event: 'credits_purchased',
      tranid: 'sbx-t-mismatch',
      purchaseid: 'sbx-p-mismatch',
      checkout: res.body.checkout,
      userid: fan.id,
      amount: '5.00',
      at: new Date().toISOString(),
    });
    expect(await postback(t, fields)).toBe(400);
    expect((await t.call('wallet.get', undefined, { token: fan.token })).body.credits).toBe(0);
  });

  it('grants the verified free credits once', async () => {
    const fan = await createUser(t, { verified: true });
    expect((await t.call('wallet.get', undefined, { token: fan.token })).body).toMatchObject({
      credits: 10,
      freeCreditsGranted: true,
    });
    expect((await t.call('wallet.get', undefined, { token: fan.token })).body.credits).toBe(10);
  });
});

describe('spending credits', () => {
  it('unlocks a pay-per-view post once at its discounted price, then shows the media', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    await buyCredits(t, fan);
    const postId = await createPost(t, creator, {
      visibility: 'ppv',
      price: 30,
      discountStatus: 'on',
      discountPercent: 50,
    });
    const first = await t.call('posts.unlock', undefined, { token: fan.token, params: { id: postId } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ credits: 35, charged: 15 });
    const again = await t.call('posts.unlock', undefined, { token: fan.token, params: { id: postId } });
    expect(again.body).toMatchObject({ credits: 35, charged: 0 });
    const bought = await t.call(
      'posts.list',
      { feed: 'my_content', content: 'bought' },
      { token: fan.token },
    );
    expect(bought.body.posts.map((p) => [p._id, p.access])).toEqual([[postId, true]]);
    // Lists that name the creator paid give the person (handle and name), never a bare id.
    const history = await t.call('wallet.history', {}, { token: fan.token });
    const unlock = history.body.items.find((i) => i.kind === 'unlock');
    expect(unlock?.creator).toMatchObject({ _id: creator.id, user: creator.username });
    expect(unlock?.creator?.name).toBeTruthy();
    expect(history.body.items.find((i) => i.kind === 'credits_purchase')?.creator).toBeNull();
    const transfers = await t.call('user.transactions', {}, { token: fan.token });
    expect(transfers.body.items.find((i) => i.type === 'unlock')?.creator?.user).toBe(creator.username);
  });

  it('refuses a spend above the balance and changes nothing', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    const postId = await createPost(t, creator, { visibility: 'ppv', price: 30 });
    const res = await t.call('posts.unlock', undefined, { token: fan.token, params: { id: postId } });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('INSUFFICIENT_CREDITS');
    const tip = await t.call('tips.send', { creator: creator.username, credits: 1 }, { token: fan.token });
    expect(tip.status).toBe(402);
    expect((await ledgerHealth(t)).mismatches).toEqual([]);
  });

  it('tips and sends flowers and gifts; the creator sees them in earnings and sales', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    await buyCredits(t, fan, 'bag-250');
    expect(
      (await t.call('tips.send', { creator: creator.username, credits: 20 }, { token: fan.token })).body
        .credits,
    ).toBe(230);
    expect(
      (await t.call('gifts.send', { creator: creator.username, kind: 'flowers' }, { token: fan.token })).body
        .credits,
    ).toBe(220);
    expect(
      (await t.call('gifts.send', { creator: creator.username, kind: 'gift' }, { token: fan.token })).body
        .credits,
    ).toBe(170);
    const earnings = await t.call('creator.earnings', { period: 'all' }, { token: creator.token });
    expect(earnings.status).toBe(200);
    // 20 credits × 10¢ = $2.00 tip → creator keeps 80%.
    expect(earnings.body.earnings.tips).toBe(160);
    expect(earnings.body.earnings.credits).toBe(80 + 400);
    expect(earnings.body.sales.flowers).toEqual({ count: 1, amount: 100 });
    expect(earnings.body.sales.gifts).toEqual({ count: 1, amount: 500 });
    expect(earnings.body.sales.dollars.amount).toBe(800);
    // The same earnings over time (one month bucket for 'all'), summing to the totals by category.
    expect(earnings.body.series.unit).toBe('month');
    const sum = (key: 'tips' | 'credits') => earnings.body.series.points.reduce((n, p) => n + p[key], 0);
    expect(sum('tips')).toBe(160);
    expect(sum('credits')).toBe(480);
    const month = await t.call('creator.earnings', { period: 'month' }, { token: creator.token });
    expect(month.body.series.unit).toBe('day');
    expect(month.body.series.points.at(-1)?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const notes = await t.call('notifications.list', {}, { token: creator.token });
    expect(JSON.stringify(notes.body)).toContain('tip');
  });

  it('unlocks a paid message once for its receiver only', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    const other = await createUser(t);
    await buyCredits(t, fan);
    const [msg] = await t.database.session((exec) =>
      exec(`INSERT INTO messages (message_uuid, from_id, to_id, message, price)
            VALUES ('paid-1', '${creator.id}', '${fan.id}', 'for you', 12) RETURNING id`),
    );
    const id = String(msg?.id);
    expect((await t.call('messages.unlock', undefined, { token: other.token, params: { id } })).status).toBe(
      404,
    );
    const first = await t.call('messages.unlock', undefined, { token: fan.token, params: { id } });
    expect(first.body).toMatchObject({ credits: 38, charged: 12 });
    const again = await t.call('messages.unlock', undefined, { token: fan.token, params: { id } });
    expect(again.body).toMatchObject({ credits: 38, charged: 0 });
    const [row] = await t.database.session((exec) =>
      exec(`SELECT count(*)::int AS n FROM message_unlocks WHERE message_id = '${id}'`),
    );
    expect(row?.n).toBe(1);
  });

  it('pays a referrer 5% of the referred creator sales out of the platform share', async () => {
    const referrer = await createUser(t);
    const creator = await makeCreator(t);
    await t.database.session((exec) =>
      exec(`UPDATE users SET referred_by = '${referrer.id}' WHERE id = '${creator.id}'`),
    );
    const fan = await createUser(t);
    await buyCredits(t, fan, 'bag-250');
    await t.call('tips.send', { creator: creator.username, credits: 100 }, { token: fan.token });
    const ledger = t.services.moneyStore.ledger;
    expect(await ledger.balance(`referral:${referrer.id}`, 'cents')).toBe(50);
    expect(await ledger.balance(`creator:${creator.id}`, 'cents')).toBe(800);

    // Once the referrer deletes their account, the platform keeps the referral share.
    const deleted = await t.call(
      'user.delete',
      { confirm: 'delete', password: TEST_PASSWORD },
      { token: referrer.token },
    );
    expect(deleted.status).toBe(200);
    const platformBefore = await ledger.balance('platform:revenue', 'cents');
    await t.call('tips.send', { creator: creator.username, credits: 100 }, { token: fan.token });
    expect(await ledger.balance(`referral:${referrer.id}`, 'cents')).toBe(50);
    expect(await ledger.balance(`creator:${creator.id}`, 'cents')).toBe(1600);
    expect((await ledger.balance('platform:revenue', 'cents')) - platformBefore).toBe(200);
  });
});

describe('subscriptions', () => {
  it('subscribes through the sandbox page, sees subscriber posts, cancels, renews, and a refund revokes access', async () => {
    const creator = await makeCreator(t, '9.99');
    const fan = await createUser(t);
    const postId = await createPost(t, creator, { visibility: 'subscribers' });
    expect((await t.call('posts.list', { post: postId }, { token: fan.token })).body.posts[0]?.access).toBe(
      false,
    );
    const res = await t.call('checkout.subscription', { creator: creator.username }, { token: fan.token });
    expect(res.status).toBe(200);
    const q = new URL(res.body.redirectUrl, 'http://x').searchParams;
    const page = await t.app.inject({ method: 'GET', url: res.body.redirectUrl });
    expect(page.body).toContain(`Subscribe to @${creator.username} for $9.99 monthly`);
    const approve = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/sandbox/pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `checkout=${q.get('checkout')}&sig=${q.get('sig')}&decision=approve`,
    });
    expect(approve.headers.location).toBe(`/${creator.username}?payment=approved`);
    const mine = await t.call('subscriptions.mine', undefined, { token: fan.token });
    expect(mine.body.items[0]).toMatchObject({ status: 'active', priceCents: 999 });
    expect(mine.body.items[0]?.DynamicPricingID).toBeTruthy();
    const access = async () =>
      (await t.call('posts.list', { post: postId }, { token: fan.token })).body.posts[0]?.access;
    expect(await access()).toBe(true);
    const subs = await t.call('creator.subscribers', { page: 1, limit: 10 }, { token: creator.token });
    expect(subs.body).toMatchObject({ page: 1, limit: 10, total: 1 });
    expect(subs.body.items[0]?.user.user).toBe(fan.username);
    // Credits are separate from subscriptions.
    expect((await t.call('wallet.get', undefined, { token: fan.token })).body.credits).toBe(0);

    const cancel = await t.call('subscriptions.cancel', undefined, {
      token: fan.token,
      params: { creator: creator.username },
    });
    expect(cancel.body.subscription.status).toBe('cancelled');
    const renew = await t.call('subscriptions.renew', undefined, {
      token: fan.token,
      params: { creator: creator.username },
    });
    expect(renew.body.subscription.status).toBe('active');
    expect(renew.body.redirectUrl).toBeUndefined();

    const purchase = (await t.services.moneyStore.subscriptions.find(fan.id, creator.id))?.purchaseId ?? '';
    const renewal = await t.call(
      'payments.sandboxSimulate',
      { purchase, event: 'renewal', at: new Date(Date.now() + 30 * 86_400_000).toISOString() },
      { token: fan.token },
    );
    expect(renewal.body.status).toBe(200);
    const renewed = await t.call('subscriptions.mine', undefined, { token: fan.token });
    expect(renewed.body.items[0]?.lastRenewal).toBeTruthy();
    const earnings = await t.call('creator.earnings', {}, { token: creator.token });
    expect(earnings.body.earnings.subscriptions).toBe(799 * 2);
    expect(earnings.body.sales.subscriptions.count).toBe(2);

    const refund = await t.call(
      'payments.sandboxSimulate',
      { purchase, event: 'refund' },
      { token: fan.token },
    );
    expect(refund.body.status).toBe(200);
    const after = await t.call('subscriptions.mine', undefined, { token: fan.token });
    expect(after.body.items[0]?.status).toBe('expired');
    expect(await access()).toBe(false);
    expect((await t.call('creator.earnings', {}, { token: creator.token })).body.earnings.subscriptions).toBe(
      799,
    );
    const health = await ledgerHealth(t);
    expect(health.totals.cents ?? 0).toBe(0);
  });

  it('the expiry job expires what was not renewed; session subscriptions carry DynamicPricingID', async () => {
    const creator = await makeCreator(t, '5');
    const fan = await createUser(t);
    const res = await t.call('checkout.subscription', { creator: creator.username }, { token: fan.token });
    const q = new URL(res.body.redirectUrl, 'http://x').searchParams;
    await t.services.billing.sandboxDecide(
      q.get('checkout') ?? '',
      q.get('sig') ?? '',
      true,
      async (_p, body) => postback(t, body),
    );
    const login = await t.call('auth.login', { login: fan.username, password: TEST_PASSWORD });
    expect(login.body.user.subscriptions).toEqual([
      { creator: creator.username, DynamicPricingID: expect.any(String) },
    ]);
    expect(await t.services.subscriptions.forSession(fan.id)).toEqual([
      { creator: creator.username, DynamicPricingID: expect.any(String) },
    ]);
    const saved = now;
    now = new Date(Date.now() + 40 * 86_400_000);
    try {
      expect(await t.services.subscriptions.expireDue()).toBeGreaterThanOrEqual(1);
    } finally {
      now = saved;
    }
    expect((await t.call('subscriptions.mine', undefined, { token: fan.token })).body.items[0]?.status).toBe(
      'expired',
    );
  });

  it('decline goes to my-credits and activates nothing', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    const res = await t.call('checkout.subscription', { creator: creator.username }, { token: fan.token });
    const q = new URL(res.body.redirectUrl, 'http://x').searchParams;
    const decline = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/sandbox/pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `checkout=${q.get('checkout')}&sig=${q.get('sig')}&decision=decline`,
    });
    expect(decline.headers.location).toBe(`/${creator.username}?payment=declined`);
    expect((await t.call('subscriptions.mine', undefined, { token: fan.token })).body.items).toEqual([]);
  });
});

describe('payouts', () => {
  it('batches available earnings, admin marks paid, the creator is told', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    await buyCredits(t, fan, 'bag-250');
    await t.call('tips.send', { creator: creator.username, credits: 100 }, { token: fan.token });
    const method = await t.call(
      'creator.setPayoutMethod',
      { kind: 'card', holder: 'Ana Pérez', cardNumber: '4111111111111111' },
      { token: creator.token },
    );
    expect(method.body.method).toEqual({ kind: 'card', masked: '•••• 1111' });
    now = new Date(Date.now() + 1000);
    expect(await t.services.earnings.runPayouts()).toBeGreaterThanOrEqual(1);
    expect(await t.services.earnings.runPayouts()).toBe(0);
    const admin = await createUser(t, { roles: ['user', 'admin'] as never });
    const list = await t.call('admin.payouts', { status: 'scheduled' }, { token: admin.token });
    const mine = list.body.items.find((p) => p.creator === creator.username);
    expect(mine).toMatchObject({ amount: 800, status: 'scheduled', method: '•••• 1111' });
    const paid = await t.call(
      'admin.payoutDecision',
      { status: 'paid' },
      { token: admin.token, params: { id: mine?._id ?? '' } },
    );
    expect(paid.body.payout.status).toBe('paid');
    const twice = await t.call(
      'admin.payoutDecision',
      { status: 'failed' },
      { token: admin.token, params: { id: mine?._id ?? '' } },
    );
    expect(twice.status).toBe(409);
    const earnings = await t.call('creator.earnings', {}, { token: creator.token });
    expect(earnings.body.balance).toMatchObject({ available: 0, total: 0 });
    expect(earnings.body.payouts[0]).toMatchObject({ amount: 800, status: 'paid' });
    expect((await ledgerHealth(t)).totals.cents).toBe(0);
  });

  it('with the 15-day period, one payout per creator and half-month batch', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    await buyCredits(t, fan, 'bag-250');
    const superAdmin = await createUser(t, { roles: ['user', 'super'] });
    const set = await t.call('admin.updateSettings', { payoutPeriod: '15days' }, { token: superAdmin.token });
    expect(set.body.payoutPeriod).toBe('15days');
    onTestFinished(async () => {
      await t.call('admin.updateSettings', { payoutPeriod: 'weekly' }, { token: superAdmin.token });
    });
    let at = addDays(nextPayoutDate(new Date(), '15days'), 1);
    const service = new EarningsService({
      store: t.services.moneyStore,
      config: t.config.money,
      terms: t.services.moneyTerms,
      notifications: t.services.notifications,
      now: () => at,
    });
    const payoutsOf = async () =>
      (await t.services.moneyStore.earnings.payoutsOf(creator.id)).map((p) => [p.batchKey, p.amountCents]);
    await t.call('tips.send', { creator: creator.username, credits: 10 }, { token: fan.token });
    await service.runPayouts();
    const first = await payoutsOf();
    expect(first).toHaveLength(1);
    await t.call('tips.send', { creator: creator.username, credits: 10 }, { token: fan.token });
    at = addDays(at, 3); // same half of the month: no second payout
    await service.runPayouts();
    expect(await payoutsOf()).toEqual(first);
    at = addDays(nextPayoutDate(at, '15days'), 1);
    await service.runPayouts();
    const all = await payoutsOf();
    expect(all).toHaveLength(2);
    expect(all.map((p) => p[1])).toEqual([80, 80]);
    expect(new Set(all.map((p) => p[0])).size).toBe(2);
  });

  it('admin sets the commission within range; the next sale follows it', async () => {
    const admin = await createUser(t, { roles: ['user', 'super'] as never });
    expect((await t.call('admin.setCommission', { percent: 60 }, { token: admin.token })).status).toBe(400);
    const set = await t.call('admin.setCommission', { percent: 30 }, { token: admin.token });
    expect(set.body).toMatchObject({ platformPercent: 30, creatorPercent: 70 });
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    await buyCredits(t, fan);
    await t.call('tips.send', { creator: creator.username, credits: 10 }, { token: fan.token });
    expect(await t.services.moneyStore.ledger.balance(`creator:${creator.id}`, 'cents')).toBe(70);
    await t.call('admin.setCommission', { percent: 20 }, { token: admin.token });
    const logged = await t.database.session((exec) =>
      exec(
        `SELECT admin_id, details FROM admin_actions WHERE action = 'commission.update' ORDER BY created_at`,
      ),
    );
    expect(logged.map((r) => r.details)).toEqual([
      { platformPercent: { from: 20, to: 30 } },
      { platformPercent: { from: 30, to: 20 } },
    ]);
    expect(logged.every((r) => r.admin_id === admin.id)).toBe(true);
  });
});

describe('admin credit bags', () => {
  it('an admin edits a bag price; fans cannot', async () => {
    const admin = await createUser(t, { roles: ['user', 'admin'] as never });
    const fan = await createUser(t);
    const bag = {
      id: 'bag-50',
      credits: 50,
      priceCents: 600,
      eticketid: '000000:5001',
      active: true,
      position: 3,
    };
    expect((await t.call('admin.saveCreditBag', bag, { token: fan.token })).status).toBe(403);
    const res = await t.call('admin.saveCreditBag', bag, { token: admin.token });
    expect(res.body.bags.find((b) => b.id === 'bag-50')).toMatchObject({
      priceCents: 600,
      eticketid: '000000:5001',
    });
    await t.call(
      'admin.saveCreditBag',
      { ...bag, priceCents: 500, eticketid: '000000:5000' },
      { token: admin.token },
    );
  });
});

describe('permissions', () => {
  it('refuses roles that may not call money endpoints', async () => {
    const fan = await createUser(t);
    expect((await t.call('wallet.get')).status).toBe(401);
    expect((await t.call('checkout.credits', { bag: 'bag-50' })).status).toBe(401);
    expect((await t.call('creator.subscribers', {}, { token: fan.token })).body).toEqual({
      items: [],
      page: 1,
      total: 0,
      limit: 10,
    });
    expect((await t.call('creator.earnings', {}, { token: fan.token })).status).toBe(403);
    expect((await t.call('creator.pricing', { price: '5' }, { token: fan.token })).status).toBe(403);
    expect((await t.call('admin.payouts', {}, { token: fan.token })).status).toBe(403);
    expect((await t.call('admin.setCommission', { percent: 20 }, { token: fan.token })).status).toBe(403);
    const creator = await makeCreator(t);
    expect((await t.call('admin.payouts', {}, { token: creator.token })).status).toBe(403);
    expect(
      (await t.call('tips.send', { creator: creator.username, credits: 1 }, { token: creator.token })).status,
    ).toBe(409);
    // A fan cannot fire sandbox events for someone else's purchase.
    const other = await createUser(t);
    const fields = await buyCredits(t, other);
    const res = await t.call(
      'payments.sandboxSimulate',
      { purchase: fields.purchaseid ?? '', event: 'refund' },
      { token: fan.token },
    );
    expect(res.status).toBe(404);
  });
});
