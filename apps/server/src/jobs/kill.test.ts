import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser, subscribe } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';

/**
 * A real server process (apps/server/src/main.ts) killed with SIGKILL in the middle of a mass
 * message to 500 subscribers, then started again: every subscriber ends with exactly one message.
 * The job survives in pg-boss; the restarted copy retries it once its expiry (JOBS_EXPIRE_SECONDS)
 * says its worker died. Runs on PostgreSQL (the test reads the database while the server runs).
 */
const url = process.env.DATABASE_URL;
const root = path.resolve(import.meta.dirname, '../../../..');
const children: ChildProcess[] = [];

function startServer(databaseUrl: string): ChildProcess {
  const child = spawn(
    path.join(root, 'node_modules/.bin/node'),
    ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'fv-kill-')),
        PORT: '0',
        SEED_DEMO: 'false',
        DEV_OUTBOX: 'true',
        LOG_LEVEL: 'silent',
        JOBS_EXPIRE_SECONDS: '3',
      },
      stdio: 'ignore',
    },
  );
  children.push(child);
  return child;
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

describe.skipIf(!url)('killing the server in the middle of background work', () => {
  it('a mass message to 500 subscribers reaches each exactly once after SIGKILL and a restart', async () => {
    // Prepare the store and queue the mass message with a copy that has no workers.
    const t = await createTestApp({ JOBS_WORKERS: 'false', JOBS_EXPIRE_SECONDS: '3' });
    const databaseUrl = t.databaseUrl!;
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const fans = [];
    for (let i = 0; i < 500; i++) fans.push(await createUser(t));
    for (const f of fans) await subscribe(t, f.id, creator.id);
    const sent = await t.call(
      'message.mass',
      { message: 'To all 500', messageUUID: 'kill-1' },
      { token: creator.token },
    );
    expect(sent.body).toEqual({ success: true, sent: 500 });
    await t.stop();

    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    const count = async () =>
      Number(
        (await pool.query(`SELECT count(*)::int AS n FROM messages WHERE from_id = $1`, [creator.id])).rows[0]
          .n,
      );
    try {
      const first = startServer(databaseUrl);
      await until(async () => (await count()) > 0, 120_000);
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));
      const atKill = await count();
      expect(atKill).toBeGreaterThan(0);
      expect(atKill).toBeLessThan(500);

      startServer(databaseUrl);
      await until(async () => (await count()) === 500, 120_000);
      const perFan = await pool.query(
        `SELECT to_id, count(*)::int AS n FROM messages WHERE from_id = $1 GROUP BY to_id`,
        [creator.id],
      );
      expect(perFan.rows).toHaveLength(500);
      expect(perFan.rows.every((r) => r.n === 1)).toBe(true);
    } finally {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
      await pool.end();
    }
  }, 300_000);
});
