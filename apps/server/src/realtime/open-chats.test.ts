import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { TcpProxy } from '../../test/tcp-proxy.ts';
import { localOpenChats, type OpenChats, redisOpenChats } from './open-chats.ts';

/**
 * Which chats are open decides whether a message is read at once or counted unread with a
 * notification (message.service). With Redis the copies share it; these run against a real Redis
 * where REDIS_URL is set (CI), the single-copy registry everywhere.
 */
const url = process.env.REDIS_URL;

describe('open chats of one server copy', () => {
  it('counts each socket: a chat stays open until its last socket closes it', async () => {
    const chats = localOpenChats();
    const [fan, creator] = [randomUUID(), randomUUID()];
    expect(await chats.isOpen(creator, fan)).toBe(false);
    await chats.open(creator, fan);
    await chats.open(creator, fan);
    await chats.close(creator, fan);
    expect(await chats.isOpen(creator, fan)).toBe(true);
    expect(await chats.isOpen(fan, creator)).toBe(false);
    await chats.close(creator, fan);
    expect(await chats.isOpen(creator, fan)).toBe(false);
  });
});

describe.skipIf(!url)('open chats shared by the copies through Redis', () => {
  const clients: Redis[] = [];
  const registries: OpenChats[] = [];
  let proxy: TcpProxy | undefined;
  const client = (target = url as string) => {
    const redis = new Redis(target, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    clients.push(redis);
    return redis;
  };
  const copy = (options?: Parameters<typeof redisOpenChats>[1], redis = client()) => {
    const chats = redisOpenChats(redis, options);
    registries.push(chats);
    return chats;
  };
  const ready = (redis: Redis) =>
    redis.status === 'ready' ? Promise.resolve() : new Promise((r) => redis.once('ready', r));
  const pair = () => [randomUUID(), randomUUID()] as const;

  afterEach(async () => {
    for (const chats of registries.splice(0)) await chats.stop();
    for (const redis of clients.splice(0)) redis.disconnect();
    await proxy?.close();
    proxy = undefined;
  });

  it('a chat opened on one copy is open for the other until its last socket there closes it', async () => {
    const [a, b] = [copy(), copy()];
    await Promise.all(clients.map(ready));
    const [creator, fan] = pair();
    expect(await b.isOpen(creator, fan)).toBe(false);
    await a.open(creator, fan);
    await a.open(creator, fan);
    expect(await b.isOpen(creator, fan)).toBe(true);
    expect(await b.isOpen(fan, creator)).toBe(false);
    await a.close(creator, fan);
    expect(await b.isOpen(creator, fan)).toBe(true);
    await a.close(creator, fan);
    expect(await b.isOpen(creator, fan)).toBe(false);
  });

  it('two copies with the same chat open: it closes only when both have closed it', async () => {
    const [a, b, c] = [copy(), copy(), copy()];
    await Promise.all(clients.map(ready));
    const [creator, fan] = pair();
    await a.open(creator, fan);
    await b.open(creator, fan);
    await a.close(creator, fan);
    expect(await c.isOpen(creator, fan)).toBe(true);
    await b.close(creator, fan);
    expect(await c.isOpen(creator, fan)).toBe(false);
  });

  it('a copy that stopped without withdrawing stops counting once its claim lapses', async () => {
    const a = copy();
    // The asking copy's clock is past the claim's lifetime (90 s): the claim has lapsed for it.
    const later = copy({ now: () => Date.now() + 91_000 });
    const now = copy();
    await Promise.all(clients.map(ready));
    const [creator, fan] = pair();
    await a.open(creator, fan);
    expect(await now.isOpen(creator, fan)).toBe(true);
    expect(await later.isOpen(creator, fan)).toBe(false);
  });

  it('renews its claims while the chat stays open', async () => {
    const a = copy({ ttlMs: 300 });
    const b = copy();
    await Promise.all(clients.map(ready));
    const [creator, fan] = pair();
    await a.open(creator, fan);
    await new Promise((r) => setTimeout(r, 900));
    expect(await b.isOpen(creator, fan)).toBe(true);
  });

  it('stopping withdraws every claim of the copy', async () => {
    const [a, b] = [copy(), copy()];
    await Promise.all(clients.map(ready));
    const [creator, fan] = pair();
    await a.open(creator, fan);
    await a.stop();
    expect(await b.isOpen(creator, fan)).toBe(false);
  });

  it('while Redis is away a chat open elsewhere counts as closed, and is claimed again once it is back', async () => {
    proxy = await TcpProxy.start(url as string);
    const throughProxy = client(proxy.url(url as string));
    const a = copy({ ttlMs: 600 }, throughProxy);
    const b = copy();
    await Promise.all(clients.map(ready));
    const [creator, fan] = pair();
    await proxy.cut();
    await a.open(creator, fan);
    expect(await a.isOpen(creator, fan)).toBe(true);
    expect(await b.isOpen(creator, fan)).toBe(false);
    await proxy.restore();
    await ready(throughProxy);
    // The next renewal (every ttl / 3) claims it again.
    await expect.poll(() => b.isOpen(creator, fan), { timeout: 3_000 }).toBe(true);
  });
});
