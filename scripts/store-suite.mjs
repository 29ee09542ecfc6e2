// The server suite's store pass (ADR 0051): the test files whose outcome depends on which store
// the server runs on. `.ci/run` runs the whole suite on PostgreSQL and Redis (`npm test` with
// DATABASE_URL and REDIS_URL), then these files again on PGlite, the embedded store of `npm start`
// (this script without those variables); with them set, it runs these files on PostgreSQL.
//
// A file belongs here when it tests what differs between PGlite (one connection, everything in one
// process) and PostgreSQL with Redis (a pool, real concurrency, other copies): the database
// client, the job queue, realtime across copies, the rate limiter, caches other copies invalidate,
// requests raced against a limit (money, codes, handles), or query plans.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const STORE_SUITE = [
  // The database client, its outages and statement checks; the job queue (pg-boss), killed
  // workers and two copies; sockets across copies over Redis; the rate limiter and secrets;
  // shutdown with work in flight.
  'apps/server/src/db/',
  'apps/server/src/jobs/',
  'apps/server/src/realtime/',
  'apps/server/src/lib/',
  'apps/server/src/shutdown.test.ts',
  'apps/server/src/http/metrics.test.ts',
  // Money: ledgers, payments, subscriptions and offers, sales statistics, raced charges.
  'apps/server/src/payments/',
  'apps/server/src/modules/wallet/',
  'apps/server/src/modules/billing/',
  'apps/server/src/modules/subscriptions/',
  'apps/server/src/modules/statistics/',
  // Limits raced by concurrent requests (passwords, codes, confirmations) and the session cache
  // other copies invalidate.
  'apps/server/src/modules/auth/',
  'apps/server/src/modules/users/handles.test.ts',
  'apps/server/src/modules/users/admin-creator.test.ts',
  // Messages and notifications (batched writes, delivery across copies), lives on two copies.
  'apps/server/src/modules/messages/',
  'apps/server/src/modules/notifications/',
  'apps/server/src/modules/lives/live-copies.test.ts',
  // Reads that cache what another copy writes, and the hot queries' statements and plans.
  'apps/server/src/modules/creators/viewer-relations.test.ts',
  'apps/server/src/modules/posts/feed-totals.test.ts',
  'apps/server/src/modules/posts/viewer-state.test.ts',
  'apps/server/src/modules/posts/post-media.test.ts',
  'apps/server/test/hot-queries.test.ts',
];

const missing = STORE_SUITE.filter((entry) => !fs.existsSync(entry));
if (missing.length) {
  console.error(`scripts/store-suite.mjs names files that are not there: ${missing.join(', ')}`);
  process.exit(1);
}
const run = spawnSync('vitest', ['run', '--project', 'server', ...STORE_SUITE, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
