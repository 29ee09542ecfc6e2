import { Redis } from 'ioredis';
import { AppError } from '../http/app-error.ts';

export interface RateState {
  count: number;
  /** Milliseconds until the window resets. */
  resetInMs: number;
}

/**
 * Fixed-window counters keyed by purpose and subject (address or account). In memory for one
 * process; in Redis when REDIS_URL is set, so every server copy shares the same counts.
 *
 * `hit` counts first and answers the new count in one atomic step (a JS turn in memory, a Lua
 * script in Redis): callers reserve an attempt with it and then compare the count with their
 * limit, so concurrent requests can never all pass a check made before any of them counted.
 */
export interface RateLimiter {
  hit(key: string, windowSeconds: number): Promise<RateState>;
  peek(key: string): Promise<RateState>;
  /** Gives back one reserved attempt (e.g. the attempt turned out not to be a failure). */
  undo(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/** The 429 of a limit that was reached, with Retry-After (whole seconds, at least 1). */
export function rateLimited(
  code: 'RATE_LIMITED' | 'COMMENT_RATE_LIMITED' | 'MESSAGE_RATE_LIMITED',
  resetInMs: number,
): AppError {
  const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
  return new AppError(code, { seconds }, undefined, { 'retry-after': String(seconds) });
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = Date.now();

  async hit(key: string, windowSeconds: number): Promise<RateState> {
    const now = Date.now();
    this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { count: w.count, resetInMs: w.resetAt - now };
  }

  async peek(key: string): Promise<RateState> {
    const now = Date.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) return { count: 0, resetInMs: 0 };
    return { count: w.count, resetInMs: w.resetAt - now };
  }

  async undo(key: string): Promise<void> {
    const w = this.windows.get(key);
    if (w && w.count > 0) w.count -= 1;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}

const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {c, redis.call('PTTL', KEYS[1])}`;

const UNDO_SCRIPT = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** The client with the scripts defined on it (`defineCommand`). */
type ScriptedRedis = Redis & {
  fvHit(key: string, windowMs: number): Promise<[number, number]>;
  fvUndo(key: string): Promise<unknown>;
};

/** The part of a logger the limiter uses (pino's, or a test's). */
export interface LimiterLogger {
  warn(msg: string): void;
  info(msg: string): void;
}

export interface RedisLimiterOptions {
  prefix?: string;
  logger?: LimiterLogger;
  /** Longest wait for one Redis call before the local limiter answers instead (ms). */
  timeoutMs?: number;
}

/**
 * Counters in Redis, shared by every server copy. When Redis is down or slow, every call answers
 * from an in-memory limiter instead (logged once: "rate limits are local while Redis is
 * unavailable"), so a request never waits for Redis longer than `timeoutMs`; when Redis is back
 * the counters are shared again.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly prefix: string;
  private readonly local = new MemoryRateLimiter();
  private readonly logger: LimiterLogger | undefined;
  private usingLocal = false;

  constructor(
    private readonly redis: Redis,
    options: Omit<RedisLimiterOptions, 'timeoutMs'> = {},
  ) {
    this.prefix = options.prefix ?? 'fv:rl:';
    this.logger = options.logger;
    // The scripts run by their SHA (EVALSHA), their text sent only when Redis does not know it yet.
    redis.defineCommand('fvHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    redis.defineCommand('fvUndo', { numberOfKeys: 1, lua: UNDO_SCRIPT });
    // Without a listener an 'error' event would crash the process.
    redis.on('error', () => this.toLocal());
    redis.on('ready', () => this.toShared());
  }

  static connect(url: string, options: RedisLimiterOptions = {}): RedisRateLimiter {
    const timeoutMs = options.timeoutMs ?? 500;
    const redis = new Redis(url, {
      // Fail fast instead of queueing or retrying: the local limiter answers meanwhile.
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      retryStrategy: (times) => Math.min(times * 200, 2000),
      lazyConnect: false,
      // The counts asked in one turn of the event loop go to Redis in one write.
      enableAutoPipelining: true,
    });
    return new RedisRateLimiter(redis, options);
  }

  async hit(key: string, windowSeconds: number): Promise<RateState> {
    return this.shared(
      async () => {
        const [count, ttl] = await (this.redis as ScriptedRedis).fvHit(
          this.prefix + key,
          windowSeconds * 1000,
        );
        return { count, resetInMs: Math.max(ttl, 0) };
      },
      () => this.local.hit(key, windowSeconds),
    );
  }

  async peek(key: string): Promise<RateState> {
    return this.shared(
      async () => {
        const [count, ttl] = await Promise.all([
          this.redis.get(this.prefix + key),
          this.redis.pttl(this.prefix + key),
        ]);
        return { count: Number(count ?? 0), resetInMs: Math.max(ttl, 0) };
      },
      () => this.local.peek(key),
    );
  }

  async undo(key: string): Promise<void> {
    await this.shared(
      async () => {
        await (this.redis as ScriptedRedis).fvUndo(this.prefix + key);
      },
      () => this.local.undo(key),
    );
  }

  async reset(key: string): Promise<void> {
    await this.shared(
      async () => {
        await this.redis.del(this.prefix + key);
      },
      () => this.local.reset(key),
    );
  }

  /** Resolves once Redis answers (or after `timeoutMs`, leaving the local limiter in charge). */
  async connected(timeoutMs = 2000): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.redis.off('ready', onReady);
        resolve(false);
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.redis.once('ready', onReady);
    });
  }

  /** Whether the counters currently live in this process only. */
  get isLocal(): boolean {
    return this.usingLocal || this.redis.status !== 'ready';
  }

  async close(): Promise<void> {
    await this.local.close();
    if (this.redis.status === 'end') return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private async shared<T>(remote: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    if (this.redis.status !== 'ready') {
      this.toLocal();
      return local();
    }
    try {
      return await remote();
    } catch {
      this.toLocal();
      return local();
    }
  }

  private toLocal(): void {
    if (this.usingLocal) return;
    this.usingLocal = true;
    this.logger?.warn('rate limits are local while Redis is unavailable');
  }

  private toShared(): void {
    if (!this.usingLocal) return;
    this.usingLocal = false;
    this.logger?.info('rate limits are shared through Redis again');
  }
}
