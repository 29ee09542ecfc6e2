/**
 * Per-request cost of the hot feeds, measured sequentially in one process (no load generator):
 * seeds a store with `seed/bulk.ts`, builds the app as production runs it and asks each target
 * N times one after another, reporting this process's CPU ms per request (on PGlite that
 * includes the database) and the statements per request. A profiling aid for issue 13 (ADR 0017):
 * `node --import tsx bench/sequential.ts [--store pglite|postgres] [--n 400]`, with
 * `--cpu-prof` before `--import` for a CPU profile. Not a benchmark of throughput.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { captureStatements, openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { bulkSeedSql, bulkToken } from '../apps/server/src/seed/bulk.ts';
import { postgresTicks, TICK_MS } from './processes.ts';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'pglite' },
    n: { type: 'string', default: '300' },
    posts: { type: 'string', default: '10000' },
    only: { type: 'string' },
    statements: { type: 'boolean', default: false },
    /** A PGlite directory to keep between runs (seeded on the first). */
    data: { type: 'string' },
    /** Writes a CPU profile of the measured loop of each target to this directory. */
    prof: { type: 'string' },
  },
});
const N = Number(args.n);
const SIZE = { posts: Number(args.posts), creators: 50, fans: 500 };

interface RawClient {
  query(text: string, params?: unknown[]): Promise<unknown>;
}

async function main(): Promise<void> {
  const kept = !!args.data && fs.existsSync(path.join(args.data, `seeded-${args.store}`));
  const dataDir = args.data ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fv-seq-'));
  fs.mkdirSync(dataDir, { recursive: true });
  let databaseUrl: string | undefined;
  if (args.store === 'postgres') {
    if (!kept) {
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query('DROP DATABASE IF EXISTS fv_seq WITH (FORCE)');
      await admin.query('CREATE DATABASE fv_seq');
      await admin.end();
    }
    const url = new URL(process.env.DATABASE_URL ?? '');
    url.pathname = '/fv_seq';
    databaseUrl = url.toString();
  }
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    MONEY_JOBS: 'false',
    RATE_MESSAGE_PER_ACCOUNT: '1000000',
    PORT: '0',
    DATA_DIR: dataDir,
    SMTP_URL: 'smtp://127.0.0.1:2525',
    TZ: 'UTC',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
  };
  const config = loadConfig(env);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (!kept) {
    await migrate(database);
    const started = Date.now();
    await database.session(async (exec) => {
      for (const statement of bulkSeedSql(SIZE)) await exec(statement);
      await exec('VACUUM ANALYZE');
    });
    fs.writeFileSync(path.join(dataDir, `seeded-${args.store}`), '');
    console.info(
      `${args.store}: seeded ${SIZE.posts} posts in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  const built = await buildApp({ config, database, logger: false });
  const fan = { a1sledom: bulkToken('bfan000001'), ilang: 'en' };
  const first = await built.app.inject({ url: '/api/v1/posts', headers: { ilang: 'en' } });
  const postId = (JSON.parse(first.body) as { posts: { _id: string }[] }).posts[0]?._id ?? '';
  const targets = [
    { name: 'home feed page 1, visitor', url: '/api/v1/posts', headers: { ilang: 'en' } },
    { name: 'home feed page 1, fan', url: '/api/v1/posts', headers: fan },
    { name: 'home feed page 50, fan', url: '/api/v1/posts?page=50', headers: fan },
    { name: 'creator feed, fan', url: '/api/v1/posts?creator=bcreator0001', headers: fan },
    { name: 'single post, fan', url: `/api/v1/posts?post=${postId}`, headers: fan },
    { name: 'start-up call', url: '/api/v1/?view=home', headers: { ilang: 'en' } },
    // A direct message from one fan to another (a new messageUUID each time): bench:realtime's send.
    {
      name: 'message send',
      url: '/api/v1/message/send',
      headers: { ...fan, 'content-type': 'application/json' },
      body: () => ({ to: 'bfan000002', message: 'hello there', messageUUID: crypto.randomUUID(), price: 0 }),
    },
  ].filter((t) => !args.only || t.name.includes(args.only));
  for (const t of targets) {
    const body = 'body' in t ? t.body : undefined;
    const call = () =>
      built.app.inject({
        url: t.url,
        headers: t.headers,
        ...(body ? { method: 'POST' as const, payload: JSON.stringify(body()) } : {}),
      });
    for (let i = 0; i < 50; i++) {
      const r = await call();
      if (r.statusCode !== 200) throw new Error(`${t.name}: ${r.statusCode} ${r.body}`);
    }
    const { statements } = await captureStatements(call);
    if (process.env.SEQ_DUMP) fs.writeFileSync(process.env.SEQ_DUMP, JSON.stringify(statements));
    if (args.statements) {
      // Each statement alone, through the raw client (no server work around it).
      const client = (database.db as unknown as { $client: RawClient }).$client;
      for (const s of statements) {
        // Run again as they are (an insert of the same key stores nothing after the first).
        for (let i = 0; i < 20; i++) await client.query(s.sql, s.params);
        const c0 = process.cpuUsage();
        const db0 = args.store === 'postgres' ? postgresTicks() : 0;
        for (let i = 0; i < 100; i++) await client.query(s.sql, s.params);
        const c = process.cpuUsage(c0);
        const db =
          args.store === 'postgres'
            ? `, DB ${(((postgresTicks() - db0) * TICK_MS) / 100).toFixed(2)} ms`
            : '';
        console.info(
          `  ${((c.user + c.system) / 1000 / 100).toFixed(2)} ms${db}  ${s.sql.slice(0, 160).replace(/\s+/g, ' ')}`,
        );
        if (process.env.SEQ_EXPLAIN) {
          const plan = (await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${s.sql}`, s.params)) as {
            rows: Record<string, unknown>[];
          };
          console.info(`${s.sql}\n${plan.rows.map((r) => String(r['QUERY PLAN'])).join('\n')}`);
        }
      }
    }
    const db0 = args.store === 'postgres' ? postgresTicks() : 0;
    const profiler = args.prof ? new inspector.Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await call();
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (profiler && args.prof) {
      const { profile } = await profiler.post('Profiler.stop');
      fs.mkdirSync(args.prof, { recursive: true });
      fs.writeFileSync(
        path.join(args.prof, `${t.name.replace(/\W+/g, '-')}.cpuprofile`),
        JSON.stringify(profile),
      );
      profiler.disconnect();
    }
    const dbMs = args.store === 'postgres' ? ((postgresTicks() - db0) * TICK_MS) / N : null;
    console.info(
      `${t.name}: ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms CPU/req, ${(wall / N).toFixed(2)} ms wall/req` +
        `${dbMs === null ? '' : `, DB ${dbMs.toFixed(2)} ms/req`}, ${statements.length} statements`,
    );
  }
  await built.close();
  await database.close();
  if (!args.data) fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
