/**
 * npm run bench:realtime — the realtime targets of issue 13 on PostgreSQL and Redis:
 * 1. one server copy (the real app, bench/server.ts, pinned to core 0) takes SOCKETS authenticated
 *    Socket.IO connections from client processes (bench/realtime-clients.ts, core 1): connect
 *    time, server CPU, RSS and heap after connecting and after IDLE seconds idle, then the
 *    disconnect of them all;
 * 2. a second copy over Redis: senders post /api/v1/message/send to copy A at RATE messages/s for
 *    SECONDS seconds (open loop, after a 3 s warm-up), each to a receiver whose socket is on copy
 *    B; the latency of a message is from the start of its HTTP request to its `message` event.
 * Writes the "Realtime" section of docs/benchmarks.md (between its markers; the rest is kept).
 *
 *   DATABASE_URL=postgres://… [REDIS_URL=redis://127.0.0.1:6379] npm run bench:realtime
 *   npm run bench:realtime -- --sockets 2000 --idle 10 --seconds 10     a smaller, quicker run
 *
 * Options: --sockets N (10000) --idle S (60) --rate R (1000) --seconds S (20) --pairs N (1000)
 * --clients N (client processes, 2) --out FILE (docs/benchmarks.md) --dry (print, write nothing)
 * --spread (copy B on core 1, with the client processes, instead of core 0 with copy A).
 * Uses a database of its own, `fv_bench_realtime` (dropped and re-created), next to DATABASE_URL's.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { bulkSeedSql, bulkToken } from '../apps/server/src/seed/bulk.ts';
import { percentile } from './percentile.ts';
import {
  type Child,
  commandTicks,
  PINNED,
  pinLoadGenerator,
  postgresTicks,
  startChild,
  stopChild,
  TICK_MS,
  treeTicks,
} from './processes.ts';
import type { ClientCommand, ConnectAnswer, ReportAnswer, SendAnswer } from './realtime-clients.ts';
import { writeSection } from './sections.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    sockets: { type: 'string', default: '10000' },
    idle: { type: 'string', default: '60' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '20' },
    pairs: { type: 'string', default: '1000' },
    clients: { type: 'string', default: '2' },
    /** Copy B on core 1 (with the client processes) instead of core 0 (with copy A). */
    spread: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(root, 'docs/benchmarks.md') },
    dry: { type: 'boolean', default: false },
  },
});
const SOCKETS = Number(args.sockets);
const IDLE = Number(args.idle);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const WARM_UP = 3;
// The send limit is 60 messages per account per minute: enough senders to stay under it.
const PAIRS = Math.max(Number(args.pairs), Math.ceil((RATE * (SECONDS + WARM_UP)) / 50));
const CLIENTS = Math.max(1, Number(args.clients));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DB_NAME = 'fv_bench_realtime';
const TARGET = { sockets: 10_000, rssBytes: 2 ** 30, rate: 1000, p99: 50 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => os.loadavg().map((l) => Math.round(l * 10) / 10);
const fan = (i: number) => `bfan${String(i + 1).padStart(6, '0')}`;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const round1 = (n: number) => Math.round(n * 10) / 10;
function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round1(percentile(sorted, 50)),
    p95: round1(percentile(sorted, 95)),
    p99: round1(percentile(sorted, 99)),
    max: round1(sorted.at(-1) ?? Number.NaN),
  };
}

// ---------------------------------------------------------------------------------------------
// Processes

interface Stats {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  sockets: number;
}

function stats(child: Child): Promise<Stats> {
  return new Promise((resolve) => {
    const on = (m: { stats?: Stats }) => {
      if (!m.stats) return;
      child.proc.off('message', on);
      resolve(m.stats);
    };
    child.proc.on('message', on);
    child.proc.send('stats');
  });
}

/** A client process; `ask` sends one command and waits for its answer (one at a time). */
async function startClients(): Promise<{ proc: ChildProcess; ask<T>(m: ClientCommand): Promise<T> }> {
  const proc = fork(path.join(root, 'bench/realtime-clients.ts'), [], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((resolve, reject) => {
    proc.once('message', resolve);
    proc.once('exit', (code) => reject(new Error(`bench clients exited with ${code}`)));
  });
  return {
    proc,
    ask: <T>(m: ClientCommand) =>
      new Promise<T>((resolve) => {
        proc.once('message', (answer) => resolve(answer as T));
        proc.send(m);
      }),
  };
}

async function prepareDatabase(fans: number): Promise<string> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL ?? '');
  url.pathname = `/${DB_NAME}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
  await migrate(database);
  const started = Date.now();
  // Every fan has a session whose token is bulkToken(username); a small feed around them.
  await database.session(async (exec) => {
    for (const statement of bulkSeedSql({ posts: 1000, creators: 20, fans })) await exec(statement);
    await exec('VACUUM ANALYZE');
  });
  await database.close();
  console.info(`seeded ${fans} users with sessions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return url.toString();
}

async function dropDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
}

// ---------------------------------------------------------------------------------------------
// Phases

interface Memory {
  rssMb: number;
  heapMb: number;
  externalMb: number;
  sockets: number;
}
const memory = (s: Stats): Memory => ({
  rssMb: mb(s.rss),
  heapMb: mb(s.heapUsed),
  externalMb: mb(s.external),
  sockets: s.sockets,
});

interface SocketsResult {
  sockets: number;
  connected: number;
  failed: Record<string, number>;
  connectSeconds: number;
  connectMs: ReturnType<typeof spread>;
  /** Server CPU while connecting, ms per socket. */
  cpuMsPerSocket: number;
  /** Server CPU while idle, % of one core. */
  idleCpuPercent: number;
  before: Memory;
  connectedMemory: Memory;
  idleMemory: Memory;
  /** Bytes of server RSS per connected socket (after idle, minus before). */
  rssPerSocketKb: number;
  disconnectSeconds: number;
  load: number[];
}

async function socketsPhase(
  a: Child,
  clients: Awaited<ReturnType<typeof startClients>>[],
): Promise<SocketsResult> {
  console.info(`\n1. ${SOCKETS} sockets on one copy, then ${IDLE} s idle`);
  const before = memory(await stats(a));
  const tokens = Array.from({ length: SOCKETS }, (_, i) => bulkToken(fan(i)));
  const ticks0 = treeTicks(a.pid);
  const started = performance.now();
  const answers = await Promise.all(
    clients.map((c, k) =>
      c.ask<ConnectAnswer>({
        cmd: 'connect',
        base: a.address,
        tokens: tokens.filter((_, i) => i % clients.length === k),
        concurrency: 100,
      }),
    ),
  );
  const connectSeconds = (performance.now() - started) / 1000;
  const connectTicks = treeTicks(a.pid) - ticks0;
  const connected = answers.reduce((n, x) => n + x.connected, 0);
  const failed: Record<string, number> = {};
  for (const x of answers) for (const [k, v] of Object.entries(x.failed)) failed[k] = (failed[k] ?? 0) + v;
  const connectedMemory = memory(await stats(a));
  console.info(
    `  ${connected} connected in ${connectSeconds.toFixed(1)} s (failed ${JSON.stringify(failed)}), RSS ${connectedMemory.rssMb} MiB, heap ${connectedMemory.heapMb} MiB`,
  );
  const idle0 = treeTicks(a.pid);
  await sleep(IDLE * 1000);
  const idleCpuPercent = ((treeTicks(a.pid) - idle0) * TICK_MS) / (IDLE * 10);
  const idleMemory = memory(await stats(a));
  console.info(
    `  after ${IDLE} s idle: RSS ${idleMemory.rssMb} MiB, heap ${idleMemory.heapMb} MiB, server CPU ${idleCpuPercent.toFixed(1)}%`,
  );
  const loadNow = load();
  const gone = performance.now();
  await Promise.all(clients.map((c) => c.ask({ cmd: 'disconnect' })));
  while ((await stats(a)).sockets > 0) await sleep(100);
  const disconnectSeconds = (performance.now() - gone) / 1000;
  return {
    sockets: SOCKETS,
    connected,
    failed,
    connectSeconds: round1(connectSeconds),
    connectMs: spread(answers.flatMap((x) => x.times)),
    cpuMsPerSocket: Math.round(((connectTicks * TICK_MS) / Math.max(1, connected)) * 100) / 100,
    idleCpuPercent: round1(idleCpuPercent),
    before,
    connectedMemory,
    idleMemory,
    rssPerSocketKb: Math.round(((idleMemory.rssMb - before.rssMb) * 1024) / Math.max(1, connected)),
    disconnectSeconds: round1(disconnectSeconds),
    load: loadNow,
  };
}

interface MessagesResult {
  rate: number;
  seconds: number;
  pairs: number;
  sent: number;
  achievedRate: number;
  statuses: Record<string, number>;
  httpMs: ReturnType<typeof spread>;
  delivered: number;
  deliveryMs: ReturnType<typeof spread>;
  /** CPU of copy A, copy B, every postgres process, Redis and the client processes, % of one core. */
  cpuPercent: CpuShares;
  /** The same CPU in ms per message delivered (what the machine's load changes least). */
  cpuMsPerMessage: CpuShares;
  load: number[];
}

interface CpuShares {
  a: number;
  b: number;
  postgres: number;
  redis: number;
  clients: number;
}

async function messagesPhase(
  a: Child,
  b: Child,
  clients: Awaited<ReturnType<typeof startClients>>[],
): Promise<MessagesResult> {
  console.info(
    `\n2. ${RATE} messages/s for ${SECONDS} s: ${PAIRS} senders on copy A, ${PAIRS} receivers on copy B`,
  );
  const receivers = clients.length > 1 ? clients.slice(1) : clients;
  const sender = clients[0]!;
  const answers = await Promise.all(
    receivers.map((c, k) =>
      c.ask<ConnectAnswer>({
        cmd: 'connect',
        base: b.address,
        tokens: Array.from({ length: PAIRS }, (_, i) => i)
          .filter((i) => i % receivers.length === k)
          .map((i) => bulkToken(fan(i))),
        concurrency: 100,
      }),
    ),
  );
  const connected = answers.reduce((n, x) => n + x.connected, 0);
  if (connected < PAIRS) throw new Error(`only ${connected} of ${PAIRS} receivers connected`);
  const pairs = Array.from({ length: PAIRS }, (_, i) => ({ token: bulkToken(fan(PAIRS + i)), to: fan(i) }));
  await sender.ask<SendAnswer>({ cmd: 'send', base: a.address, pairs, rate: RATE, seconds: WARM_UP });
  await sleep(1000);
  await Promise.all(receivers.map((c) => c.ask<ReportAnswer>({ cmd: 'report' })));

  const clientTicks = () => clients.reduce((n, c) => n + treeTicks(c.proc.pid ?? 0), 0);
  const t0 = {
    a: treeTicks(a.pid),
    b: treeTicks(b.pid),
    pg: postgresTicks(),
    redis: commandTicks('redis-server'),
    clients: clientTicks(),
  };
  const started = performance.now();
  const sent = await sender.ask<SendAnswer>({
    cmd: 'send',
    base: a.address,
    pairs,
    rate: RATE,
    seconds: SECONDS,
  });
  // Stragglers: wait until nothing more arrives (at most 10 s).
  let delivered: number[] = [];
  for (let quiet = 0, waited = 0; quiet < 2 && waited < 20; waited++) {
    await sleep(500);
    const got = (await Promise.all(receivers.map((c) => c.ask<ReportAnswer>({ cmd: 'report' })))).flatMap(
      (r) => r.latencies,
    );
    quiet = got.length ? 0 : quiet + 1;
    delivered = delivered.concat(got);
  }
  const wall = (performance.now() - started) / 1000;
  const ticks = {
    a: treeTicks(a.pid) - t0.a,
    b: treeTicks(b.pid) - t0.b,
    pg: postgresTicks() - t0.pg,
    redis: commandTicks('redis-server') - t0.redis,
    clients: clientTicks() - t0.clients,
  };
  const cpu = (n: number) => round1((n * TICK_MS) / (wall * 10));
  // Messages the copies carried through to delivery in this window (an overloaded run still works
  // off the warm-up's backlog in it, and answers some only after it).
  const perMessage = (n: number) => Math.round(((n * TICK_MS) / Math.max(1, delivered.length)) * 100) / 100;
  const result: MessagesResult = {
    rate: RATE,
    seconds: SECONDS,
    pairs: PAIRS,
    sent: sent.sent,
    achievedRate: Math.round(sent.sent / sent.seconds),
    statuses: sent.statuses,
    httpMs: spread(sent.times),
    delivered: delivered.length,
    deliveryMs: spread(delivered),
    cpuPercent: {
      a: cpu(ticks.a),
      b: cpu(ticks.b),
      postgres: cpu(ticks.pg),
      redis: cpu(ticks.redis),
      clients: cpu(ticks.clients),
    },
    cpuMsPerMessage: {
      a: perMessage(ticks.a),
      b: perMessage(ticks.b),
      postgres: perMessage(ticks.pg),
      redis: perMessage(ticks.redis),
      clients: perMessage(ticks.clients),
    },
    load: load(),
  };
  console.info(
    `  sent ${result.sent} (${result.achievedRate}/s, ${JSON.stringify(result.statuses)}), delivered ${result.delivered}, p50 ${result.deliveryMs.p50} ms, p99 ${result.deliveryMs.p99} ms; CPU ms/message A/B/PG/Redis/clients ${shares(result.cpuMsPerMessage)}`,
  );
  await Promise.all(receivers.map((c) => c.ask({ cmd: 'disconnect' })));
  return result;
}

// ---------------------------------------------------------------------------------------------
// Report

function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const pin = !PINNED
    ? 'not pinned'
    : args.spread
      ? 'copy A on core 0, copy B and the client processes on core 1 (taskset)'
      : 'server copies on core 0, client processes on core 1 (taskset)';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}; ${pin}`;
}

const shares = (c: CpuShares) => [c.a, c.b, c.postgres, c.redis, c.clients].join(' / ');
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

function report(run: { at: string; load: number[]; s: SocketsResult; m: MessagesResult }): string {
  const { s, m } = run;
  const errors = Object.entries(m.statuses)
    .filter(([k]) => k !== '200')
    .map(([k, v]) => `${v} × ${k}`)
    .join(', ');
  const lost = m.sent - m.delivered;
  return [
    '## Realtime (`npm run bench:realtime`, issue 13)',
    '',
    'Written by `npm run bench:realtime` (bench/realtime.ts); do not edit by hand. The real app',
    '(`NODE_ENV=production`, bench/server.ts bundled as `npm run build` bundles the server) on PostgreSQL',
    'and Redis; the sockets and the senders',
    'are separate client processes (bench/realtime-clients.ts). Users and sessions are seeded with',
    "set-based SQL (`apps/server/src/seed/bulk.ts`); every socket authenticates with its own session's",
    'token. Smaller run: `npm run bench:realtime -- --sockets 2000 --idle 10 --seconds 10`.',
    '',
    `- Run: ${run.at}`,
    `- Machine: ${machine()}`,
    `- Load average (1/5/15 min): at the start ${run.load.join(' / ')}; after the sockets phase ${s.load.join(' / ')}; after the messages phase ${m.load.join(' / ')} (the machine is shared: latencies and CPU move with its load)`,
    ...(Math.max(run.load[0]!, s.load[0]!, m.load[0]!) > os.cpus().length
      ? [
          `- **The load average was above the ${os.cpus().length} cores**: the server copies waited for a core most of the time, so connect times and latencies measure the machine, not the server. CPU per connection and per message are the figures to compare; re-run on a quiet machine for the targets.`,
        ]
      : []),
    '',
    `### ${fmt(s.sockets)} authenticated sockets on one server copy`,
    '',
    '| figure | value |',
    '|---|---:|',
    `| connected / failed | ${fmt(s.connected)} / ${Object.values(s.failed).reduce((a, b) => a + b, 0)}${Object.keys(s.failed).length ? ` (${Object.keys(s.failed).join(', ')})` : ''} |`,
    `| time to connect them all (100 at a time per client process) | ${s.connectSeconds} s |`,
    `| connect time p50 / p95 / p99 | ${s.connectMs.p50} / ${s.connectMs.p95} / ${s.connectMs.p99} ms |`,
    `| server CPU per connection (handshake, session lookup, rooms, presence) | ${s.cpuMsPerSocket} ms |`,
    `| server RSS / heap before | ${s.before.rssMb} / ${s.before.heapMb} MiB |`,
    `| server RSS / heap after connecting | ${s.connectedMemory.rssMb} / ${s.connectedMemory.heapMb} MiB |`,
    `| server RSS / heap after ${IDLE} s idle | ${s.idleMemory.rssMb} / ${s.idleMemory.heapMb} MiB |`,
    `| RSS per socket (after idle − before) | ${s.rssPerSocketKb} KiB |`,
    `| server CPU while idle (heartbeats) | ${s.idleCpuPercent}% of a core |`,
    `| all ${fmt(s.connected)} disconnect (until the server holds none) | ${s.disconnectSeconds} s |`,
    `| target: ${fmt(TARGET.sockets)} sockets under 1 GiB RSS | ${verdict(s.sockets >= TARGET.sockets && s.connected === s.sockets && s.idleMemory.rssMb < 1024 && s.connectedMemory.rssMb < 1024)} |`,
    '',
    `### Messages across two copies over Redis: ${fmt(m.rate)}/s for ${m.seconds} s`,
    '',
    `${fmt(m.pairs)} senders post \`/api/v1/message/send\` to copy A (HTTP keep-alive, open loop after a ${WARM_UP} s warm-up),`,
    `each to its own receiver whose socket is on copy B; latency is from the start of the request to`,
    'the `message` event on the receiver (chat not open: every message also counts unread and notifies).',
    '',
    '| figure | value |',
    '|---|---:|',
    `| sent (achieved rate) | ${fmt(m.sent)} (${fmt(m.achievedRate)}/s) |`,
    `| answers other than 200 | ${errors || 'none'} |`,
    `| delivered / lost | ${fmt(m.delivered)} / ${fmt(lost)} |`,
    `| send → delivery p50 / p95 / p99 / max | ${m.deliveryMs.p50} / ${m.deliveryMs.p95} / ${m.deliveryMs.p99} / ${m.deliveryMs.max} ms |`,
    `| HTTP send answer p50 / p99 | ${m.httpMs.p50} / ${m.httpMs.p99} ms |`,
    `| CPU copy A / copy B / PostgreSQL / Redis / client processes (% of one core) | ${shares(m.cpuPercent)} |`,
    `| CPU per message delivered: copy A / copy B / PostgreSQL / Redis / client processes | ${shares(m.cpuMsPerMessage)} ms |`,
    `| target: p99 < ${TARGET.p99} ms at ${fmt(TARGET.rate)} messages/s | ${verdict(m.rate >= TARGET.rate && m.achievedRate >= TARGET.rate * 0.95 && lost === 0 && m.deliveryMs.p99 < TARGET.p99)} |`,
    '',
  ].join('\n');
}

const REALTIME = {
  start: '<!-- realtime:start (written by npm run bench:realtime; the rest of the file is kept) -->',
  end: '<!-- realtime:end -->',
};

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('bench:realtime needs DATABASE_URL (PostgreSQL)');
  pinLoadGenerator();
  const at = new Date().toISOString();
  const startLoad = load();
  console.info(`load average ${startLoad.join(' / ')}`);
  const databaseUrl = await prepareDatabase(Math.max(SOCKETS, 2 * PAIRS));
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-bench-rt-'));
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATA_DIR: workDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    // Never used here; production refuses to start without a mail transport.
    SMTP_URL: 'smtp://127.0.0.1:2525',
    TZ: 'UTC',
  };
  const children: Child[] = [];
  const clients = await Promise.all(Array.from({ length: CLIENTS }, startClients));
  try {
    const a = await startChild(env);
    children.push(a);
    const s = await socketsPhase(a, clients);
    const b = await startChild(env, args.spread ? 1 : 0);
    children.push(b);
    const m = await messagesPhase(a, b, clients);
    const section = report({ at, load: startLoad, s, m });
    console.info(`\n${section}`);
    if (!args.dry) {
      writeSection(args.out!, REALTIME, section);
      console.info(`report written to ${path.relative(root, args.out!)}`);
    }
  } finally {
    for (const c of clients) c.proc.kill();
    for (const c of children) await stopChild(c);
    fs.rmSync(workDir, { recursive: true, force: true });
    await dropDatabase();
  }
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
