import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { openSocket, type TestSocket, until } from '../test/sockets.ts';

/** GET over a connection of its own (node:http), answering status and body. */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/**
 * Graceful shutdown: a request held in the database (a table lock another connection keeps) is
 * in flight when the app is closed. PostgreSQL only: the lock needs a second connection.
 */
describe.skipIf(!process.env.DATABASE_URL)('graceful shutdown', () => {
  let t: TestApp;
  let base: string;
  let locker: pg.Client;
  let admin: pg.Client;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    locker = new pg.Client({ connectionString: t.databaseUrl });
    admin = new pg.Client({ connectionString: t.databaseUrl });
    await Promise.all([locker.connect(), admin.connect()]);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await locker?.end().catch(() => {});
    await admin?.end().catch(() => {});
    await t.database.close();
  });

  it('closes sockets, stops accepting, and finishes the request in flight before it resolves', async () => {
    const fan = await createUser(t);
    const socket = await openSocket(base, fan.token, sockets);
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    await locker.query('BEGIN; LOCK TABLE wallets IN ACCESS EXCLUSIVE MODE');
    const inFlight = get(`${base}/api/v1/wallet`, { a1sledom: fan.token });
    await until(async () => {
      const { rows } = await admin.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return rows.length > 0;
    });

    let closed = false;
    const closing = t.close().then(() => {
      closed = true;
    });
    expect(await disconnected).toBe('io server disconnect');
    // New connections are refused while the request in flight still waits.
    await until(() =>
      get(`${base}/healthz`, {}).then(
        () => false,
        (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED',
      ),
    );
    expect(closed).toBe(false);

    await locker.query('COMMIT');
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toMatchObject({ credits: 0 });
    await closing;
    expect(closed).toBe(true);
  });
});
