import { createServer } from 'node:http';
import net from 'node:net';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { TcpProxy } from '../../test/tcp-proxy.ts';
import { createResilientRedisAdapter } from './redis-adapter.ts';

/**
 * The adapter and ioredis send (un)subscribe commands without awaiting them: at construction,
 * on every reconnection (ioredis's auto-resubscribe) and on close. When Redis goes away while one
 * is queued or in flight, its promise rejects with "Connection is closed"; nothing may reach the
 * process as an unhandled rejection (CI saw two after the Redis outage test).
 */
const url = process.env.REDIS_URL;
const quiet = { warn() {}, info() {} };

describe.skipIf(!url)('the resilient Redis adapter', () => {
  const unhandled: unknown[] = [];
  const collect = (reason: unknown) => unhandled.push(reason);
  let proxy: TcpProxy | undefined;

  afterEach(async () => {
    process.off('unhandledRejection', collect);
    await proxy?.close();
  });

  const settle = () => new Promise((r) => setTimeout(r, 300));

  it('closes while Redis is away, with subscriptions queued, without an unhandled rejection', async () => {
    process.on('unhandledRejection', collect);
    proxy = await TcpProxy.start(url as string);
    const target = proxy.url(url as string);
    await proxy.cut();
    const redis = createResilientRedisAdapter(target, quiet);
    const io = new Server(createServer());
    io.adapter(redis.adapter);
    io.of('/chat');
    await settle();
    await io.close();
    await redis.close();
    await settle();
    expect(unhandled).toEqual([]);
  });

  it('closes while connected to a Redis that has not answered yet without an unhandled rejection', async () => {
    process.on('unhandledRejection', collect);
    // Accepts the connection and never answers: ioredis stays "connect" (its ready check waits),
    // so the adapter's subscriptions sit in the offline queue and are flushed by the close.
    const silent = net.createServer((socket) => socket.on('data', () => {}));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const redis = createResilientRedisAdapter(`redis://127.0.0.1:${port}`, quiet);
      const io = new Server(createServer());
      io.adapter(redis.adapter);
      await settle();
      await io.close();
      await redis.close();
      await settle();
      expect(unhandled).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
