import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { openSocket, record, type TestSocket, until } from '../../test/sockets.ts';
import { TcpProxy } from '../../test/tcp-proxy.ts';
import { MemoryRateLimiter } from '../lib/rate-limiter.ts';

/**
 * Redis going away under two server copies: they reach Redis through a relay the test cuts, so
 * the Redis every other test shares stays up. Rate limits are kept in memory here (their own
 * fallback is tested with the limiter): this is about live delivery.
 */
const shared = !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

describe.skipIf(!shared)('Redis outage under two server copies', () => {
  let proxy: TcpProxy;
  let one: TestApp;
  let two: TestApp;
  let base1: string;
  let base2: string;
  let twoClosed = false;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    proxy = await TcpProxy.start(process.env.REDIS_URL as string);
    const env = { REDIS_URL: proxy.url(process.env.REDIS_URL as string) };
    one = await createTestApp(env, { limiter: new MemoryRateLimiter() });
    two = await createTestApp(env, { databaseUrl: one.databaseUrl, limiter: new MemoryRateLimiter() });
    base1 = await one.app.listen({ port: 0, host: '127.0.0.1' });
    base2 = await two.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await proxy?.restore().catch(() => {});
    if (twoClosed) await two.database.close();
    else await two?.stop();
    await one?.stop();
    await proxy?.close();
  });

  it('keeps answering and delivering within a copy while Redis is away, and across copies once it is back', async () => {
    const creator = await createUser(one, { roles: ['user', 'creator'], verified: true });
    const fan = await createUser(one);
    const onOne = record(await openSocket(base1, creator.token, sockets), 'message');
    const onTwo = record(await openSocket(base2, creator.token, sockets), 'message');
    await until(() => one.realtime.linked() && two.realtime.linked());
    let n = 0;
    const send = () =>
      one.call(
        'message.send',
        { to: creator.username, message: `m${++n}`, messageUUID: `r-${Date.now()}-${n}` },
        {
          token: fan.token,
        },
      );

    expect((await send()).status).toBe(200);
    await until(() => onOne.length === 1 && onTwo.length === 1);

    await proxy.cut();
    await until(() => !one.realtime.linked() && !two.realtime.linked());
    const started = Date.now();
    const during = await send();
    expect(during.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    // Same copy: delivered without Redis.
    await until(() => onOne.length === 2);
    // A socket still connects and a request on the other copy still answers.
    await openSocket(base2, fan.token, sockets);
    expect((await two.call('wallet.get', undefined, { token: fan.token })).status).toBe(200);

    await proxy.restore();
    await until(() => one.realtime.linked() && two.realtime.linked());
    const before = onTwo.length;
    // Each copy subscribes again on reconnecting; resend until the subscription is in place.
    await until(async () => {
      if (onTwo.length > before) return true;
      expect((await send()).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      return onTwo.length > before;
    });
    expect(onTwo.at(-1)?.message.message).toMatch(/^m\d+$/);
  });

  it('shuts down while Redis is away without an unhandled rejection', async () => {
    await proxy.cut();
    await until(() => !two.realtime.linked());
    twoClosed = true;
    await two.close();
  });
});
