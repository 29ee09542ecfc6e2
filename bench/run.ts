/**
 * npm run bench — measures the start-up call against a bare Fastify hello-world in the same run.
 * Prints requests/s and p50/p99 latency for each and their ratio. Numbers, not assertions.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { seedDemo } from '../apps/server/src/seed/demo.ts';
import { benchMessages, formatMessageRow } from './messages.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
}

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Row> {
  // Warm-up so JIT and caches settle before measuring.
  await autocannon({ url, connections: 10, duration: 2, headers });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

async function main(): Promise<void> {
  process.env.TZ = 'America/Bogota';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' });
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  await migrate(database);
  const built = await buildApp({ config, database, logger: false });
  await seedDemo(built.services.users, config.seedPassword);
  const appAddress = await built.app.listen({ port: 0, host: '127.0.0.1' });

  const hello = Fastify({ logger: false });
  hello.get('/', async () => ({ hello: 'world' }));
  const helloAddress = await hello.listen({ port: 0, host: '127.0.0.1' });

  const rows: Row[] = [];
  rows.push(await measure('fastify hello-world', `${helloAddress}/`));
  rows.push(await measure('GET /api/v1/?view=home', `${appAddress}/api/v1/?view=home`, { ilang: 'en' }));

  await built.close();
  await hello.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const base = rows[0]!;
  console.info(
    `\n${CONNECTIONS} connections, ${DURATION} s each, Node ${process.version}, ${os.cpus().length} cores\n`,
  );
  console.info('| case | requests/s | p50 ms | p99 ms | vs hello-world |');
  console.info('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    console.info(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.rps / base.rps).toFixed(2)}x |`,
    );
  }

  // Realtime: messages from send to delivery with many connected sockets (one server, PGlite).
  const messageRows = await benchMessages();
  console.info('\n| messaging case | delivered | throughput | p50 | p99 |');
  console.info('|---|---:|---:|---:|---:|');
  for (const r of messageRows) console.info(formatMessageRow(r));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
