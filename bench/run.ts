/**
 * npm run bench — the benchmark suite of issue 13. Seeds a realistic store itself (set-based SQL),
 * starts the real server as a child process pinned to one core, drives it with autocannon from
 * this process pinned to the other, measures every target against its ceiling in the same run
 * (bare Fastify sending the same JSON from memory; bare hello-world for the start-up call),
 * EXPLAINs the hot queries and writes docs/benchmarks.md. Numbers, never assertions.
 *
 *   npm run bench                          PGlite and, if DATABASE_URL is set, PostgreSQL; 10k posts
 *   npm run bench -- --posts 1000000 --stores postgres
 *   npm run bench -- --baseline            record the figures as the "before" of the report
 *   npm run bench -- --messages            also the realtime messaging benchmark
 *   npm run bench -- --video               only the video benchmark (bench/video.ts → the Video section of docs/benchmarks.md)
 *   npm run bench -- --search              only the search benchmark over 10,000 creators (bench/search.ts → the
 *                                          Search section; on PostgreSQL when DATABASE_URL is set)
 *
 * Options: --posts N --creators N --fans N --stores pglite,postgres --seconds S --rounds R
 * --connections C --out FILE.
 *
 * On PostgreSQL the suite uses a database of its own, `fv_bench` (dropped and re-created), next to
 * the one DATABASE_URL names.
 *
 * Rounds: each store's targets are measured in --rounds (3) rounds, each on a freshly started app
 * server, alternating with a freshly started bare Fastify for the ceilings; each target is first
 * driven for 3 s at full load, unmeasured; a row is the median of its rounds. One fresh process can
 * run a third slower than the next (ADR 0050's addendum has one cause), so with one process per
 * side and a 2 s warm-up at 8 connections, runs minutes apart put the start-up call at 34 % and
 * 50 % of hello-world.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { captureStatements, type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { explainAnalyzeText, explainGenericText } from '../apps/server/src/db/explain.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { type BulkSize, bulkSeedSql, bulkToken } from '../apps/server/src/seed/bulk.ts';
import { benchMessages, formatMessageRow, type MessageBenchRow } from './messages.ts';
import {
  type Child,
  PINNED,
  pinLoadGenerator,
  postgresTicks,
  startChild,
  stopChild,
  TICK_MS,
  treeTicks,
} from './processes.ts';
import { type Measured, medianRow } from './rounds.ts';
import { writeSection } from './sections.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    posts: { type: 'string', default: '10000' },
    creators: { type: 'string', default: '50' },
    fans: { type: 'string', default: '500' },
    stores: { type: 'string' },
    /** Seconds measured per target and round (after its warm-up). */
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '5' },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '3' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '32' },
    out: { type: 'string', default: path.join(root, 'docs/benchmarks.md') },
    baseline: { type: 'boolean', default: false },
    messages: { type: 'boolean', default: false },
    video: { type: 'boolean', default: false },
    search: { type: 'boolean', default: false },
    /** Only the targets whose names contain one of these ('|'-separated); ceilings always run. */
    only: { type: 'string' },
    /** Print the figures, write no report (with --only, for profiling: BENCH_PROF=dir). */
    dry: { type: 'boolean', default: false },
  },
});
const ONLY = args.only?.split('|').map((s) => s.trim());
const SIZE: BulkSize = {
  posts: Number(args.posts),
  creators: Number(args.creators),
  fans: Number(args.fans),
};
const SECONDS = Number(args.seconds);
const ROUNDS = Math.max(1, Number(args.rounds));
/** Each target is first driven this long at full load, unmeasured (the JIT settles, pools fill). */
const WARM_UP_SECONDS = 3;
const CONNECTIONS = Number(args.connections);
const STORES = (args.stores ?? (process.env.DATABASE_URL ? 'postgres,pglite' : 'pglite')).split(',');
const BASELINE_FILE = path.join(root, 'bench/baseline.json');
const FAN = 'bfan000001';
const CREATOR = 'bcreator0001';

interface StoreResult {
  store: 'pglite' | 'postgres';
  size: BulkSize;
  rows: Measured[];
  /** `plan`: EXPLAIN (ANALYZE, BUFFERS) with the values; `generic`: the reused statement's plan. */
  plans: { name: string; sql: string; plan: string; generic: string }[];
  statements: Record<string, number>;
}

interface RunResult {
  at: string;
  machine: string;
  stores: StoreResult[];
  messages?: MessageBenchRow[];
}

// ---------------------------------------------------------------------------------------------
// Load

async function measure(
  target: string,
  child: Child,
  url: string,
  headers: Record<string, string>,
  withDb: boolean,
): Promise<Measured> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP_SECONDS, headers });
  const before = treeTicks(child.pid);
  const dbBefore = withDb ? postgresTicks() : 0;
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, timeout: 30 });
  const serverTicks = treeTicks(child.pid) - before;
  const dbTicks = withDb ? postgresTicks() - dbBefore : 0;
  const requests = r.requests.total || 1;
  const row: Measured = {
    target,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    serverCpuMs: (serverTicks * TICK_MS) / requests,
    dbCpuMs: withDb ? (dbTicks * TICK_MS) / requests : null,
    bytes: Math.round(r.throughput.total / requests),
    failed: r.non2xx + r.errors,
  };
  console.info(
    `  ${target}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.failed} failed, server CPU ${row.serverCpuMs.toFixed(4)} ms/req${row.dbCpuMs === null ? '' : `, DB ${row.dbCpuMs.toFixed(3)}`}`,
  );
  return row;
}

// ---------------------------------------------------------------------------------------------
// Stores

async function seed(database: Database): Promise<void> {
  await migrate(database);
  const started = Date.now();
  await database.session(async (exec) => {
    for (const statement of bulkSeedSql(SIZE)) await exec(statement);
    await exec('VACUUM ANALYZE');
  });
  console.info(`  seeded ${SIZE.posts} posts in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function postgresUrl(name: string): string {
  const url = new URL(process.env.DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

async function preparePostgres(): Promise<string> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS fv_bench WITH (FORCE)');
  await admin.query('CREATE DATABASE fv_bench');
  await admin.end();
  const url = postgresUrl('fv_bench');
  const database = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir() });
  await seed(database);
  await database.close();
  return url;
}

async function preparePglite(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  await seed(database);
  await database.close();
}

/** The requests measured on each store, by target name. */
function targets(postId: string) {
  const fan = { a1sledom: bulkToken(FAN), ilang: 'en' };
  return [
    { name: 'home feed page 1, visitor', path: '/api/v1/posts', headers: { ilang: 'en' } },
    { name: 'home feed page 1, fan', path: '/api/v1/posts', headers: fan },
    { name: 'home feed page 50, fan', path: '/api/v1/posts?page=50', headers: fan },
    { name: 'creator feed, fan', path: `/api/v1/posts?creator=${CREATOR}`, headers: fan },
    { name: 'single post, fan', path: `/api/v1/posts?post=${postId}`, headers: fan },
    { name: 'start-up call', path: '/api/v1/?view=home', headers: { ilang: 'en' } },
    // No target: the whole app's hooks (security headers, logging, metrics, ETag, compression) on
    // a tiny answer, the floor under the start-up call's ratio to hello-world.
    { name: 'health check (the app, tiny answer)', path: '/healthz', headers: {} as Record<string, string> },
  ];
}

/** Statements per request and EXPLAIN (ANALYZE, BUFFERS) of each hot request's SELECTs, in-process. */
async function explainHot(
  env: Record<string, string>,
  postId: string,
): Promise<{ plans: StoreResult['plans']; statements: Record<string, number> }> {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', MONEY_JOBS: 'false', PORT: '0' });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const built = await buildApp({ config, database, logger: false });
  const plans: StoreResult['plans'] = [];
  const statements: Record<string, number> = {};
  try {
    for (const t of targets(postId)) {
      if (t.name === 'start-up call' || t.path === '/healthz') continue;
      const warm = await built.app.inject({ url: t.path, headers: t.headers });
      if (warm.statusCode !== 200) throw new Error(`${t.name}: ${warm.statusCode} ${warm.body}`);
      const { statements: captured } = await captureStatements(() =>
        built.app.inject({ url: t.path, headers: t.headers }),
      );
      statements[t.name] = captured.length;
      for (const s of captured) {
        if (!/^\s*select\b/i.test(s.sql) || !/\bfrom "posts"/i.test(s.sql)) continue;
        plans.push({
          name: t.name,
          sql: s.sql,
          plan: await explainAnalyzeText(database, s),
          generic: await explainGenericText(database, s),
        });
      }
    }
  } finally {
    await built.close();
    await database.close();
  }
  return { plans, statements };
}

async function benchStore(store: 'pglite' | 'postgres', workDir: string): Promise<StoreResult> {
  console.info(`\n${store}: ${SIZE.posts} posts, ${SIZE.creators} creators, ${SIZE.fans} fans`);
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATA_DIR: path.join(workDir, store),
    // Never used by the measured requests; production refuses to start without a mail transport.
    SMTP_URL: 'smtp://127.0.0.1:2525',
    TZ: 'UTC',
  };
  fs.mkdirSync(env.DATA_DIR!, { recursive: true });
  if (store === 'postgres') env.DATABASE_URL = await preparePostgres();
  else await preparePglite(env.DATA_DIR!);

  const withDb = store === 'postgres';
  const jsonFile = path.join(workDir, 'feed.json');
  const measured = new Map<string, Measured[]>();
  const add = (row: Measured) => {
    const rows = measured.get(row.target);
    if (rows) rows.push(row);
    else measured.set(row.target, [row]);
  };
  let postId = '';
  for (let round = 1; round <= ROUNDS; round++) {
    if (ROUNDS > 1) console.info(`  round ${round} of ${ROUNDS}`);
    const app = await startChild(env);
    try {
      if (round === 1) {
        // The feed JSON the ceiling sends, as the app answers it.
        const first = await fetch(`${app.address}/api/v1/posts`, { headers: { ilang: 'en' } });
        const feedJson = await first.text();
        if (first.status !== 200) throw new Error(`home feed answered ${first.status}: ${feedJson}`);
        postId = (JSON.parse(feedJson) as { posts: { _id: string }[] }).posts[0]?._id ?? '';
        fs.writeFileSync(jsonFile, feedJson);
      }
      for (const t of targets(postId)) {
        if (ONLY && !ONLY.some((o) => t.name.includes(o))) continue;
        add(await measure(t.name, app, `${app.address}${t.path}`, t.headers, withDb));
      }
    } finally {
      await stopChild(app);
    }
    const bare = await startChild({ BENCH_MODE: 'bare', BENCH_JSON: jsonFile });
    try {
      add(await measure('bare Fastify, same feed JSON from memory', bare, `${bare.address}/json`, {}, false));
      add(await measure('bare Fastify hello-world', bare, `${bare.address}/`, {}, false));
    } finally {
      await stopChild(bare);
    }
  }
  const rows = [...measured.values()].map(medianRow);
  const { plans, statements } = args.dry ? { plans: [], statements: {} } : await explainHot(env, postId);
  return { store, size: SIZE, rows, plans, statements };
}

// ---------------------------------------------------------------------------------------------
// Report

function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const mem = (os.totalmem() / 2 ** 30).toFixed(0);
  const pin = PINNED ? 'server on core 0, load generator on core 1 (taskset)' : 'not pinned';
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  return `${os.cpus().length} × ${cpu}, ${mem} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}; ${pin}; autocannon ${CONNECTIONS} connections; ${ROUNDS} round${ROUNDS > 1 ? 's' : ''}, each on a freshly started app server and bare Fastify, ${SECONDS} s per target after ${WARM_UP_SECONDS} s at full load unmeasured; each row is the median of its rounds; load average at the start ${load} (the machine is shared: absolute figures move with its load, ratios to the ceilings of the same run much less)`;
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

interface Target {
  target: string;
  ceiling: string;
  minRps?: number;
  maxP99?: number;
  minRatio?: number;
}

function goals(store: 'pglite' | 'postgres'): Target[] {
  const feedCeiling = 'bare Fastify, same feed JSON from memory';
  if (store === 'pglite') {
    return [
      { target: 'home feed page 1, visitor', ceiling: feedCeiling, minRps: 500, maxP99: 200 },
      { target: 'home feed page 1, fan', ceiling: feedCeiling, minRps: 500, maxP99: 200 },
      { target: 'home feed page 50, fan', ceiling: feedCeiling },
      { target: 'creator feed, fan', ceiling: feedCeiling, minRps: 500, maxP99: 200 },
      { target: 'single post, fan', ceiling: feedCeiling, minRps: 500, maxP99: 200 },
      { target: 'start-up call', ceiling: 'bare Fastify hello-world', minRatio: 0.5 },
      { target: 'health check (the app, tiny answer)', ceiling: 'bare Fastify hello-world' },
    ];
  }
  return [
    { target: 'home feed page 1, visitor', ceiling: feedCeiling, minRps: 2000, maxP99: 50, minRatio: 0.25 },
    { target: 'home feed page 1, fan', ceiling: feedCeiling, minRps: 2000, maxP99: 50, minRatio: 0.25 },
    { target: 'home feed page 50, fan', ceiling: feedCeiling },
    { target: 'creator feed, fan', ceiling: feedCeiling, minRps: 2000 },
    { target: 'single post, fan', ceiling: feedCeiling, minRps: 2000 },
    { target: 'start-up call', ceiling: 'bare Fastify hello-world', minRatio: 0.5 },
    { target: 'health check (the app, tiny answer)', ceiling: 'bare Fastify hello-world' },
  ];
}

function verdict(
  goal: Target | undefined,
  row: Measured,
  ratio: number | undefined,
  page1?: Measured,
): string {
  if (!goal) return '';
  const misses: string[] = [];
  const wanted: string[] = [];
  if (goal.minRps !== undefined) {
    wanted.push(`≥ ${fmt(goal.minRps)} req/s`);
    if (row.rps < goal.minRps) misses.push('req/s');
  }
  if (goal.maxP99 !== undefined) {
    wanted.push(`p99 < ${goal.maxP99} ms`);
    if (row.p99 >= goal.maxP99) misses.push('p99');
  }
  if (goal.minRatio !== undefined && ratio !== undefined) {
    wanted.push(`≥ ${goal.minRatio * 100}% of ceiling`);
    if (ratio < goal.minRatio) misses.push('ratio');
  }
  if (page1 && goal.target === 'home feed page 50, fan') {
    wanted.push('within 10% of page 1');
    if (row.rps < page1.rps * 0.9) misses.push('vs page 1');
  }
  if (!wanted.length) return '';
  return `${wanted.join(', ')}: ${misses.length ? `**missed** (${misses.join(', ')})` : 'met'}`;
}

function storeTable(result: StoreResult, baseline?: StoreResult): string {
  const byName = new Map(result.rows.map((r) => [r.target, r]));
  const goalsByName = new Map(goals(result.store).map((g) => [g.target, g]));
  const lines = [
    '| target | req/s | req/s by round | p50 ms | p99 ms | failed | server CPU ms/req | DB CPU ms/req | bytes/answer | ceiling ratio | before (req/s, p99) | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of result.rows) {
    const goal = goalsByName.get(row.target);
    const ceiling = goal ? byName.get(goal.ceiling) : undefined;
    const ratio = ceiling ? row.rps / ceiling.rps : undefined;
    const before = baseline?.rows.find((b) => b.target === row.target);
    lines.push(
      `| ${row.target} | ${fmt(row.rps)} | ${row.rounds ? row.rounds.map((r) => fmt(r)).join(' / ') : '—'} | ${row.p50} | ${row.p99} | ${row.failed ?? 0} | ${fmt(row.serverCpuMs, 2)} | ${
        row.dbCpuMs === null ? '—' : fmt(Math.max(0, row.dbCpuMs), 2)
      } | ${fmt(row.bytes)} | ${ratio === undefined ? '—' : `${fmt(ratio * 100)}%`} | ${
        before ? `${fmt(before.rps)}, ${before.p99} ms` : '—'
      } | ${verdict(goal, row, ratio, byName.get('home feed page 1, fan'))} |`,
    );
  }
  return lines.join('\n');
}

function report(run: RunResult, baseline?: RunResult): string {
  const out: string[] = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts); do not edit by hand. The suite seeds its own store',
    '(set-based SQL in `apps/server/src/seed/bulk.ts`), runs the real server as a child process and',
    'measures each target against its ceiling in the same run: a bare Fastify sending the same feed',
    'JSON object from memory, and a bare Fastify hello-world for the start-up call. "Before" columns',
    `come from \`bench/baseline.json\`${baseline ? ` (recorded ${baseline.at} on the code before the performance work of issue 13)` : ''}.`,
    'Targets are benchmarks, never timed tests; the hot-query test (`apps/server/test/hot-queries.test.ts`)',
    'guards statement counts and index use instead.',
    '',
    `- Run: ${run.at}`,
    `- Machine: ${run.machine}`,
    '- Server: `NODE_ENV=production`, request logging on (to a discarded stdout), bundled by esbuild as',
    "  `npm run build` bundles `npm start`'s server (scripts/bundle-server.mjs), never through tsx.",
    '- DB CPU counts every `postgres` process of the machine (the server is shared, so it is an upper bound).',
    '- Growth: `npm run bench -- --stores postgres --posts 1000000 --out docs/benchmarks-1m.md` writes the',
    '  same report for a million posts ([docs/benchmarks-1m.md](benchmarks-1m.md) when it has been run).',
    '',
  ];
  for (const store of run.stores) {
    const base = baseline?.stores.find((b) => b.store === store.store && b.size.posts === store.size.posts);
    out.push(
      `## ${store.store === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'}, ${fmt(store.size.posts)} posts, ${store.size.creators} creators, ${store.size.fans} fans`,
      '',
      storeTable(store, base),
      '',
      `Statements per request: ${Object.entries(store.statements)
        .map(([k, v]) => {
          const b = base?.statements[k];
          return `${k} ${v}${b !== undefined ? ` (before ${b})` : ''}`;
        })
        .join('; ')}.`,
      '',
    );
  }
  if (run.messages?.length) {
    out.push(
      '## Realtime messaging (PGlite, one server)',
      '',
      '| case | delivered | throughput | p50 | p99 |',
      '|---|---:|---:|---:|---:|',
    );
    for (const r of run.messages) out.push(formatMessageRow(r));
    out.push('');
  }
  for (const store of run.stores) {
    out.push(`## Query plans, ${store.store}, ${fmt(store.size.posts)} posts`, '');
    out.push(
      'EXPLAIN (ANALYZE, BUFFERS) of every statement on `posts` that the hot requests issue, run with its values; then its generic plan (EXPLAIN under `plan_cache_mode = force_generic_plan`), the plan PostgreSQL may keep for the prepared statement once it is reused, which does not know the values.',
      '',
    );
    const seen = new Set<string>();
    for (const p of store.plans) {
      const key = p.sql.replace(/\$\d+/g, '?');
      if (seen.has(`${p.name}:${key}`)) continue;
      seen.add(`${p.name}:${key}`);
      out.push(`### ${p.name}`, '', '```sql', p.sql, '```', '', '```', p.plan, '```', '');
      out.push('Generic plan:', '', '```', p.generic, '```', '');
    }
  }
  return `${out.join('\n')}\n`;
}

const FEEDS = {
  start: '<!-- feeds:start (written by npm run bench; the rest of the file is kept) -->',
  end: '<!-- feeds:end -->',
};

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (args.search) {
    const { benchSearch, SEARCH } = await import('./search.ts');
    const report = await benchSearch();
    writeSection(args.out!, SEARCH, `## Search (\`npm run bench -- --search\`, issue 15)\n\n${report}`);
    console.info(report);
    return;
  }
  if (args.video) {
    const { benchVideo, VIDEO } = await import('./video.ts');
    const report = await benchVideo();
    writeSection(args.out!, VIDEO, `## Video (\`npm run bench -- --video\`, issue 16)\n\n${report}`);
    console.info(report);
    return;
  }
  pinLoadGenerator();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-bench-'));
  const run: RunResult = { at: new Date().toISOString(), machine: machine(), stores: [] };
  try {
    for (const store of STORES) {
      if (store !== 'pglite' && store !== 'postgres') throw new Error(`unknown store ${store}`);
      if (store === 'postgres' && !process.env.DATABASE_URL) throw new Error('postgres needs DATABASE_URL');
      run.stores.push(await benchStore(store, workDir));
    }
    if (args.messages) run.messages = await benchMessages();
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  if (args.dry) return;
  if (args.baseline) {
    fs.writeFileSync(BASELINE_FILE, `${JSON.stringify(run, null, 2)}\n`);
    console.info(`\nbaseline written to ${path.relative(root, BASELINE_FILE)}`);
    return;
  }
  const baseline = fs.existsSync(BASELINE_FILE)
    ? (JSON.parse(fs.readFileSync(BASELINE_FILE, 'utf8')) as RunResult)
    : undefined;
  const feeds = report(run, baseline).replace(/^# Benchmarks\n/, '');
  writeSection(args.out!, FEEDS, `## Feeds (\`npm run bench\`, issue 13)\n${feeds}`, { first: true });
  console.info(`\nreport written to ${path.relative(root, args.out!)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
