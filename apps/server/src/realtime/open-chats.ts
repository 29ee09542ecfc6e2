import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Which chats are open on the devices connected to every server copy: whether a message is read
 * the moment it is stored (its receiver is looking at the chat) or counted unread with a
 * notification.
 *
 * Each copy counts its own sockets per (user, chat partner) and keeps, in Redis, one sorted set per
 * pair whose members are the copies that have it open, scored by when the claim lapses. A send asks
 * Redis one question (`ZRANGEBYSCORE`), answered by Redis alone. Before (issue 13), every send asked
 * every copy over pub/sub and waited for all their answers: a Redis round trip through each copy's
 * event loop before the message could be stored, and work for every copy on every message.
 *
 * A copy renews its claims every `ttlMs / 3` and each lapses after `ttlMs`, so a copy that dies
 * (no chance to withdraw) stops counting within `ttlMs`, and a Redis restart is repaired by the
 * next renewal. While Redis is away, or a claim has not reached it yet, a chat open on another copy
 * counts as closed: a spare notification, never a failed send or a message marked read unseen.
 */
export interface OpenChats {
  /** One more socket of this copy has `userId`'s chat with `withUserId` open (resolves once Redis has it). */
  open(userId: string, withUserId: string): Promise<void>;
  /** One socket fewer. */
  close(userId: string, withUserId: string): Promise<void>;
  /** Whether a device of `userId` on any copy has the chat with `withUserId` open. */
  isOpen(userId: string, withUserId: string): Promise<boolean>;
  /** Withdraws this copy's claims and stops renewing them. */
  stop(): Promise<void>;
}

/** How long a copy's claim that a chat is open lasts without renewal. */
export const OPEN_CHAT_TTL_MS = 90_000;

const pairKey = (userId: string, withUserId: string) => `fv:open-chat:${userId}:${withUserId}`;

/** This copy's sockets per open (user, partner) pair: what both registries count. */
class SocketCounts {
  private readonly counts = new Map<string, number>();
  /** One more socket; whether it is the pair's first. */
  add(key: string): boolean {
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count === 1;
  }
  /** One socket fewer; whether it was the pair's last. */
  remove(key: string): boolean {
    const left = (this.counts.get(key) ?? 0) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
    return left <= 0;
  }
  has(key: string): boolean {
    return this.counts.has(key);
  }
  /** Forgets every pair and answers their keys. */
  clear(): string[] {
    const keys = this.keys();
    this.counts.clear();
    return keys;
  }
  keys(): string[] {
    return [...this.counts.keys()];
  }
}

/** Open chats of this copy only (one server, no Redis). */
export function localOpenChats(): OpenChats {
  const local = new SocketCounts();
  return {
    async open(userId, withUserId) {
      local.add(pairKey(userId, withUserId));
    },
    async close(userId, withUserId) {
      local.remove(pairKey(userId, withUserId));
    },
    async isOpen(userId, withUserId) {
      return local.has(pairKey(userId, withUserId));
    },
    async stop() {
      local.clear();
    },
  };
}

/**
 * Open chats of every copy through Redis (`redis` should fail fast while Redis is away: no offline
 * queue). `now` is the clock claims are scored with; copies' clocks may differ by far less than the
 * claims' lifetime.
 */
export function redisOpenChats(
  redis: Redis,
  options: { ttlMs?: number; now?: () => number } = {},
): OpenChats {
  const ttlMs = options.ttlMs ?? OPEN_CHAT_TTL_MS;
  const now = options.now ?? Date.now;
  const copy = randomUUID();
  const local = new SocketCounts();
  const ignore = () => undefined;

  const claim = (keys: string[]) => {
    if (!keys.length) return Promise.resolve();
    const until = now() + ttlMs;
    const batch = redis.multi();
    for (const key of keys) batch.zadd(key, until, copy).pexpire(key, ttlMs);
    return batch.exec().then(ignore, ignore);
  };
  const renewal = setInterval(() => void claim(local.keys()), Math.max(10, Math.floor(ttlMs / 3)));
  renewal.unref();

  return {
    async open(userId, withUserId) {
      const key = pairKey(userId, withUserId);
      if (local.add(key)) await claim([key]);
    },
    async close(userId, withUserId) {
      const key = pairKey(userId, withUserId);
      if (local.remove(key)) await redis.zrem(key, copy).then(ignore, ignore);
    },
    async isOpen(userId, withUserId) {
      const key = pairKey(userId, withUserId);
      if (local.has(key)) return true;
      try {
        const live = await redis.zrangebyscore(key, `(${now()}`, '+inf', 'LIMIT', 0, 1);
        return live.length > 0;
      } catch {
        return false;
      }
    },
    async stop() {
      clearInterval(renewal);
      const keys = local.clear();
      if (!keys.length) return;
      const batch = redis.multi();
      for (const key of keys) batch.zrem(key, copy);
      await batch.exec().then(ignore, ignore);
    },
  };
}
