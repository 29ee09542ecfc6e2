/**
 * The server side of a benchmark, started as a child process (pinned to its own core by
 * bench/run.ts). Modes (BENCH_MODE):
 * - `app`: the real server as `npm start` builds it (production logging to stdout, which the
 *   parent discards), on DATABASE_URL or the PGlite store under DATA_DIR;
 * - `bare`: bare Fastify; `/` answers hello-world and `/json` the JSON file BENCH_JSON from memory
 *   (the ceilings the targets are measured against).
 * Reports its address to the parent over IPC, and answers `stats` messages with its memory and
 * (in `app` mode) its connected socket count (bench/realtime.ts).
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';

async function main(): Promise<void> {
  const mode = process.env.BENCH_MODE ?? 'app';
  let address: string;
  let sockets = () => 0;
  if (mode === 'bare') {
    const body = JSON.parse(fs.readFileSync(process.env.BENCH_JSON ?? '', 'utf8')) as unknown;
    const app = Fastify({ logger: false });
    app.get('/', async () => ({ hello: 'world' }));
    app.get('/json', async () => body);
    address = await app.listen({ port: 0, host: '127.0.0.1' });
  } else {
    const config = loadConfig({ ...process.env, PORT: '0' });
    process.env.TZ = config.timezone;
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    const built = await buildApp({ config, database });
    address = await built.app.listen({ port: 0, host: '127.0.0.1' });
    sockets = () => built.realtime.io.engine.clientsCount;
  }
  // Stopped by SIGTERM (bench/processes.ts): exit normally, so `NODE_OPTIONS=--cpu-prof` writes a profile.
  process.once('SIGTERM', () => process.exit(0));
  process.on('message', (m) => {
    if (m === 'stats') process.send?.({ stats: { ...process.memoryUsage(), sockets: sockets() } });
  });
  process.send?.({ address });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
