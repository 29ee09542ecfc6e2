import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { RENEWAL_NOTICES } from '../../payments/money.jobs.ts';
import { ledgerHealth, makeCreator, postback } from '../../payments/money.testkit.ts';
import { approvalFields } from '../billing/billing.service.ts';

const DAY = 86_400_000;
// The app's clock: the tests move it (AppOptions.now).
let clock = new Date();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ EARNINGS_HOLD_DAYS: '0' }, { now: () => clock });
});
afterAll(async () => {
  await t?.stop();
});

/** Starts a subscription checkout and approves it through a signed sandbox postback. */
async function subscribeVia(fan: { token: string }, creator: { username: string }, lang: 'en' | 'es' = 'en') {
  const res = await t.call(
    'checkout.subscription',
    { creator: creator.username },
    { token: fan.token, lang },
  );
  expect(res.status).toBe(200);
  const checkout = await t.services.moneyStore.billing.checkout(res.body.checkout);
  if (!checkout) throw new Error('no checkout');
  return approvalFields(checkout, clock);
}

async function mails(to: string) {
  return (await t.call('dev.outbox', { to })).body.mails;
}

describe('two subscription checkouts at once', () => {
  it('only one of two simultaneous approved checkouts is charged; the other is declined', async () => {
    const creator = await makeCreator(t, '10');
    const fan = await createUser(t);
    // Two tabs: both checkouts are opened before either is paid.
    const a = await subscribeVia(fan, creator);
    const b = await subscribeVia(fan, creator);
    const statuses = await Promise.all([
      postback(t, t.services.billing.signSandbox(a)),
      postback(t, t.services.billing.signSandbox(b)),
    ]);
    expect(statuses.sort()).toEqual([200, 400]);
    const sales = await t.database.session((exec) =>
      exec(
        `SELECT count(*)::int AS n FROM ledger_transactions WHERE user_id = '${fan.id}' AND kind = 'subscription'`,
      ),
    );
    expect(sales[0]?.n).toBe(1);
    const mine = await t.call('subscriptions.mine', undefined, { token: fan.token });
    expect(mine.body.items).toHaveLength(1);
    // One paid period, not two.
    const end = Date.parse(mine.body.items[0]?.period.end ?? '');
    expect(end - clock.getTime()).toBeLessThanOrEqual(31 * DAY);
    const checkouts = await t.database.session((exec) =>
      exec(`SELECT status FROM checkouts WHERE user_id = '${fan.id}' ORDER BY status`),
    );
    expect(checkouts.map((c) => c.status)).toEqual(['completed', 'declined']);
    expect((await ledgerHealth(t)).totals.cents ?? 0).toBe(0);
  });
});

describe('honest billing', () => {
  it('shows the next charge, mails 7 days before the renewal with a one-click cancel, keeps access to the end', async () => {
    const start = clock;
    const creator = await makeCreator(t, '9.99');
    const fan = await createUser(t, { language: 'es' });
    expect(await postback(t, t.services.billing.signSandbox(await subscribeVia(fan, creator, 'es')))).toBe(
      200,
    );
    const [item] = (await t.call('subscriptions.mine', undefined, { token: fan.token })).body.items;
    expect(item?.nextCharge).toEqual({ at: item?.period.end, amountCents: 999 });
    const periodEnd = Date.parse(item?.period.end ?? '');

    // A receipt for the first charge, in the fan's language.
    await t.jobs.drain();
    const receipts = (await mails(fan.email)).filter((m) => m.subject.includes('Recibo'));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toContain('$9.99');
    expect(receipts[0]?.text).toContain(`@${creator.username}`);

    // 8 days before the renewal: no mail yet.
    clock = new Date(periodEnd - 8 * DAY);
    await t.jobs.send(RENEWAL_NOTICES, {});
    await t.jobs.drain();
    const renewalMails = async () => (await mails(fan.email)).filter((m) => m.subject.includes('se renueva'));
    expect(await renewalMails()).toHaveLength(0);

    // 7 days before (minus an hour of cron slack): one mail, in Spanish, with the amount, date and a cancel link.
    clock = new Date(periodEnd - 7 * DAY + 3_600_000);
    await t.jobs.send(RENEWAL_NOTICES, {});
    await t.jobs.drain();
    await t.jobs.send(RENEWAL_NOTICES, {});
    await t.jobs.drain();
    const sent = await renewalMails();
    expect(sent).toHaveLength(1);
    const text = sent[0]?.text ?? '';
    expect(text).toContain('$9.99');
    expect(text).toContain(`@${creator.username}`);
    const link = /https?:\/\/\S+\/billing\/cancel\?token=(\S+)/.exec(text);
    expect(link).toBeTruthy();
    const token = decodeURIComponent(link?.[1] ?? '');

    // The link shows what it cancels without signing in; a tampered token is refused in the caller's language.
    const preview = await t.call('subscriptions.cancelLink', { token });
    expect(preview.body).toMatchObject({ creator: creator.username, status: 'active' });
    const bad = await t.call(
      'subscriptions.cancelByLink',
      { token: `${token.slice(0, -2)}xx` },
      { lang: 'es' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('CANCEL_LINK_INVALID');
    expect(bad.body.message).toContain('enlace');

    // One click: cancelled, no questions, access until the paid period ends, no next charge.
    const done = await t.call('subscriptions.cancelByLink', { token });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'cancelled', nextCharge: null });
    expect(Date.parse(done.body.periodEnd)).toBe(periodEnd);
    const again = await t.call('subscriptions.cancelByLink', { token });
    expect(again.body.status).toBe('cancelled');
    const [after] = (await t.call('subscriptions.mine', undefined, { token: fan.token })).body.items;
    expect(after).toMatchObject({ status: 'cancelled', nextCharge: null });

    // A cancelled subscription gets no further renewal mail.
    clock = new Date(periodEnd - 2 * DAY);
    await t.jobs.send(RENEWAL_NOTICES, {});
    await t.jobs.drain();
    expect(await renewalMails()).toHaveLength(1);
    clock = start;
  });

  it('a renewal charge gets its own receipt and moves the next charge; the next period gets its own notice', async () => {
    const creator = await makeCreator(t, '5');
    const fan = await createUser(t);
    const fields = await subscribeVia(fan, creator);
    expect(await postback(t, t.services.billing.signSandbox(fields))).toBe(200);
    const renewAt = new Date(clock.getTime() + 30 * DAY);
    const sim = await t.call(
      'payments.sandboxSimulate',
      { purchase: fields.purchaseid, event: 'renewal', at: renewAt.toISOString() },
      { token: fan.token },
    );
    expect(sim.body.status).toBe(200);
    await t.jobs.drain();
    const receipts = (await mails(fan.email)).filter((m) => m.subject.includes('Receipt'));
    expect(receipts).toHaveLength(2);
    const [item] = (await t.call('subscriptions.mine', undefined, { token: fan.token })).body.items;
    expect(item?.nextCharge?.amountCents).toBe(500);
    expect(Date.parse(item?.nextCharge?.at ?? '')).toBe(renewAt.getTime() + 30 * DAY);
    expect((await ledgerHealth(t)).totals.cents ?? 0).toBe(0);
  });

  it('a cancel link is for one subscription only and cannot be forged from another purpose', async () => {
    const links = t.services.subscriptions.cancelLinks;
    const token = links.sign('00000000-0000-4000-8000-000000000000', clock);
    expect(links.verify(token, clock)).toBe('00000000-0000-4000-8000-000000000000');
    // Expired after its validity.
    expect(links.verify(token, new Date(clock.getTime() + 60 * DAY))).toBeNull();
    // The token of another signed purpose (same secret) is not a cancel link.
    expect(links.verify('eyJ4IjoxfQ.abc', clock)).toBeNull();
    const res = await t.call('subscriptions.cancelLink', { token: 'not-a-token-at-all' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('CANCEL_LINK_INVALID');
  });
});

describe('renewal and cancel rates', () => {
  it('the super sees renewal and cancel rates on the statistics home; a fan and a creator may not', async () => {
    const admin = await createUser(t, { roles: ['user', 'super'] });
    const fan = await createUser(t);
    const creator = await makeCreator(t);
    const before = (
      await t.call('admin.statistics', { period: 'year' }, { token: admin.token, params: { id: 'home' } })
    ).body.statistics.totals;
    // One more cancellation over one more subscription.
    expect(await postback(t, t.services.billing.signSandbox(await subscribeVia(fan, creator)))).toBe(200);
    await t.call('subscriptions.cancel', undefined, {
      token: fan.token,
      params: { creator: creator.username },
    });
    const res = await t.call(
      'admin.statistics',
      { period: 'year' },
      { token: admin.token, params: { id: 'home' } },
    );
    expect(res.status).toBe(200);
    const totals = res.body.statistics.totals;
    expect(totals.cancellations).toBe((before.cancellations ?? 0) + 1);
    expect(totals.renewals).toBeGreaterThanOrEqual(1);
    expect(totals.renewalRate).toBeGreaterThan(0);
    expect(totals.renewalRate).toBeLessThanOrEqual(100);
    expect(totals.cancelRate).toBeGreaterThan(0);
    expect(totals.cancelRate).toBeLessThanOrEqual(100);
    for (const who of [fan, creator]) {
      const denied = await t.call(
        'admin.statistics',
        { period: 'year' },
        { token: who.token, params: { id: 'home' } },
      );
      expect(denied.status).toBe(403);
    }
  });
});
