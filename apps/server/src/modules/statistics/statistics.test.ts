import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { buyCredits, makeCreator } from '../../payments/money.testkit.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { roles: ['admin', 'user'] });
});
afterAll(() => t.stop());

async function ledgerSum(where: string): Promise<number> {
  const rows = await t.database.session((exec) =>
    exec(`SELECT coalesce(sum(amount_cents), 0)::int AS n FROM ledger_transactions WHERE ${where}`),
  );
  return Number(rows[0]?.n ?? 0);
}

describe('statistics over a generated month of sales', () => {
  it('admin sales, creators and bags match the ledger; creator statistics match its share', async () => {
    const creators = [await makeCreator(t, '9.99'), await makeCreator(t, '4.99')];
    const posts: string[] = [];
    for (const c of creators)
      posts.push(await createPost(t, c, { visibility: 'ppv', price: 20 }, { moderator: admin }));
    const fans = [await createUser(t), await createUser(t), await createUser(t)];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (const fan of fans) {
      await buyCredits(t, fan, 'bag-250');
      for (let i = 0; i < 6; i++) {
        const c = creators[rand(2)]!;
        const op = rand(3);
        if (op === 0)
          await t.call('tips.send', { creator: c.username, credits: 5 + rand(20) }, { token: fan.token });
        else if (op === 1)
          await t.call(
            'gifts.send',
            { creator: c.username, kind: rand(2) ? 'flowers' : 'gift' },
            { token: fan.token },
          );
        else await t.call('posts.unlock', undefined, { token: fan.token, params: { id: posts[rand(2)]! } });
      }
    }
    const stats = await t.call(
      'admin.statistics',
      { period: 'month' },
      { token: admin.token, params: { id: 'sales' } },
    );
    expect(stats.status).toBe(200);
    const totals = stats.body.statistics.totals;
    expect(totals.dollars).toBe(await ledgerSum(`kind = 'credits_purchase'`));
    expect(totals.tips).toBe(await ledgerSum(`kind = 'tip'`));
    expect(totals.content).toBe(await ledgerSum(`kind IN ('unlock', 'message_unlock')`));
    expect(totals.gifts! + totals.flowers!).toBe(await ledgerSum(`kind IN ('gift', 'flowers')`));
    const dayTotal = stats.body.items.reduce((a, i) => a + Number(i.tips ?? 0), 0);
    expect(dayTotal).toBe(totals.tips);

    const byCreator = await t.call(
      'admin.statistics',
      { period: 'all', limit: 100 },
      { token: admin.token, params: { id: 'creators' } },
    );
    expect(byCreator.body.statistics.totalCreators).toBeGreaterThanOrEqual(2);
    for (const c of creators) {
      const row = byCreator.body.items.find((i) => i.creator === c.username)!;
      expect(row.sales).toBe(await ledgerSum(`creator_id = '${c.id}'`));
      const earnings = await t.call('creator.earnings', { period: 'all' }, { token: c.token });
      const e = earnings.body.earnings;
      expect(row.earnings).toBe(e.subscriptions + e.tips + e.unlockContent + e.credits);
      const own = await t.call('creator.statistics', { period: 'month' }, { token: c.token });
      expect(own.body.series.reduce((a, d) => a + d.amount, 0)).toBe(row.sales);
    }
    const bags = await t.call(
      'admin.statistics',
      { period: 'year' },
      { token: admin.token, params: { id: 'bags' } },
    );
    expect(bags.body.items.find((b) => b.credits === 250)?.sold).toBe(3);
    const home = await t.call(
      'admin.statistics',
      { period: 'all' },
      { token: admin.token, params: { id: 'home' } },
    );
    expect(home.body.statistics.totals.revenue).toBeGreaterThan(0);
  });

  it('answers every admin page, sorted by date both ways, only to moderators', async () => {
    const fan = await createUser(t);
    for (const page of ['home', 'sales', 'creators', 'bags', 'fans', 'users', 'salesByCreator'] as const) {
      const res = await t.call(
        'admin.statistics',
        { period: 'all', sort: 'asc' },
        { token: admin.token, params: { id: page } },
      );
      expect(res.status, page).toBe(200);
      expect(res.body.columns.length).toBeGreaterThan(1);
      expect((await t.call('admin.statistics', {}, { token: fan.token, params: { id: page } })).status).toBe(
        403,
      );
    }
    const asc = await t.call(
      'admin.statistics',
      { period: 'all', sort: 'asc' },
      { token: admin.token, params: { id: 'users' } },
    );
    const dates = asc.body.items.map((i) => String(i.date));
    expect(dates).toEqual([...dates].sort());
    expect(
      (await t.call('admin.statistics', {}, { token: admin.token, params: { id: 'nonsense' } })).status,
    ).toBe(404);
    expect((await t.call('creator.statistics', {}, { token: fan.token })).status).toBe(403);
  });
});
