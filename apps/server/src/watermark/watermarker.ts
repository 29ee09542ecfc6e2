import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';
import sharp from 'sharp';
import type { Db } from '../db/client.ts';
import { liveServes, mediaServes, profiles, users, videoServes } from '../db/schema.ts';
import { CacheIndex } from './cache-index.ts';
import { type Detection, MAX_MARK_ID, WatermarkKey } from './mark.ts';
import type { MarkTask } from './mark.worker.ts';
import { VideoMarkKey } from './video-mark.ts';

/** How long another server copy may keep an owner's visible-mark setting. */
const VISIBLE_TTL_MS = 30_000;

export interface ServeRecord {
  markId: number;
  fanId: string;
  mediaId: string;
  servedAt: Date;
}

export interface WatermarkerDeps {
  db: Db;
  /** The server secret (ADR 0014): keys the patterns, so nobody else can read or forge a mark. */
  secret: string;
  cacheDir: string;
  cacheBytes: number;
  /** Shown in the visible mark before the handle, e.g. "fanverse.app". */
  siteName: string;
  logger?: { error(obj: unknown, msg?: string): void };
  /** Threads that mark and read pictures; defaults to one fewer than the machine's cores (at least 1). */
  threads?: number;
}

/**
 * The threads that embed and read marks. Marking is seconds of arithmetic for a large picture
 * (docs/watermark-benchmark.md), so it never runs on the event loop that serves everyone else.
 * Threads start on first use and stop after a minute idle. The worker is `mark.worker.ts` next to
 * this file when running from source (tsx, Vitest: Node strips the types) and `mark.worker.js`
 * next to the bundle in production (scripts/build.mjs builds it as a second entry).
 */
export class MarkPool {
  private readonly pool: Piscina<MarkTask, Uint8Array | Detection>;

  constructor(secret: string, threads = Math.max(1, os.availableParallelism() - 1)) {
    const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
    this.pool = new Piscina({
      filename: new URL(`./mark.worker.${ext}`, import.meta.url).href,
      workerData: { secret },
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
    });
  }

  async embed(input: Buffer, markId: number): Promise<Buffer> {
    const out = (await this.pool.run({ op: 'embed', input, markId })) as Uint8Array;
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  }

  async detect(input: Buffer): Promise<Detection> {
    return (await this.pool.run({ op: 'detect', input })) as Detection;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

export interface VideoServe {
  id: string;
  fanId: string;
  mediaId: string;
  servedAt: Date;
}

export interface LiveServe {
  id: string;
  fanId: string;
  liveId: string;
  servedAt: Date;
}

/**
 * A serve record made on first serve: the insert (nothing when the fan's row exists, unique per fan
 * and subject), else the existing row.
 */
async function firstServe<R>(insert: () => Promise<R[]>, existing: () => Promise<R[]>): Promise<R> {
  const [created] = await insert();
  if (created) return created;
  const [row] = await existing();
  if (!row) throw new Error('serve record vanished');
  return row;
}

/** What a marked copy is made from: the media row's owner and the rendition's bytes. */
export interface MarkSource {
  mediaId: string;
  ownerId: string;
  variant: string;
  read(): Promise<Buffer>;
}

/**
 * Per-fan marked copies of private pictures (ADR 0026): the serve record of (fan, file) gives the
 * mark id; the marked copy is cached on disk per fan, file and rendition (bounded, least recently
 * used go first) and made again on a miss.
 */
export class Watermarker {
  readonly key: WatermarkKey;
  /** The video mark's pattern, segment names and fans' codes (ADR 0041). */
  readonly videoKey: VideoMarkKey;
  private readonly cache: CacheIndex;
  /**
   * Each owner's visible-mark text (or null), so a cache hit costs no query. A change on this copy
   * is seen at once (`visibleChanged`); other copies see it within the TTL.
   */
  private readonly visibleByOwner = new LRUCache<string, { text: string | null }>({
    max: 10_000,
    ttl: VISIBLE_TTL_MS,
  });
  /** Copies being made, so concurrent requests for the same one make it once. */
  private readonly making = new Map<string, Promise<Buffer>>();
  private readonly pool: MarkPool;

  constructor(private readonly deps: WatermarkerDeps) {
    this.key = new WatermarkKey(deps.secret);
    this.videoKey = new VideoMarkKey(deps.secret);
    this.pool = new MarkPool(deps.secret, deps.threads);
    this.cache = new CacheIndex(deps.cacheDir, deps.cacheBytes);
  }

  /** The owner switched the visible mark on or off: their next copies follow it. */
  visibleChanged(ownerId: string): void {
    this.visibleByOwner.delete(ownerId);
  }

  /** Stops the marking threads (server shutdown). */
  close(): Promise<void> {
    return this.pool.close();
  }

  /** The fan's serve record of a file, created on first serve. */
  serveRecord(fanId: string, mediaId: string): Promise<ServeRecord> {
    const { db } = this.deps;
    return firstServe(
      () =>
        db
          .insert(mediaServes)
          .values({ fanId, mediaId })
          .onConflictDoNothing({ target: [mediaServes.fanId, mediaServes.mediaId] })
          .returning(),
      () =>
        db
          .select()
          .from(mediaServes)
          .where(and(eq(mediaServes.fanId, fanId), eq(mediaServes.mediaId, mediaId)))
          .limit(1),
    );
  }

  /** The fan's serve record of a marked video (its code picks their segments), made on first play. */
  videoServe(fanId: string, mediaId: string): Promise<VideoServe> {
    const { db } = this.deps;
    return firstServe(
      () =>
        db
          .insert(videoServes)
          .values({ fanId, mediaId })
          .onConflictDoNothing({ target: [videoServes.fanId, videoServes.mediaId] })
          .returning(),
      () =>
        db
          .select()
          .from(videoServes)
          .where(and(eq(videoServes.fanId, fanId), eq(videoServes.mediaId, mediaId)))
          .limit(1),
    );
  }

  /** Every serve record of a video (the tracer matches a copy's bits against their codes). */
  async videoServesOf(mediaId: string): Promise<VideoServe[]> {
    return this.deps.db.select().from(videoServes).where(eq(videoServes.mediaId, mediaId));
  }

  /** The viewer's serve record of a marked live (ADR 0045), made on their first playlist request. */
  liveServe(fanId: string, liveId: string): Promise<LiveServe> {
    const { db } = this.deps;
    return firstServe(
      () =>
        db
          .insert(liveServes)
          .values({ fanId, liveId })
          .onConflictDoNothing({ target: [liveServes.fanId, liveServes.liveId] })
          .returning(),
      () =>
        db
          .select()
          .from(liveServes)
          .where(and(eq(liveServes.fanId, fanId), eq(liveServes.liveId, liveId)))
          .limit(1),
    );
  }

  /** Every serve record of a live (the tracer matches a recording's bits against their codes). */
  async liveServesOf(liveId: string): Promise<LiveServe[]> {
    return this.deps.db.select().from(liveServes).where(eq(liveServes.liveId, liveId));
  }

  async record(markId: number): Promise<ServeRecord | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(mediaServes)
      .where(eq(mediaServes.markId, markId))
      .limit(1);
    return row;
  }

  /** The fan's marked copy of a rendition (WebP), from the cache or made now. */
  async marked(source: MarkSource, fanId: string): Promise<Buffer> {
    const visible = await this.visibleText(source.ownerId);
    const file = path.join(
      this.deps.cacheDir,
      source.mediaId,
      `${source.variant}-${fanId}${visible ? '-v' : ''}.webp`,
    );
    const cached = await fs.promises.readFile(file).catch(() => null);
    if (cached) {
      await this.cache.touch(file);
      return cached;
    }
    const pending = this.making.get(file);
    if (pending) return pending;
    const work = this.make(source, fanId, visible, file).finally(() => this.making.delete(file));
    this.making.set(file, work);
    return work;
  }

  private async make(source: MarkSource, fanId: string, visible: string | null, file: string) {
    const record = await this.serveRecord(fanId, source.mediaId);
    if (record.markId > MAX_MARK_ID) throw new Error('mark ids exhausted (ADR 0026)');
    let input = await source.read();
    if (visible) input = await withVisibleMark(input, visible);
    const out = await this.pool.embed(input, record.markId);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.promises.writeFile(tmp, out);
    await fs.promises.rename(tmp, file);
    await this.cache.added(file, out.length);
    return out;
  }

  /** "site/@handle" when the owner switched the visible mark on, else null. */
  private async visibleText(ownerId: string): Promise<string | null> {
    const known = this.visibleByOwner.get(ownerId);
    if (known) return known.text;
    const [row] = await this.deps.db
      .select({ on: profiles.visibleWatermark, username: users.username })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, ownerId))
      .limit(1);
    const text = row?.on ? `${this.deps.siteName}/@${row.username}` : null;
    this.visibleByOwner.set(ownerId, { text });
    return text;
  }

  /** Forgets the cached copies of a file (after it changes or is deleted). */
  async forget(mediaId: string): Promise<void> {
    const dir = path.join(this.deps.cacheDir, mediaId);
    await fs.promises.rm(dir, { recursive: true, force: true });
    await this.cache.removedUnder(dir);
  }

  /** Bytes of marked copies on disk (the running total of the cache index). */
  get cachedBytes(): number {
    return this.cache.bytes;
  }

  /** Reads the mark of a copy and finds its serve record. */
  async detect(image: Buffer): Promise<{ detection: Detection; record: ServeRecord | undefined }> {
    const detection = await this.pool.detect(image);
    const record = detection.markId === null ? undefined : await this.record(detection.markId);
    return { detection, record };
  }

  /** Serve records count, for statistics and tests. */
  async serveCount(): Promise<number> {
    const [row] = await this.deps.db.select({ n: sql<number>`count(*)::int` }).from(mediaServes);
    return row?.n ?? 0;
  }
}

/** Draws "site/@handle" semi-transparently in the lower right corner, scaled to the picture. */
export async function withVisibleMark(input: Buffer, text: string): Promise<Buffer> {
  const meta = await sharp(input).metadata();
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (width < 64 || height < 32) return input;
  const size = Math.max(11, Math.round(Math.min(width, height) / 28));
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <text x="${width - size}" y="${height - size}" text-anchor="end" font-family="sans-serif" font-weight="bold"
    font-size="${size}" fill="#ffffff" fill-opacity="0.55" stroke="#000000" stroke-opacity="0.35"
    stroke-width="${Math.max(1, size / 16)}">${escaped}</text></svg>`;
  return sharp(input)
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .png()
    .toBuffer();
}
