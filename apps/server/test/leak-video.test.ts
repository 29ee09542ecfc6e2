import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaService } from '../src/media/media.service.ts';
import { createUser, subscribe } from './factories.ts';
import type { TestApp } from './harness.ts';
import { postForm, testClip } from './media-fixtures.ts';
import { approvedVideoPost, downloadStream, readPlaylist, traceCopy } from './video-post.ts';

/**
 * The traceable mark on videos (ADR 0041), through the real app: a 30 s video is transcoded in
 * marked A/B variants; two fans get different playlists; fan A's segments, fetched and decrypted as
 * a player does, re-encoded at half size and a lower bitrate, are traced to fan A (not B); so are
 * copies cropped, rescaled, trimmed, cut to an excerpt or mirrored; an unmarked copy names nobody;
 * only the owner gets the unmarked MP4.
 */
const run = promisify(execFile);
const SECONDS = 30;
let dir: string;
let t: TestApp;
let base: string;
let get: (url: string, token?: string) => Promise<Response>;
type Who = Awaited<ReturnType<typeof createUser>>;
let creator: Who;
let fanA: Who;
let fanB: Who;
let mediaId: string;
let source: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-leak-video-'));
  source = path.join(dir, 'source.mp4');
  await testClip(source, SECONDS);
  const setup = await approvedVideoPost({ visibility: 'subscribers' }, [
    { name: 'clip.mp4', data: fs.readFileSync(source) },
  ]);
  ({ t, base, creator, get } = setup);
  fanA = setup.subscriber;
  fanB = await createUser(t);
  await subscribe(t, fanB.id, creator.id);
  mediaId = setup.post.media[0]?._id as string;
}, 300_000);
afterAll(async () => {
  await t?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 180_000);

/** The player's walk for one fan: the first rendition's playlist, its key, IV and segment URLs. */
async function playlistOf(who: Who) {
  const play = await t.call('media.play', undefined, { token: who.token, params: { id: mediaId } });
  expect(play.status).toBe(200);
  const master = await (await get(play.body.hls as string, who.token)).text();
  const variant = master.split('\n').find((l) => l && !l.startsWith('#')) as string;
  return { play: play.body, ...(await readPlaylist(get, variant, who.token)) };
}

/** Fetches and decrypts every segment of the fan's playlist into one transport stream. */
const download = async (who: Who, file: string) => downloadStream(get, await playlistOf(who), file);

const trace = (who: Who, file: string) => traceCopy(t, base, who.token, file);

/** A copy of `from` edited by ffmpeg (`args` after the input: filters, seeks), re-encoded. */
async function edit(from: string, name: string, args: string[]) {
  const out = path.join(dir, name);
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-i', from, ...args],
    ...['-c:v', 'libx264', '-b:v', '300k', '-c:a', 'aac', '-b:a', '48k', out],
  ]);
  return out;
}

describe('the traceable mark on videos', () => {
  it('gives each fan their own playlist: per-segment A/B names, stable across plays', async () => {
    const a = await playlistOf(fanA);
    const b = await playlistOf(fanB);
    expect(a.segments.length).toBeGreaterThanOrEqual(14);
    const names = (s: string[]) => s.map((u) => u.split('/').pop());
    expect(names(a.segments)).not.toEqual(names(b.segments));
    expect(names(a.segments).every((n) => /^seg_\d{5}_[0-9a-f]{16}\.ts$/.test(n ?? ''))).toBe(true);
    expect(names((await playlistOf(fanA)).segments)).toEqual(names(a.segments));
    // The same segment index, two variants: both fans' segments decrypt with the same key.
    expect(a.key.equals(b.key)).toBe(true);
    // The plain (unmarked) name opens nothing, nor a guessed keyed name.
    const first = a.segments[0] as string;
    expect((await get(first.replace(/_[0-9a-f]{16}\.ts$/, '.ts'))).status).toBe(404);
    expect((await get(first.replace(/_[0-9a-f]{16}\.ts$/, '_0123456789abcdef.ts'))).status).toBe(404);
  });

  it('traces fan A from a re-encoded, half-size copy of their stream; not fan B', async () => {
    const leak = path.join(dir, 'leak.ts');
    await download(fanA, leak);
    const copy = path.join(dir, 'leak-small.mp4');
    await run('ffmpeg', [
      ...['-v', 'error', '-y', '-i', leak, '-vf', 'scale=trunc(iw/4)*2:trunc(ih/4)*2'],
      ...['-c:v', 'libx264', '-b:v', '150k', '-c:a', 'aac', '-b:a', '48k', copy],
    ]);
    const res = await trace(creator, copy);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: 'done',
      kind: 'video',
      found: true,
      fan: { _id: fanA.id },
      media: { _id: mediaId },
    });
    expect((res.body.fan as { _id: string })._id).not.toBe(fanB.id);
    expect(res.body.confidence as number).toBeGreaterThanOrEqual(99);
    expect(new Date(res.body.servedAt as string).getTime()).toBeLessThanOrEqual(Date.now());
    // Fan B's own copy names fan B.
    const leakB = path.join(dir, 'leak-b.ts');
    await download(fanB, leakB);
    const copyB = path.join(dir, 'leak-b.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-i', leakB, '-c', 'copy', copyB]);
    expect((await trace(creator, copyB)).body).toMatchObject({ found: true, fan: { _id: fanB.id } });
    // The result goes with a DMCA complaint in one click.
    const filed = await t.call(
      'leaks.complain',
      {},
      { token: creator.token, params: { id: res.body._id as string } },
    );
    expect(filed.status).toBe(200);
  }, 120_000);

  it('names nobody for an unmarked copy, and fans cannot trace', async () => {
    const clean = path.join(dir, 'clean.mp4');
    await run('ffmpeg', [
      ...['-v', 'error', '-y', '-i', source, '-vf', 'scale=320:180'],
      ...['-c:v', 'libx264', '-b:v', '200k', clean],
    ]);
    const res = await trace(creator, clean);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'done', found: false, fan: null, media: null, confidence: 0 });
    expect((await trace(fanA, clean)).status).toBe(403);
    // No file: a clear error in the caller's language, naming videos too.
    const bad = await postForm(base, '/api/v1/leaks/trace', creator.token, {}, [], { lang: 'es' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'LEAK_FILE_REQUIRED' });
    expect(JSON.stringify(bad.body)).toContain('vídeo');
  }, 60_000);

  it('in posts, gives the unmarked MP4 to the owner only: fans get the marked stream alone', async () => {
    const fan = await playlistOf(fanA);
    expect(fan.play.mp4).toBeNull();
    const owner = await t.call('media.play', undefined, { token: creator.token, params: { id: mediaId } });
    expect(owner.body.mp4).toContain(`fan=${creator.id}`);
    expect((await get(owner.body.mp4 as string)).status).toBe(200);
    const media = t.services.media as MediaService;
    // Never without a viewer it was signed for.
    await expect(media.file(mediaId, 'web', null)).rejects.toMatchObject({ code: 'VIDEO_STREAM_ONLY' });
    // The original (with the uploader's metadata) is never served for a transcoded video.
    expect(await media.file(mediaId, 'original', creator.id)).toBeNull();
    const post = await t.call('posts.list', {}, { token: fanA.token });
    const seen = post.body.posts.flatMap((p) => p.media).find((m) => m._id === mediaId);
    expect(seen?.src).toBeNull();
  });
});

describe('the tracer on edited copies: registered against the reference in time, frame and mirror', () => {
  let leakA: string;
  let leakB: string;
  beforeAll(async () => {
    leakA = path.join(dir, 'edit-a.ts');
    leakB = path.join(dir, 'edit-b.ts');
    await download(fanA, leakA);
    await download(fanB, leakB);
  }, 60_000);

  it.each([
    ['cropped 10 % off one corner, rescaled', ['-vf', 'crop=iw*0.9:ih*0.9:0:0,scale=640:360']],
    ['cropped 5 % off each side, rescaled', ['-vf', 'crop=iw*0.9:ih*0.9:iw*0.05:ih*0.05,scale=320:180']],
    ['trimmed: it starts 7.3 s in', ['-ss', '7.3']],
    ['a 20 s excerpt from the middle', ['-ss', '5.5', '-t', '20']],
    ['mirrored', ['-vf', 'hflip']],
  ])(
    'names fan A from a copy %s',
    async (_, args) => {
      const copy = await edit(leakA, `edit-${args.join('').replace(/\W+/g, '')}.mp4`, args);
      const res = await trace(creator, copy);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ found: true, fan: { _id: fanA.id }, media: { _id: mediaId } });
      expect(res.body.confidence as number).toBeGreaterThanOrEqual(99);
    },
    120_000,
  );

  it("never names fan A from fan B's edited copy, nor anyone from an unmarked one", async () => {
    const all = ['-ss', '3.7', '-vf', 'hflip,crop=iw*0.92:ih*0.9:iw*0.08:0,scale=400:224'];
    const fromB = await trace(creator, await edit(leakB, 'edit-b.mp4', all));
    expect(fromB.status).toBe(200);
    expect((fromB.body.fan as { _id: string } | null)?._id).not.toBe(fanA.id);
    expect(fromB.body).toMatchObject({ found: true, fan: { _id: fanB.id } });
    const clean = await trace(creator, await edit(source, 'edit-clean.mp4', all));
    expect(clean.body).toMatchObject({ found: false, fan: null, media: null, confidence: 0 });
  }, 120_000);
});
