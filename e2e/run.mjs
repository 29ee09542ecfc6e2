// npm run test:e2e — builds the web app and runs the Playwright journeys in Debian's Chromium.
// Without Chromium it says so loudly and skips only the browser part (CI installs Chromium, so
// there a missing browser is a failure).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  const line = '!'.repeat(78);
  console.error(
    `\n${line}\n  END-TO-END TESTS SKIPPED: no Chromium at ${chromium}.\n  Install it with: apt-get install -y chromium (or set CHROMIUM_PATH)\n${line}\n`,
  );
  process.exit(process.env.CI ? 1 : 0);
}

const run = (cmd, args, env = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

/** `count` distinct free ports on loopback (all held open at once), so several runs on one machine don't collide. */
const freePorts = async (count) => {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const srv = net.createServer();
          srv.once('error', reject);
          srv.listen(0, '127.0.0.1', () => resolve(srv));
        }),
    ),
  );
  const ports = servers.map((srv) => srv.address().port);
  await Promise.all(servers.map((srv) => new Promise((resolve) => srv.close(resolve))));
  return ports;
};

run('npm', ['run', 'build']);
// The home page's JavaScript against its budget (issue 13), on the build just made.
run('node', ['scripts/web-budget.mjs']);
const args = process.argv.slice(2);
// E2E_SHARDS=n runs the journeys as n shards at once, each a Playwright run of its own with its own
// server, data directory and ports: the tests of one shard share a server as they always did (one
// after another), shards share nothing. For a machine with cores to spare: on two cores the browser
// already keeps both busy, and two shards were slower than one (ADR 0051). One run by default.
const shards = Math.max(1, Number(process.env.E2E_SHARDS ?? 1));

const ports = await freePorts(3 * shards);

/** Runs one shard; resolves to its exit code. Its lines are prefixed with the shard when there are several. */
async function shard(index) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-e2e-'));
  // The ports asked for (one run only), else free ones: the app, its RTMP ingest, the OpenID provider.
  const [port, rtmp, oidc] = ports.slice(3 * (index - 1), 3 * index).map(String);
  const own = (name, free) => (shards === 1 && process.env[name] ? process.env[name] : free);
  // The journeys' server runs on the embedded store, as `npm start` does, even when the server
  // suite of the same `npm test` runs on PostgreSQL and Redis (CI sets DATABASE_URL and REDIS_URL).
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const env = {
    ...inherited,
    E2E_DATA_DIR: dataDir,
    E2E_PORT: own('E2E_PORT', port),
    E2E_RTMP_PORT: own('E2E_RTMP_PORT', rtmp),
    E2E_OIDC_PORT: own('E2E_OIDC_PORT', oidc),
  };
  const shardArgs = [];
  if (shards > 1) {
    shardArgs.push(`--shard=${index}/${shards}`);
    env.E2E_OUTPUT_DIR = `./artifacts/results-${index}`;
    env.E2E_REPORT_DIR = `./artifacts/report-${index}`;
  }
  const child = spawn(
    'npx',
    ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...shardArgs, ...args],
    {
      env,
      stdio: shards > 1 ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    },
  );
  if (shards > 1) {
    const prefix = `[e2e ${index}/${shards}] `;
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
      });
      stream.on('end', () => rest && process.stdout.write(`${prefix}${rest}\n`));
    }
  }
  const code = await new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)));
  fs.rmSync(dataDir, { recursive: true, force: true });
  return code;
}

const codes = await Promise.all(Array.from({ length: shards }, (_, i) => shard(i + 1)));
const failed = codes.findIndex((code) => code !== 0);
if (failed >= 0) {
  if (shards > 1) console.error(`e2e shard ${failed + 1}/${shards} failed (exit ${codes[failed]})`);
  process.exit(codes[failed]);
}
