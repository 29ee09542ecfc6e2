import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/sockets.ts';
import { TcpProxy } from '../../test/tcp-proxy.ts';
import { isDatabaseUnavailable } from './errors.ts';

/**
 * The database going away under a running app (a PostgreSQL restart ends every connection, then
 * refuses new ones for a while). The app reaches PostgreSQL through a relay the test cuts, so the
 * shared server stays up for other tests. PostgreSQL only: PGlite runs in-process.
 */
describe.skipIf(!process.env.DATABASE_URL)('database outage', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  const lost: Error[] = [];

  beforeAll(async () => {
    const created = await createTestDatabase();
    await created.close();
    proxy = await TcpProxy.start(created.url as string);
    t = await createTestApp({}, { databaseUrl: proxy.url(created.url as string) });
    t.database.onConnectionError((err) => lost.push(err));
  });
  afterAll(async () => {
    await proxy?.restore().catch(() => {});
    await t?.stop();
    await proxy?.close();
  });

  it('answers 503 with Retry-After while the database is away, says not ready, and serves again by itself', async () => {
    const fan = await createUser(t);
    expect((await t.call('wallet.get', undefined, { token: fan.token })).status).toBe(200);

    // A connection checked out between two queries (as in a transaction) when the database goes.
    let inSession: Promise<unknown> | undefined;
    const checkedOut = new Promise<void>((resolve) => {
      inSession = t.database
        .session(async (exec) => {
          await exec('select 1');
          resolve();
          await until(() => lost.length > 0);
          await exec('select 1');
        })
        .catch((err: unknown) => err);
    });
    await checkedOut;
    await proxy.cut();
    // The lost connections were reported, not thrown as an unhandled 'error' event.
    await until(() => lost.length > 0);
    expect(isDatabaseUnavailable(await inSession)).toBe(true);

    const away = await t.call('wallet.get', undefined, { token: fan.token });
    expect(away.status).toBe(503);
    expect(away.body.code).toBe('DATABASE_UNAVAILABLE');
    expect(away.headers['retry-after']).toBe('5');
    const awayEs = await t.call('wallet.get', undefined, { token: fan.token, lang: 'es' });
    expect(awayEs.body.message).toMatch(/no está disponible/);
    const login = await t.call('auth.login', { login: fan.username, password: 'wrong-password-1' });
    expect(login.status).toBe(503);

    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    await proxy.restore();
    await until(async () => (await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200);
    const back = await t.call('wallet.get', undefined, { token: fan.token });
    expect(back.status).toBe(200);
  });

  it('tells a database that is away from a query that is wrong', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(
      true,
    );
    expect(
      isDatabaseUnavailable(
        new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })])),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))).toBe(
      false,
    );
  });
});
