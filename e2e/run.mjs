// npm run test:e2e — builds the web app and runs the Playwright journeys in Debian's Chromium.
// Without Chromium it says so loudly and skips only the browser part (CI installs Chromium, so
// there a missing browser is a failure).
import { spawnSync } from 'node:child_process';
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

/** A free port on loopback, so several runs on one machine don't collide. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

run('npm', ['run', 'build']);
// The home page's JavaScript against its budget (issue 13), on the build just made.
run('node', ['scripts/web-budget.mjs']);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-e2e-'));
const port = process.env.E2E_PORT ?? String(await freePort());
const rtmpPort = process.env.E2E_RTMP_PORT ?? String(await freePort());
const oidcPort = process.env.E2E_OIDC_PORT ?? String(await freePort());
// The journeys' server runs on the embedded store, as `npm start` does, even when the server suite
// of the same `npm test` runs on PostgreSQL and Redis (CI sets DATABASE_URL and REDIS_URL).
const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
try {
  const r = spawnSync(
    'npx',
    ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: {
        ...inherited,
        E2E_DATA_DIR: dataDir,
        E2E_PORT: port,
        E2E_RTMP_PORT: rtmpPort,
        E2E_OIDC_PORT: oidcPort,
      },
    },
  );
  if (r.status !== 0) process.exitCode = r.status ?? 1;
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
