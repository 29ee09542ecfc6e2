import {
  SALE_CATEGORIES,
  STATISTICS_PERIOD_MONTHS,
  STATISTICS_PERIODS,
  type StatisticsPeriod,
} from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { makeCreator } from '../../payments/money.testkit.ts';

/**
 * Every statistics page against sums of the ledger, on a store filled through the real money paths
 * (sandbox checkouts and postbacks, tips, gifts, unlocks, refunds, chargebacks) over fourteen months
 * of a moving clock. The expectations are computed here from the raw ledger rows, in JavaScript:
 * categories from each transfer's kind (a reversal from the sale it reverses), days in Bogotá time.
 */

const TZ_OFFSET_MS = -5 * 3_600_000; // America/Bogota: UTC−5 all year
// 22:00 in Bogotá on 14 March is already 15 March in UTC: days must follow the configured zone.
const NOW = new Date('2026-03-15T03:00:00Z');
const DAY = 86_400_000;

let clock = NOW;
let t: TestApp;
let admin: Awaited<ReturnType<typeof createUser>>;
type Person = Awaited<ReturnType<typeof createUser>>;
const creators: Person[] = [];
const fans: Person[] = [];

interface Transfer {
  id: string;
  kind: string;
  creatorId: string | null;
  userId: string | null;
  postId: string | null;
  amount: number;
  credits: number;
  relatedId: string | null;
  at: Date;
}

const localDay = (at: Date) => new Date(at.getTime() + TZ_OFFSET_MS).toISOString().slice(0, 10);

/** Local midnight `months` months before NOW (NOW's local day is ≤ 28: no month-end clamping). */
function periodStart(period: StatisticsPeriod): number {
  const months = STATISTICS_PERIOD_MONTHS[period];
  if (months === null) return Number.NEGATIVE_INFINITY;
  const local = new Date(NOW.getTime() + TZ_OFFSET_MS);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - months, local.getUTCDate()) - TZ_OFFSET_MS;
}

const KIND_CATEGORY: Record<string, string> = {
  subscription: 'subscriptions',
  unlock: 'content',
  message_unlock: 'content',
  gift: 'gifts',
  flowers: 'flowers',
  tip: 'tips',
  credits_purchase: 'dollars',
};

async function query(q: string) {
  return t.database.session((exec) => exec(q));
}

async function transfers(): Promise<(Transfer & { category: string | undefined })[]> {
  const rows = await query(`SELECT id, kind, creator_id, user_id, post_id, amount_cents, credits, related_id,
      created_at FROM ledger_transactions`);
  const all: Transfer[] = rows.map((r) => ({
    id: String(r.id),
    kind: String(r.kind),
    creatorId: (r.creator_id as string | null) ?? null,
    userId: (r.user_id as string | null) ?? null,
    postId: (r.post_id as string | null) ?? null,
    amount: Number(r.amount_cents),
    credits: Number(r.credits),
    relatedId: (r.related_id as string | null) ?? null,
    at: new Date(r.created_at as string),
  }));
  const byId = new Map(all.map((x) => [x.id, x]));
  return all.map((x) => ({
    ...x,
    category:
      x.kind === 'refund' || x.kind === 'chargeback'
        ? KIND_CATEGORY[byId.get(x.relatedId ?? '')?.kind ?? '']
        : KIND_CATEGORY[x.kind],
  }));
}

/** Pays a hosted checkout on the sandbox page, as the fan's browser does. */
async function pay(redirectUrl: string) {
  const q = new URL(redirectUrl, 'http://x').searchParams;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/sandbox/pay',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `checkout=${q.get('checkout')}&sig=${q.get('sig')}&decision=approve`,
  });
  if (res.statusCode !== 303) throw new Error(`sandbox pay answered ${res.statusCode}`);
}

async function ok(res: Promise<{ status: number; body: unknown }>) {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  t = await createTestApp({ TIMEZONE: 'America/Bogota' }, { now: () => clock });
  admin = await createUser(t, { roles: ['admin', 'user'] });
  for (const price of ['9.99', '4.99', '12.50']) creators.push(await makeCreator(t, price));
  for (let i = 0; i < 10; i++) fans.push(await createUser(t));
  const ppv: string[] = [];
  for (const c of creators)
    ppv.push(await createPost(t, c, { visibility: 'ppv', price: 15 }, { moderator: admin }));

  let seed = 20260315;
  const rand = (n: number) => {
    seed = (seed * 48271) % 2147483647;
    return seed % n;
  };
  // Sorted moments over the fourteen months before NOW, some on the very last local evening.
  const moments = Array.from({ length: 260 }, () => NOW.getTime() - rand(425) * DAY - rand(DAY)).sort();
  moments.push(NOW.getTime() - 60_000, NOW.getTime() - 4 * 3_600_000);
  const unlocked = new Set<string>();
  const subscribed = new Set<string>();
  const refundable: { fan: Person; purchase: string }[] = [];
  for (const [i, at] of moments.entries()) {
    clock = new Date(at);
    const fan = fans[rand(fans.length)]!;
    const c = rand(creators.length);
    const creator = creators[c]!;
    const op = i < fans.length ? 0 : rand(10);
    if (op === 0) {
      const { redirectUrl } = (await ok(
        t.call('checkout.credits', { bag: 'bag-250' }, { token: fan.token }),
      )) as {
        redirectUrl: string;
      };
      await pay(redirectUrl);
    } else if (op === 1 && !subscribed.has(`${fan.id}:${creator.id}`)) {
      subscribed.add(`${fan.id}:${creator.id}`);
      const { redirectUrl } = (await ok(
        t.call('checkout.subscription', { creator: creator.username }, { token: fan.token }),
      )) as { redirectUrl: string };
      await pay(redirectUrl);
      const sub = await t.services.moneyStore.subscriptions.find(fan.id, creator.id);
      if (sub?.purchaseId) refundable.push({ fan, purchase: sub.purchaseId });
    } else if (op === 2 && refundable.length) {
      const { fan: buyer, purchase } = refundable.splice(rand(refundable.length), 1)[0]!;
      await ok(
        t.call(
          'payments.sandboxSimulate',
          { purchase, event: rand(2) ? 'refund' : 'chargeback', at: clock.toISOString() },
          { token: buyer.token },
        ),
      );
    } else if (op === 3 && !unlocked.has(`${fan.id}:${ppv[c]}`)) {
      unlocked.add(`${fan.id}:${ppv[c]}`);
      await t.call('posts.unlock', undefined, { token: fan.token, params: { id: ppv[c]! } });
    } else if (op <= 6) {
      await t.call('tips.send', { creator: creator.username, credits: 1 + rand(9) }, { token: fan.token });
    } else {
      const kind = rand(2) ? 'flowers' : 'gift';
      await t.call('gifts.send', { creator: creator.username, kind }, { token: fan.token });
    }
  }
  clock = NOW;
}, 600_000);
afterAll(() => t.stop());

const admins = (page: string, period: StatisticsPeriod, extra: Record<string, unknown> = {}) =>
  t.call('admin.statistics', { period, limit: 100, ...extra }, { token: admin.token, params: { id: page } });

function sum<T>(items: T[], value: (x: T) => number) {
  return items.reduce((a, x) => a + value(x), 0);
}

describe('statistics equal the ledger', () => {
  it('the store holds hundreds of sales, some reversed, over more than a year', async () => {
    const all = (await transfers()).filter((x) => x.category);
    expect(all.length).toBeGreaterThan(200);
    expect(all.some((x) => x.kind === 'refund' || x.kind === 'chargeback')).toBe(true);
    expect(Math.min(...all.map((x) => x.at.getTime()))).toBeLessThan(NOW.getTime() - 365 * DAY);
  });

  it.each(STATISTICS_PERIODS)('sales and home pages, %s: every day and total by category', async (period) => {
    const sales = (await transfers()).filter((x) => x.category && x.at.getTime() >= periodStart(period));
    const days = new Map<string, Record<string, number>>();
    for (const x of sales) {
      const d = days.get(localDay(x.at)) ?? Object.fromEntries(SALE_CATEGORIES.map((c) => [c, 0]));
      d[x.category!]! += x.amount;
      days.set(localDay(x.at), d);
    }
    const expected = [...days.entries()]
      .sort(([a], [b]) => b.localeCompare(a))
      .map(([date, d]) => ({ date, ...d }));
    const page = (await admins('sales', period)).body;
    expect(page.items).toEqual(expected);
    for (const c of SALE_CATEGORIES)
      expect(page.statistics.totals[c], c).toBe(
        sum(
          sales.filter((x) => x.category === c),
          (x) => x.amount,
        ),
      );
    expect(page.statistics.totals.cash).toBe(
      sum(
        sales.filter((x) => x.category === 'subscriptions' || x.category === 'dollars'),
        (x) => x.amount,
      ),
    );

    const revenue = await query(`SELECT e.amount, t.created_at FROM ledger_entries e
      JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.account = 'platform:revenue' AND e.currency = 'cents'`);
    const inPeriod = revenue.filter((r) => new Date(r.created_at as string).getTime() >= periodStart(period));
    const home = (await admins('home', period)).body;
    expect(home.statistics.totals.revenue).toBe(sum(inPeriod, (r) => Number(r.amount)));
    expect(sum(home.items, (i) => Number(i.sales))).toBe(page.statistics.totals.cash);
    for (const item of home.items) {
      const day = String(item.date);
      expect(item.revenue, day).toBe(
        sum(
          inPeriod.filter((r) => localDay(new Date(r.created_at as string)) === day),
          (r) => Number(r.amount),
        ),
      );
    }
  });

  it.each(STATISTICS_PERIODS)('creators and sales by creator, %s', async (period) => {
    const sales = (await transfers()).filter((x) => x.category && x.at.getTime() >= periodStart(period));
    const earnings = await query(`SELECT e.account, e.amount, t.created_at FROM ledger_entries e
      JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.account LIKE 'creator:%' AND e.currency = 'cents' AND t.kind <> 'payout'`);
    const page = (await admins('creators', period)).body;
    const byCreator = (await admins('salesByCreator', period)).body;
    for (const c of creators) {
      const own = sales.filter((x) => x.creatorId === c.id);
      const row = page.items.find((i) => i.creator === c.username)!;
      expect(row.sales, c.username).toBe(sum(own, (x) => x.amount));
      expect(row.earnings, c.username).toBe(
        sum(
          earnings.filter(
            (e) =>
              e.account === `creator:${c.id}` &&
              new Date(e.created_at as string).getTime() >= periodStart(period),
          ),
          (e) => Number(e.amount),
        ),
      );
      expect(row.posts).toBe(1);
      const split = byCreator.items.find((i) => i.creator === c.username)!;
      for (const cat of SALE_CATEGORIES.filter((x) => x !== 'dollars'))
        expect(split[cat], `${c.username} ${cat}`).toBe(
          sum(
            own.filter((x) => x.category === cat),
            (x) => x.amount,
          ),
        );
      expect(split.total).toBe(row.sales);
    }
    expect(page.statistics.total).toBe(page.items.length);
  });

  it.each(STATISTICS_PERIODS)('fans and credit bags, %s', async (period) => {
    const sales = (await transfers()).filter((x) => x.category && x.at.getTime() >= periodStart(period));
    const page = (await admins('fans', period)).body;
    for (const f of fans) {
      const own = sales.filter((x) => x.userId === f.id);
      const row = page.items.find((i) => i.fan === f.username)!;
      expect(row.spent, f.username).toBe(
        sum(
          own.filter((x) => ['content', 'gifts', 'flowers', 'tips'].includes(x.category!)),
          (x) => x.amount,
        ),
      );
      expect(row.paid, f.username).toBe(
        sum(
          own.filter((x) => ['dollars', 'subscriptions'].includes(x.category!)),
          (x) => x.amount,
        ),
      );
    }
    const bags = (await admins('bags', period)).body;
    const bag = bags.items.find((b) => b.credits === 250)!;
    expect(bag.sold).toBe(sales.filter((x) => x.kind === 'credits_purchase').length);
    expect(bag.amount).toBe(
      sum(
        sales.filter((x) => x.category === 'dollars'),
        (x) => x.amount,
      ),
    );
  });

  it('pages through creators and fans with the same totals', async () => {
    const first = (await admins('fans', 'all', { limit: 4, page: 1 })).body;
    const third = (await admins('fans', 'all', { limit: 4, page: 3 })).body;
    const beyond = (await admins('fans', 'all', { limit: 4, page: 9 })).body;
    expect(first.items).toHaveLength(4);
    expect(third.statistics.total).toBe(first.statistics.total);
    expect(beyond.items).toEqual([]);
    expect(beyond.statistics.total).toBe(first.statistics.total);
    expect(first.statistics.total).toBeGreaterThanOrEqual(fans.length);
  });

  it.each(STATISTICS_PERIODS)("a creator's own statistics, %s", async (period) => {
    const sales = (await transfers()).filter((x) => x.category && x.at.getTime() >= periodStart(period));
    for (const c of creators) {
      const own = sales.filter((x) => x.creatorId === c.id);
      const res = (await t.call('creator.statistics', { period }, { token: c.token })).body;
      const days = new Map<string, number>();
      for (const x of own) days.set(localDay(x.at), (days.get(localDay(x.at)) ?? 0) + x.amount);
      expect(res.series).toEqual(
        [...days.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([date, amount]) => ({ date, amount })),
      );
      const postEarnings = await query(`SELECT e.amount, t.post_id, t.created_at FROM ledger_entries e
        JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE e.account = 'creator:${c.id}' AND e.currency = 'cents' AND t.post_id IS NOT NULL`);
      const [post] = res.topPosts;
      expect(post).toBeDefined();
      expect(post!.earnings).toBe(
        sum(
          postEarnings.filter(
            (e) =>
              e.post_id === post!._id && new Date(e.created_at as string).getTime() >= periodStart(period),
          ),
          (e) => Number(e.amount),
        ),
      );
      const [unlocks] = await query(`SELECT count(*)::int AS n FROM unlocks WHERE post_id = '${post!._id}'`);
      expect(post!.unlocks).toBe(Number(unlocks?.n));
    }
  });
});
