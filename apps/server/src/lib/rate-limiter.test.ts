import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './rate-limiter.ts';

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function recordingLogger() {
  const lines: string[] = [];
  return {
    lines,
    warn: (m: string) => lines.push(`warn ${m}`),
    info: (m: string) => lines.push(`info ${m}`),
  };
}

async function concurrentHits(limiter: RateLimiter, key: string, n: number, max: number): Promise<number> {
  const states = await Promise.all(Array.from({ length: n }, () => limiter.hit(key, 60)));
  return states.filter((s) => s.count <= max).length;
}

describe('memory rate limiter', () => {
  it('counts before it answers, so concurrent callers never all get under the limit', async () => {
    const limiter = new MemoryRateLimiter();
    expect(await concurrentHits(limiter, 'k', 300, 10)).toBe(10);
  });

  it('gives back a reserved attempt with undo', async () => {
    const limiter = new MemoryRateLimiter();
    await limiter.hit('k', 60);
    await limiter.hit('k', 60);
    await limiter.undo('k');
    expect((await limiter.peek('k')).count).toBe(1);
  });
});

describe('Redis rate limiter with Redis unavailable', () => {
  const opened: RateLimiter[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((l) => l.close()));
  });

  it('answers every call within a second from a local limiter, and says so once', async () => {
    const logger = recordingLogger();
    const limiter = RedisRateLimiter.connect(`redis://127.0.0.1:${await closedPort()}`, { logger });
    opened.push(limiter);
    const started = performance.now();
    const states = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      states.push(await limiter.hit('login:x', 60));
      expect(performance.now() - t0).toBeLessThan(1000);
    }
    await limiter.undo('login:x');
    await limiter.reset('other');
    expect((await limiter.peek('login:x')).count).toBe(4);
    expect(states.map((s) => s.count)).toEqual([1, 2, 3, 4, 5]);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(limiter.isLocal).toBe(true);
    expect(
      logger.lines.filter((l) => l.includes('rate limits are local while Redis is unavailable')),
    ).toHaveLength(1);
  });
});

describe.runIf(process.env.REDIS_URL)('Redis rate limiter on a live Redis', () => {
  it('is atomic across concurrent callers and shared between limiters', async () => {
    const prefix = `fv:test:rl:${randomBytes(4).toString('hex')}:`;
    const a = RedisRateLimiter.connect(process.env.REDIS_URL as string, { prefix });
    const b = RedisRateLimiter.connect(process.env.REDIS_URL as string, { prefix });
    try {
      expect(await a.connected()).toBe(true);
      expect(await b.connected()).toBe(true);
      const [fromA, fromB] = await Promise.all([
        concurrentHits(a, 'k', 150, 10),
        concurrentHits(b, 'k', 150, 10),
      ]);
      expect(fromA + fromB).toBe(10);
      await a.undo('k');
      expect((await b.peek('k')).count).toBe(299);
      expect(a.isLocal).toBe(false);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

/** A TCP relay to the shared Redis that the test can take down and bring back on the same port. */
class Relay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: URL) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 6379), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

describe.runIf(process.env.REDIS_URL)('Redis rate limiter when Redis goes away and comes back', () => {
  it('falls back to local counts, then shares counts through Redis again', async () => {
    const relay = new Relay(new URL(process.env.REDIS_URL as string));
    await relay.start();
    const prefix = `fv:test:rl:${randomBytes(4).toString('hex')}:`;
    const logger = recordingLogger();
    const limiter = RedisRateLimiter.connect(`redis://127.0.0.1:${relay.port}`, { prefix, logger });
    const direct = RedisRateLimiter.connect(process.env.REDIS_URL as string, { prefix });
    try {
      expect(await limiter.connected()).toBe(true);
      expect(await direct.connected()).toBe(true);
      await limiter.hit('k', 60);
      expect((await direct.peek('k')).count).toBe(1);

      await relay.stop();
      const t0 = performance.now();
      const during = await limiter.hit('k', 60);
      expect(performance.now() - t0).toBeLessThan(1000);
      expect(during.count).toBe(1); // the local count, Redis is out of reach
      expect(limiter.isLocal).toBe(true);
      expect(logger.lines).toContain('warn rate limits are local while Redis is unavailable');

      await relay.start();
      expect(await limiter.connected(5000)).toBe(true);
      await limiter.hit('k', 60);
      expect((await direct.peek('k')).count).toBe(2);
      expect(limiter.isLocal).toBe(false);
      expect(logger.lines).toContain('info rate limits are shared through Redis again');
    } finally {
      await limiter.close();
      await direct.close();
      await relay.stop();
    }
  });
});
