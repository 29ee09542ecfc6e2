import { LRUCache } from 'lru-cache';
import type { Database, ListenedChannel } from '../db/client.ts';

/** Where a cache hears the database's announcements (db/client.ts `Database`). */
export type Announcements = Pick<Database, 'onNotify' | 'listening'>;

export interface AnnouncedCacheOptions<K, V> {
  /** The channel whose announcements (a user id each) make the cache forget that user's entries. */
  channel: ListenedChannel;
  max: number;
  /** A safety net only: changes are announced at once. */
  ttlMs: number;
  /** The user an entry belongs to (what announcements name). */
  ownerOf: (value: V, key: K) => string;
  /** Bounds the entries' total size (e.g. ids held) besides their number. */
  size?: { max: number; of: (value: V) => number };
}

/**
 * Values read from the database, kept by this server copy and forgotten as soon as the database
 * announces a change to them (ADR 0047): triggers `pg_notify(channel, user id)` after the commit,
 * every pooled connection of every copy listens, and the copy that wrote a change hears it before
 * its write returns. Safe only while announcements cannot be missed: while no connection listens
 * the cache empties and is bypassed, and a load that an announcement overtook is not kept.
 */
export class AnnouncedCache<K extends {}, V extends {}> {
  private readonly entries: LRUCache<K, V>;
  /** Each user's keys: an announcement costs that user's entries, not a walk of the cache. */
  private readonly byOwner = new Map<string, Set<K>>();
  /** Counts announcements: a load that started before one may hold what it changed. */
  private epoch = 0;

  constructor(
    private readonly database: Announcements,
    private readonly options: AnnouncedCacheOptions<K, V>,
  ) {
    this.entries = new LRUCache<K, V>({
      max: options.max,
      ttl: options.ttlMs,
      ...(options.size
        ? { maxSize: options.size.max, sizeCalculation: (v: V) => options.size!.of(v) || 1 }
        : {}),
      dispose: (value, key) => this.unindex(options.ownerOf(value, key), key),
    });
    database.onNotify(options.channel, {
      message: (owner) => this.forget(owner),
      lost: () => this.forgetAll(),
    });
  }

  /**
   * The value of `key`: from memory when it is safe to and `usable` accepts it, else `load`ed (and
   * kept when nothing was announced meanwhile). An undefined load is not kept.
   */
  async get(key: K, load: () => Promise<V | undefined>, usable: (value: V) => boolean = () => true) {
    if (!this.database.listening()) {
      this.entries.clear();
      return load();
    }
    const hit = this.entries.get(key);
    if (hit && usable(hit)) return hit;
    const epoch = this.epoch;
    const found = await load();
    if (found && epoch === this.epoch && this.database.listening()) {
      this.entries.set(key, found);
      const owner = this.options.ownerOf(found, key);
      const keys = this.byOwner.get(owner) ?? new Set<K>();
      this.byOwner.set(owner, keys.add(key));
    }
    return found;
  }

  /** Forgets the entries of one user (what an announcement does). */
  forget(owner: string): void {
    this.epoch++;
    for (const key of this.byOwner.get(owner) ?? []) this.entries.delete(key);
  }

  forgetAll(): void {
    this.epoch++;
    this.entries.clear();
  }

  private unindex(owner: string, key: K): void {
    const keys = this.byOwner.get(owner);
    keys?.delete(key);
    if (keys?.size === 0) this.byOwner.delete(owner);
  }
}
