import { randomUUID } from 'node:crypto';
import type { FeatureSwitch } from '@fanverse/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signupInput } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { jpeg, postForm } from '../../../test/media-fixtures.ts';
import { buyCredits, ledgerHealth, makeCreator, postback } from '../../payments/money.testkit.ts';

type U = Awaited<ReturnType<typeof createUser>>;

let t: TestApp;
let base: string;
let superAdmin: U;
beforeAll(async () => {
  t = await createTestApp({ EARNINGS_HOLD_DAYS: '7', PAYOUT_PERIOD: 'weekly' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  superAdmin = await createUser(t, { roles: ['user', 'super'] });
});
afterAll(() => t.stop());

const ALL_ON = {
  signups: true,
  creatorApplications: true,
  tips: true,
  giftsAndFlowers: true,
  paidMessages: true,
};
afterEach(async () => {
  // Every test starts from the configuration's defaults with every switch on.
  await t.call(
    'admin.updateSettings',
    { payoutPeriod: 'weekly', holdDays: 7, features: ALL_ON, giftCosts: { flowers: 10, gift: 50 } },
    { token: superAdmin.token },
  );
});

const update = (input: Record<string, unknown>, token = superAdmin.token, lang?: 'en' | 'es') =>
  t.call('admin.updateSettings', input as never, { token, lang });
const switchOff = async (feature: FeatureSwitch) => {
  const res = await update({ features: { [feature]: false } });
  expect(res.status).toBe(200);
  expect(res.body.features[feature]).toBe(false);
};

/** A fan with 250 credits bought through a real (sandbox) postback. */
async function fanWithCredits(): Promise<U> {
  const fan = await createUser(t);
  expect(await postback(t, await buyCredits(t, fan, 'bag-250'))).toBe(200);
  return fan;
}

describe('platform settings (super dashboard)', () => {
  it('starts from the configuration: weekly, 7 days, every switch on, and the server settings read-only', async () => {
    const res = await t.call('admin.settings', undefined, { token: superAdmin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      payoutPeriod: 'weekly',
      holdDays: 7,
      features: ALL_ON,
      giftCosts: { flowers: 10, gift: 50 },
      allStaffTwoFactor: false,
      server: { paymentProvider: 'sandbox', devOutbox: expect.any(Boolean), sandboxControls: true },
    });
  });

  it('only a super reads or changes them: admin, coord, creator, fan and visitor are refused', async () => {
    const callers = [
      await createUser(t, { roles: ['user', 'admin'] }),
      await createUser(t, { roles: ['user', 'coord'] }),
      await createUser(t, { roles: ['user', 'creator'], verified: true }),
      await createUser(t),
    ];
    for (const caller of callers) {
      expect((await t.call('admin.settings', undefined, { token: caller.token })).status).toBe(403);
      expect((await update({ holdDays: 1 }, caller.token)).status).toBe(403);
    }
    expect((await t.call('admin.settings')).status).toBe(401);
    expect((await t.call('admin.updateSettings', { holdDays: 1 })).status).toBe(401);
    expect((await t.call('admin.settings', undefined, { token: superAdmin.token })).body.holdDays).toBe(7);
  });

  it.each([
    ['a holding time over 90 days', { holdDays: 91 }, 'holdDays', 'from 0 to 90', 'entre 0 y 90'],
    ['a negative holding time', { holdDays: -1 }, 'holdDays', 'from 0 to 90', 'entre 0 y 90'],
    ['a fractional holding time', { holdDays: 1.5 }, 'holdDays', 'from 0 to 90', 'entre 0 y 90'],
    ['an unknown payout period', { payoutPeriod: 'monthly' }, 'payoutPeriod', 'not valid', 'no es válido'],
    [
      'flowers for 0 credits',
      { giftCosts: { flowers: 0 } },
      'giftCosts.flowers',
      'from 1 to 10,000',
      'entre 1 y',
    ],
    [
      'a gift over 10,000 credits',
      { giftCosts: { gift: 10_001 } },
      'giftCosts.gift',
      'from 1 to 10,000',
      'entre 1 y',
    ],
  ])('refuses %s in the caller’s language and changes nothing', async (_l, input, field, en, es) => {
    const res = await update(input);
    expect(res.status).toBe(400);
    expect(res.body.fields?.[field]).toContain(en);
    expect((await update(input, superAdmin.token, 'es')).body.fields?.[field]).toContain(es);
    const now = await t.call('admin.settings', undefined, { token: superAdmin.token });
    expect(now.body).toMatchObject({ payoutPeriod: 'weekly', holdDays: 7 });
  });

  it('a change is logged with who made it and what changed', async () => {
    const res = await update({ payoutPeriod: '15days', holdDays: 3, features: { tips: false } });
    expect(res.body).toMatchObject({
      payoutPeriod: '15days',
      holdDays: 3,
      features: { ...ALL_ON, tips: false },
    });
    const rows = await t.database.session((exec) =>
      exec(
        `SELECT admin_id, action, details FROM admin_actions WHERE action = 'settings.update' ORDER BY created_at DESC LIMIT 1`,
      ),
    );
    expect(rows[0]).toMatchObject({ admin_id: superAdmin.id, action: 'settings.update' });
    expect(rows[0]?.details).toEqual({
      payoutPeriod: { from: 'weekly', to: '15days' },
      holdDays: { from: 7, to: 3 },
      'features.tips': { from: true, to: false },
    });
  });

  it('the payout period reaches the creator’s earnings and the start-up data', async () => {
    const creator = await makeCreator(t);
    await update({ payoutPeriod: '15days', holdDays: 2 });
    const earnings = await t.call('creator.earnings', {}, { token: creator.token });
    expect(earnings.body.payoutPeriod).toBe('15days');
    const day = new Date(earnings.body.nextPayoutDate).getUTCDate();
    expect([1, 16]).toContain(day);
    const home = await t.call('home.get', {});
    expect(home.body.features).toMatchObject({ payoutPeriod: '15days', earningsHoldDays: 2 });
    expect(home.body.features.switches).toEqual(ALL_ON);
  });

  it('the holding time decides when a new sale becomes available for payout', async () => {
    const creator = await makeCreator(t);
    const fan = await fanWithCredits();
    const balance = async () => (await t.call('creator.earnings', {}, { token: creator.token })).body.balance;

    await t.call('tips.send', { creator: creator.username, credits: 10 }, { token: fan.token });
    expect(await balance()).toEqual({ pending: 80, available: 0, total: 80 });

    await update({ holdDays: 0 });
    await t.call('tips.send', { creator: creator.username, credits: 10 }, { token: fan.token });
    // The earlier sale keeps its 7 days; the new one is available at once.
    expect(await balance()).toEqual({ pending: 80, available: 80, total: 160 });
    expect((await ledgerHealth(t)).totals.cents).toBe(0);
  });
});

describe('gift prices', () => {
  it('a new price of flowers and of a gift is what the next one costs, and what the app shows', async () => {
    const creator = await makeCreator(t);
    const fan = await fanWithCredits();
    const res = await update({ giftCosts: { flowers: 15, gift: 40 } });
    expect(res.body.giftCosts).toEqual({ flowers: 15, gift: 40 });
    expect((await t.call('home.get', {})).body.features.giftCosts).toEqual({ flowers: 15, gift: 40 });
    const flowers = await t.call(
      'gifts.send',
      { creator: creator.username, kind: 'flowers' },
      { token: fan.token },
    );
    expect(flowers.body).toMatchObject({ charged: 15, credits: 235 });
    const gift = await t.call(
      'gifts.send',
      { creator: creator.username, kind: 'gift' },
      { token: fan.token },
    );
    expect(gift.body).toMatchObject({ charged: 40, credits: 195 });
    expect((await ledgerHealth(t)).totals.cents).toBe(0);
  });
});

describe('feature switches', () => {
  it('sign-ups: a visitor cannot create an account while paused (both languages), and can again after', async () => {
    await switchOff('signups');
    const input = signupInput();
    const res = await t.call('auth.signup', input);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'SIGNUPS_PAUSED', message: expect.stringContaining('paused') });
    expect((await t.call('auth.signup', signupInput(), { lang: 'es' })).body.message).toContain('en pausa');
    expect((await t.call('home.get', {})).body.features.switches.signups).toBe(false);
    await update({ features: { signups: true } });
    expect((await t.call('auth.signup', input)).status).toBe(200);
  });

  it('creator applications: no step is accepted while paused; the state can still be read', async () => {
    const fan = await createUser(t);
    await switchOff('creatorApplications');
    const res = await t.call('creator.apply', { step: '2', acceptCreatorTerms: true }, { token: fan.token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('APPLICATIONS_PAUSED');
    expect((await t.call('creator.applyState', undefined, { token: fan.token })).status).toBe(200);
  });

  it('tips: refused while paused and no credit moves; flowers still work', async () => {
    const creator = await makeCreator(t);
    const fan = await fanWithCredits();
    await switchOff('tips');
    const tip = await t.call('tips.send', { creator: creator.username, credits: 10 }, { token: fan.token });
    expect(tip.status).toBe(403);
    expect(tip.body.code).toBe('TIPS_PAUSED');
    expect((await t.call('wallet.get', undefined, { token: fan.token })).body.credits).toBe(250);
    const flowers = await t.call(
      'gifts.send',
      { creator: creator.username, kind: 'flowers' },
      { token: fan.token },
    );
    expect(flowers.status).toBe(200);
  });

  it('flowers and gifts: refused while paused and no credit moves; tips still work', async () => {
    const creator = await makeCreator(t);
    const fan = await fanWithCredits();
    await switchOff('giftsAndFlowers');
    for (const kind of ['flowers', 'gift'] as const) {
      const res = await t.call('gifts.send', { creator: creator.username, kind }, { token: fan.token });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('GIFTS_PAUSED');
    }
    expect((await t.call('wallet.get', undefined, { token: fan.token })).body.credits).toBe(250);
    expect(
      (await t.call('tips.send', { creator: creator.username, credits: 5 }, { token: fan.token })).status,
    ).toBe(200);
  });

  it('paid messages: a priced message is refused while paused; a free one with the same photo goes', async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const fan = await createUser(t);
    await switchOff('paidMessages');
    const form = (price: string) =>
      postForm(
        base,
        '/api/v1/message/send',
        creator.token,
        { to: fan.username, message: 'Exclusive', messageUUID: randomUUID(), price },
        [{ name: 'photo.jpg', data: photo }],
      );
    const photo = await jpeg();
    const paid = await form('25');
    expect(paid.status).toBe(403);
    expect(paid.body.code).toBe('PAID_MESSAGES_PAUSED');
    const mass = await postForm(
      base,
      '/api/v1/message/mass',
      creator.token,
      { message: 'For all', messageUUID: randomUUID(), price: '10' },
      [{ name: 'photo.jpg', data: photo }],
    );
    expect(mass.status).toBe(403);
    expect((await form('0')).status).toBe(200);
    const seen = await t.call('message.conversation', { user: creator.username }, { token: fan.token });
    expect(seen.body.messages).toHaveLength(1);
    expect(seen.body.messages[0]).toMatchObject({ price: 0 });
  });
});
