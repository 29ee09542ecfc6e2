import { RedisAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';

/** How long a count of the server copies is reused (ms). */
const SERVER_COUNT_TTL_MS = 1_000;

/** Reports Redis going away and coming back, once each (not once per reconnection attempt). */
export interface RedisLinkLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * The Socket.IO Redis adapter made to live through a Redis outage:
 * - publishing never queues nor rejects: while Redis is away an event reaches this copy's own
 *   sockets only (the adapter delivers locally itself) and is dropped for the other copies; the
 *   adapter publishes without catching, so a rejected publish would be an unhandled rejection;
 * - questions to every copy (which sockets are in a room) are answered by this copy alone while
 *   Redis is away, instead of waiting for answers that cannot come;
 * - the subscriber keeps its queue and reconnects forever; ioredis subscribes again on reconnect,
 *   so events from other copies arrive again by themselves once Redis is back;
 * - (un)subscribing never rejects unhandled: the adapter (at construction and on close) and ioredis
 *   (on reconnecting) send these commands without awaiting them, and a connection closed while one
 *   is queued or in flight rejects it with "Connection is closed".
 */
export function createResilientRedisAdapter(url: string, log: RedisLinkLog) {
  // Auto-pipelining: the publishes made in one turn of the event loop (a message's events to both
  // parties, and those of every request handled in that turn) go to Redis in one write, not one
  // system call each (issue 13, docs/benchmarks.md "Realtime").
  const pub = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    enableAutoPipelining: true,
  });
  const sub = new Redis(url, { maxRetriesPerRequest: null });
  const rawPublish = pub.publish.bind(pub) as (channel: string, message: string | Buffer) => Promise<number>;
  Object.assign(pub, {
    publish: (channel: string, message: string | Buffer): Promise<number> =>
      pub.status === 'ready' ? rawPublish(channel, message).catch(() => 0) : Promise.resolve(0),
  });

  for (const name of ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'] as const) {
    const raw = sub[name].bind(sub) as (...args: unknown[]) => Promise<unknown>;
    // An instance property: ioredis's own resubscription looks the method up on the instance too.
    Object.assign(sub, { [name]: (...args: unknown[]) => raw(...args).catch(() => 0) });
  }

  let away = false;
  const lost = (err: Error) => {
    if (away) return;
    away = true;
    log.warn({ err: { message: err.message } }, 'Redis unavailable: live events reach this copy only');
  };
  for (const client of [pub, sub]) client.on('error', lost);
  sub.on('ready', () => {
    if (!away) return;
    away = false;
    log.info({}, 'Redis is back: live events reach every copy again');
  });

  class ResilientRedisAdapter extends RedisAdapter {
    constructor(nsp: unknown) {
      // An answer (a live's viewers, a user's sockets) goes to the copy that asked, not to every copy.
      super(nsp, pub, sub, { requestsTimeout: 2_000, publishOnSpecificResponseChannel: true });
    }

    private counted?: { at: number; count: Promise<number> };

    /**
     * How many copies answer a question to every copy (`serverSideEmit` with an answer waits for
     * that many). Asked of Redis at most once a second rather than before every question: a copy
     * that just started may be missed for that second (its answer is not awaited), and one that
     * just stopped is waited for until the request's timeout.
     */
    override async serverCount(): Promise<number> {
      if (pub.status !== 'ready') return 1;
      const now = Date.now();
      if (!this.counted || now - this.counted.at >= SERVER_COUNT_TTL_MS) {
        this.counted = { at: now, count: super.serverCount().catch(() => 1) };
      }
      return this.counted.count;
    }
  }

  return {
    /** For `io.adapter()`, which constructs one per namespace. */
    adapter: ResilientRedisAdapter,
    /** Commands for state the copies share (open chats): fail fast while Redis is away. */
    commands: pub,
    /** Whether events currently reach the other copies. */
    connected: () => pub.status === 'ready' && sub.status === 'ready',
    async close(): Promise<void> {
      for (const client of [pub, sub]) {
        // quit waits for Redis; while it is away, just drop the connection.
        if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
        else client.disconnect();
      }
    },
  };
}
