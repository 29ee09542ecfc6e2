/**
 * npm run bench:statistics — the statistics pages over 10,000 sales on PostgreSQL (issue 12: each
 * page should answer in under 200 ms). Needs DATABASE_URL; creates its own database and drops it.
 *
 * The store is filled through the real money services (sandbox postbacks for credit bags and
 * subscriptions, wallet spends for tips, gifts, flowers and unlocks, sandbox refunds and
 * chargebacks) on a clock moved over fourteen months, so the ledger holds exactly what production
 * writes. Then every admin page and the creator page is called through HTTP, several times each.
 * Prints a table of median and p95 milliseconds. Numbers, not assertions.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_STATISTICS_PAGES, type Role } from '@fanverse/contract';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import type { AuthInfo } from '../apps/server/src/http/guards.ts';
import { hashPassword } from '../apps/server/src/lib/crypto.ts';
import { approvalFields } from '../apps/server/src/modules/billing/billing.service.ts';

const SALES = Number(process.env.BENCH_SALES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CREATORS = 60;
const FANS = 600;
const WORKERS = 4;
const DAY = 86_400_000;

async function main(): Promise<void> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('bench:statistics measures PostgreSQL: set DATABASE_URL');
  const name = `fv_bench_stats_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-bench-stats-'));
  const database = await openDatabase({ dataDir, databaseUrl: url.toString() });
  const now = new Date();
  let clock = now;
  try {
    await migrate(database);
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PORT: '0',
      DATABASE_URL: url.toString(),
    });
    const built = await buildApp({ config, database, logger: false, now: () => clock });
    const { services } = built;
    const passwordHash = await hashPassword('bench-password-1');
    const person = async (roles: Role[]): Promise<AuthInfo> => {
      const username = `b${randomBytes(5).toString('hex')}`;
      const user = await services.users.create({
        username,
        email: `${username}@example.com`,
        name: 'Bench Person',
        passwordHash,
        birthdate: '1990-01-01',
        roles,
        verified: roles.includes('creator'),
        language: 'en',
        referralCode: randomBytes(5).toString('hex'),
        referredBy: null,
      });
      return { userId: user.id, sessionId: 'bench', username, roles, verified: roles.includes('creator') };
    };

    const started = Date.now();
    await services.moneyStore.billing.ensureDefaultBags();
    const creators: AuthInfo[] = [];
    const posts: string[] = [];
    const staff = await person(['user', 'admin']);
    for (let i = 0; i < CREATORS; i++) {
      const c = await person(['user', 'creator']);
      await services.subscriptions.setPricing(c, {
        price: 499 + (i % 5) * 250,
        discountStatus: 'off',
        discountPercent: 0,
      });
      const post = await services.posts.create(
        c,
        {
          message: 'bench',
          kind: 'post',
          visibility: 'ppv',
          price: 10,
          discountStatus: 'off',
          discountPercent: 0,
          discountDateLimit: null,
        },
        [],
      );
      await services.posts.review(staff, { id: post._id, adminStatus: 'approved' });
      creators.push(c);
      posts.push(post._id);
    }
    const fans: AuthInfo[] = [];
    for (let i = 0; i < FANS; i++) fans.push(await person(['user', 'fan']));

    let seed = 12_345;
    const rand = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    const moments = Array.from({ length: SALES }, () => now.getTime() - rand(425) * DAY - rand(DAY)).sort();
    const subscribed = new Set<string>();
    const unlocked = new Set<string>();
    const purchases: { fan: AuthInfo; purchase: string }[] = [];
    const postback = (fields: Record<string, string>) =>
      services.billing.handlePostback('sandbox', { headers: {}, fields });
    const pay = async (fan: AuthInfo, checkoutId: string) => {
      const checkout = await services.moneyStore.billing.checkout(checkoutId);
      if (!checkout) throw new Error('no checkout');
      await postback(services.billing.signSandbox(approvalFields(checkout, clock)));
      purchases.push({ fan, purchase: `sbx-p-${checkout.id}` });
    };
    const buyCredits = async (fan: AuthInfo) => {
      const { checkout } = await services.billing.checkoutCredits(fan, 'bag-250', 'en');
      await pay(fan, checkout);
    };
    /** A spend; a fan short of credits buys a bag instead (a sale too). */
    const spend = (fan: AuthInfo, run: () => Promise<unknown>) =>
      run().catch((err: { code?: string }) => {
        if (err.code !== 'INSUFFICIENT_CREDITS') throw err;
        return buyCredits(fan);
      });
    const step = async (i: number) => {
      clock = new Date(moments[i]!);
      // Each worker has its own fans, so two workers never wait on one wallet.
      const fan = fans[rand(FANS / WORKERS) * WORKERS + (i % WORKERS)]!;
      const c = rand(CREATORS);
      const creator = creators[c]!;
      const op = rand(100);
      if (op < 12) await buyCredits(fan);
      else if (op < 22 && !subscribed.has(`${fan.userId}:${creator.userId}`)) {
        subscribed.add(`${fan.userId}:${creator.userId}`);
        const { checkout } = await services.billing.checkoutSubscription(fan, creator.username, 'en');
        await pay(fan, checkout);
      } else if (op < 25 && purchases.length) {
        const { fan: buyer, purchase } = purchases.splice(rand(purchases.length), 1)[0]!;
        await services.billing.sandboxSimulate(
          buyer,
          { purchase, event: op < 24 ? 'refund' : 'chargeback', at: clock.toISOString() },
          async (_provider, fields) => (await postback(fields)).status,
        );
      } else if (op < 45 && !unlocked.has(`${fan.userId}:${posts[c]}`)) {
        unlocked.add(`${fan.userId}:${posts[c]}`);
        await spend(fan, () => services.wallet.unlockPost(fan, posts[c]!));
      } else if (op < 80) {
        await spend(fan, () =>
          services.wallet.tip(fan, { creator: creator.username, credits: 1 + rand(20) }),
        );
      } else {
        const kind = op < 90 ? 'flowers' : 'gift';
        await spend(fan, () => services.wallet.gift(fan, { creator: creator.username, kind }));
      }
      if ((i + 1) % 1000 === 0) console.info(`${i + 1} sales…`);
    };
    // A few sales at once: each is a short transaction, so the store fills faster than one by one.
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        for (let i = w; i < moments.length; i += WORKERS) await step(i);
      }),
    );
    clock = now;
    const store = new pg.Client({ connectionString: url.toString() });
    await store.connect();
    const counts = (
      await store.query(`SELECT count(*) FILTER (WHERE category IS NOT NULL)::int AS sales,
        count(*) FILTER (WHERE kind IN ('refund', 'chargeback'))::int AS reversals,
        (SELECT count(*)::int FROM ledger_entries) AS entries FROM ledger_transactions`)
    ).rows[0] as { sales: number; reversals: number; entries: number };
    await store.query('ANALYZE');
    await store.end();
    console.info(
      `\nSeeded ${counts.sales} sales (${counts.reversals} refunds or chargebacks, ${counts.entries} ledger legs) ` +
        `for ${CREATORS} creators and ${FANS} fans in ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    );

    const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
    const login = async (who: AuthInfo) => {
      const res = await fetch(`${address}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: who.username, password: 'bench-password-1' }),
      });
      return ((await res.json()) as { token: string }).token;
    };
    const staffToken = await login(staff);
    const creatorToken = await login(creators[0]!);
    const time = async (url: string, token: string) => {
      const ms: number[] = [];
      for (let i = 0; i < RUNS + 2; i++) {
        const t0 = performance.now();
        const res = await fetch(url, { headers: { a1sledom: token } });
        if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        if (i >= 2) ms.push(performance.now() - t0); // two warm-up calls
      }
      ms.sort((a, b) => a - b);
      return {
        p50: ms[Math.floor(ms.length / 2)]!,
        p95: ms[Math.min(ms.length - 1, Math.ceil(ms.length * 0.95) - 1)]!,
      };
    };
    console.info(`\n${RUNS} calls each after 2 warm-up calls, PostgreSQL, Node ${process.version}\n`);
    console.info('| statistics page | period | p50 ms | p95 ms |');
    console.info('|---|---|---:|---:|');
    for (const page of ADMIN_STATISTICS_PAGES)
      for (const period of ['year', 'all'] as const) {
        const r = await time(
          `${address}/api/v1/admin/statistics/${page}?period=${period}&limit=20`,
          staffToken,
        );
        console.info(`| admin ${page} | ${period} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} |`);
      }
    for (const period of ['month', 'all'] as const) {
      const r = await time(`${address}/api/v1/creator/statistics?period=${period}`, creatorToken);
      console.info(`| creator | ${period} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} |`);
    }
    await built.close();
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
