import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '../../test/factories.ts';
import type { TestApp } from '../../test/harness.ts';
import { encodeUnmarked } from '../../test/legacy-video.ts';
import { mp4 } from '../../test/media-fixtures.ts';
import { approvedVideoPost, readPlaylist } from '../../test/video-post.ts';
import { media } from '../db/schema.ts';
import { resolveAppSecret } from '../lib/secret.ts';
import { VideoMarkKey } from '../watermark/video-mark.ts';
import { MEDIA_REMARK, MEDIA_REMARK_SCAN } from './media.jobs.ts';
import type { MediaService } from './media.service.ts';
import { mediaPrefix } from './media.service.ts';
import { createStorage, type Storage } from './storage.ts';
import { PREVIEW_RENDITION, type VideoManifest, videoFileNames, videoManifest } from './video.ts';

/**
 * The mark backfill (issue 19, ADR 0041): a private video encoded before the mark — unmarked HLS,
 * its MP4 fallback handed to fans, an unmarked free preview — is re-encoded with the mark by a
 * durable job beside the old files; once the media row switches, every fan's playlist (preview
 * included) is their own keyed A/B one, fans get no MP4, the owner keeps everything and the old
 * files are gone. Running it again, twice at once, or after a crashed run, is harmless.
 */
type Who = Awaited<ReturnType<typeof createUser>>;
let t: TestApp;
let get: (url: string, token?: string) => Promise<Response>;
let creator: Who;
let subscriber: Who;
let stranger: Who;
let superAdmin: Who;
let mediaId: string;
let prefix: string;
let storage: Storage;
let videoKey: VideoMarkKey;

beforeAll(async () => {
  const setup = await approvedVideoPost({ visibility: 'subscribers', previewSeconds: '5' }, [
    { name: 'clip.mp4', data: await mp4(13, '320x240') },
  ]);
  ({ t, get, creator, subscriber, stranger } = setup);
  mediaId = setup.post.media[0]?._id as string;
  superAdmin = await createUser(t, { roles: ['super', 'admin', 'user'] });
  storage = createStorage(t.config);
  videoKey = new VideoMarkKey(await resolveAppSecret(t.config, t.database));
  const row = await (t.services.media as MediaService).get(mediaId);
  prefix = mediaPrefix(row as NonNullable<typeof row>);
  await encodeUnmarked(t, mediaId);
}, 240_000);
afterAll(() => t.stop(), 120_000);

const backfill = () => t.services.markBackfill;
/** The super dashboard's count of videos still to mark. */
const remaining = async () => {
  const res = await t.call('admin.videoMark', undefined, { token: superAdmin.token });
  expect(res.status).toBe(200);
  return res.body.remaining;
};
const rowInfo = async () =>
  ((await (t.services.media as MediaService).get(mediaId))?.info ?? {}) as Record<string, unknown>;
const manifest = async () => videoManifest(await rowInfo()) as VideoManifest;
const names = (segments: string[]) => segments.map((u) => u.split('/').pop() as string);

/** The player's walk: media.play, then the master's first rendition (or the preview) and its key. */
async function walk(who: Who) {
  const play = await t.call('media.play', undefined, { token: who.token, params: { id: mediaId } });
  expect(play.status, JSON.stringify(play.body)).toBe(200);
  let url = play.body.hls as string;
  if (!play.body.preview) {
    const master = await (await get(url, who.token)).text();
    url = master.split('\n').find((l) => l && !l.startsWith('#')) as string;
  }
  const rendition = play.body.preview ? PREVIEW_RENDITION : (url.split('/')[6] as string);
  return { play: play.body, rendition, ...(await readPlaylist(get, url, who.token)) };
}

/** The names a fan's playlist must list: each segment's variant by the fan's code. */
async function expectedNames(who: Who, rendition: string, count: number) {
  const rows = await t.database.session((exec) =>
    exec(`SELECT id FROM video_serves WHERE fan_id = '${who.id}' AND media_id = '${mediaId}'`),
  );
  const serve = rows[0]?.id as string;
  expect(serve, 'serve record').toBeTruthy();
  const { folder } = await manifest();
  return videoKey
    .code(serve, count)
    .map((v, i) => videoKey.segmentName(mediaId, rendition, i, v, folder ?? undefined));
}

/** The re-encodings (`v/<key id>/…`) that still have a file stored (local disk in tests). */
const encodings = () => {
  const dir = path.join(t.config.mediaDir, prefix, 'v');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((k) =>
      fs.readdirSync(path.join(dir, k), { recursive: true, withFileTypes: true }).some((e) => e.isFile()),
    );
};

describe('the mark backfill of videos encoded before the mark', () => {
  it('finds the old video served unmarked: plain segments, the MP4 to fans, an unmarked preview', async () => {
    const fan = await walk(subscriber);
    expect(fan.play.mp4).toBeTruthy();
    expect(names(fan.segments).every((n) => /^seg_\d{5}\.ts$/.test(n))).toBe(true);
    const preview = await walk(stranger);
    expect(preview.play.preview).toBe(true);
    expect(names(preview.segments).every((n) => /^seg_\d{5}\.ts$/.test(n))).toBe(true);
    expect(await remaining()).toBe(1);
    // Only a super sees the count.
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    expect((await t.call('admin.videoMark', undefined, { token: admin.token })).status).toBe(403);
    expect((await t.call('admin.videoMark', undefined, { token: creator.token })).status).toBe(403);
  });

  it('re-encodes it with the mark: per-fan keyed A/B playlists and no MP4 for fans; the owner keeps everything', async () => {
    const old = (await manifest()) as VideoManifest;
    const oldKeys = videoFileNames(old).map((n) => `${prefix}/${n}`);
    // The start-up / recurring scan queues it; the job re-encodes and switches.
    await t.jobs.send(MEDIA_REMARK_SCAN, {});
    await t.jobs.drain();
    expect(await remaining()).toBe(0);
    const now = await manifest();
    expect(now.mark).toBeTruthy();
    expect(now.preview).toMatchObject({ seconds: 5, marked: true });
    expect(now.keyId).not.toBe(old.keyId);

    const fan = await walk(subscriber);
    expect(fan.play.mp4).toBeNull();
    expect(names(fan.segments)).toEqual(await expectedNames(subscriber, fan.rendition, fan.segments.length));
    for (const url of fan.segments) expect((await get(url)).status).toBe(200);
    const listed = await t.call('posts.list', {}, { token: subscriber.token });
    const seen = listed.body.posts.flatMap((p) => p.media).find((m) => m._id === mediaId);
    expect(seen).toMatchObject({ locked: false, src: null });

    const preview = await walk(stranger);
    expect(preview.play.preview).toBe(true);
    expect(names(preview.segments)).toEqual(
      await expectedNames(stranger, PREVIEW_RENDITION, preview.segments.length),
    );

    const owner = await walk(creator);
    expect(owner.play.mp4).toContain(`fan=${creator.id}`);
    expect((await get(owner.play.mp4 as string)).status).toBe(200);
    expect(owner.play.thumbnails).toContain('WEBVTT');
    expect(owner.play.renditions.length).toBeGreaterThan(0);
    expect((await get(owner.segments[0] as string)).status).toBe(200);

    // The old encoding's files are gone; the new one is the only one stored.
    for (const key of oldKeys) expect(await storage.exists(key), key).toBe(false);
    expect(encodings()).toEqual([now.folder?.split('/').pop()]);
    const info = await rowInfo();
    expect(info.replacedVideo ?? null).toBeNull();
    expect(info.pendingVideo ?? null).toBeNull();
  }, 180_000);

  it('a second run changes nothing', async () => {
    const before = await manifest();
    await t.jobs.send(MEDIA_REMARK, { mediaId }, { singletonKey: mediaId });
    await t.jobs.drain();
    await backfill().remark(mediaId);
    expect(await manifest()).toEqual(before);
    expect(encodings()).toEqual([before.folder?.split('/').pop()]);
    const fan = await walk(subscriber);
    expect((await get(fan.segments[0] as string)).status).toBe(200);
  }, 120_000);

  it('two runs at once store one encoding and leave nothing of the other', async () => {
    await encodeUnmarked(t, mediaId);
    expect(encodings()).toEqual([]);
    await Promise.all([backfill().remark(mediaId), backfill().remark(mediaId)]);
    const now = await manifest();
    expect(now.mark).toBeTruthy();
    expect(encodings()).toEqual([now.folder?.split('/').pop()]);
    const fan = await walk(subscriber);
    expect(names(fan.segments)).toEqual(await expectedNames(subscriber, fan.rendition, fan.segments.length));
    for (const url of fan.segments) expect((await get(url)).status).toBe(200);
  }, 180_000);

  it('a run whose storing fails part way removes what it stored and is no longer pending', async () => {
    await encodeUnmarked(t, mediaId);
    expect(encodings()).toEqual([]);
    const store = backfill()['deps'].storage;
    const put = store.put.bind(store);
    let puts = 0;
    const failing = vi.spyOn(store, 'put').mockImplementation(async (...args) => {
      if (++puts === 4) throw new Error('disk full');
      return put(...args);
    });
    try {
      await expect(backfill().remark(mediaId)).rejects.toThrow('disk full');
    } finally {
      failing.mockRestore();
    }
    expect(puts).toBe(4); // three files were stored before the failure
    expect(encodings()).toEqual([]);
    const info = await rowInfo();
    expect(info.pendingVideo ?? null).toBeNull();
    expect(info.remarkFailed).toMatchObject({ error: 'disk full' });
    expect(await remaining()).toBe(1);
  }, 180_000);

  it('a run displaced while it stores, whose storing then fails, ends quietly and leaves nothing of its own', async () => {
    await encodeUnmarked(t, mediaId);
    const store = backfill()['deps'].storage;
    const put = store.put.bind(store);
    let firstOfA: string | undefined;
    const racing = vi.spyOn(store, 'put').mockImplementation(async (...args) => {
      if (firstOfA !== undefined) return put(...args);
      // Run A's first file: run B re-encodes, displaces A (deleting its files) and switches; A's
      // write then finds its folder gone.
      firstOfA = args[0];
      await backfill().remark(mediaId);
      throw Object.assign(new Error('ENOENT: no such file or directory, copyfile'), { code: 'ENOENT' });
    });
    try {
      await backfill().remark(mediaId);
    } finally {
      racing.mockRestore();
    }
    const now = await manifest();
    expect(now.mark).toBeTruthy();
    expect(firstOfA).toBeDefined();
    expect(firstOfA).not.toContain(`${now.folder}/`);
    expect(encodings()).toEqual([now.folder?.split('/').pop()]);
    const info = await rowInfo();
    expect(info.pendingVideo ?? null).toBeNull();
    expect(info.remarkFailed ?? null).toBeNull();
    const fan = await walk(subscriber);
    for (const url of fan.segments) expect((await get(url)).status).toBe(200);
  }, 180_000);

  it('a run after a crashed one removes what the crashed run stored, then switches', async () => {
    await encodeUnmarked(t, mediaId);
    // A run that stored part of its encoding and died before the switch.
    const crashed: VideoManifest = {
      keyId: 'c0ffee00c0ffee00c0ffee00',
      folder: 'v/c0ffee00c0ffee00c0ffee00',
      renditions: [{ name: '240p', width: 320, height: 240, bandwidth: 1, segments: 2 }],
      preview: null,
      mark: { segmentSeconds: 2, frames: 20 },
      sprite: null,
    };
    const crashedKeys = videoFileNames(crashed).map((n) => `${prefix}/${n}`);
    for (const key of crashedKeys) await storage.put(key, Buffer.from('partial'), 'video/mp2t');
    await t.database.db
      .update(media)
      .set({
        info: sql`${media.info} || jsonb_build_object('pendingVideo', ${JSON.stringify(crashed)}::jsonb)`,
      })
      .where(eq(media.id, mediaId));
    await t.jobs.send(MEDIA_REMARK, { mediaId }, { singletonKey: mediaId });
    await t.jobs.drain();
    for (const key of crashedKeys) expect(await storage.exists(key), key).toBe(false);
    const now = await manifest();
    expect(now.mark).toBeTruthy();
    expect(now.keyId).not.toBe(crashed.keyId);
    expect(encodings()).toEqual([now.folder?.split('/').pop()]);
    expect((await rowInfo()).pendingVideo ?? null).toBeNull();
    const fan = await walk(subscriber);
    for (const url of fan.segments) expect((await get(url)).status).toBe(200);
  }, 180_000);
});
