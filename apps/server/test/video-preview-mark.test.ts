import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAppSecret } from '../src/lib/secret.ts';
import { PREVIEW_RENDITION } from '../src/media/video.ts';
import { VideoMarkKey } from '../src/watermark/video-mark.ts';
import { createUser } from './factories.ts';
import type { TestApp } from './harness.ts';
import { testClip } from './media-fixtures.ts';
import { approvedVideoPost, downloadStream, readPlaylist, traceCopy } from './video-post.ts';

/**
 * The free preview of a locked video carries each fan's mark too (issue 19, ADR 0041): it is
 * encoded in A/B variants on the video's own 2 s grid, every fan who plays it gets their own
 * playlist from their serve record's code (its first bits: the whole video's), and a copy of a
 * fan's preview names that fan. The preview here is 30 s (15 segments, 15 bits) of a 40 s video.
 */
const run = promisify(execFile);
const SECONDS = 40;
const PREVIEW = 30;
let dir: string;
let t: TestApp;
let base: string;
let get: (url: string, token?: string) => Promise<Response>;
type Who = Awaited<ReturnType<typeof createUser>>;
let creator: Who;
let fanA: Who;
let fanB: Who;
let mediaId: string;
let videoKey: VideoMarkKey;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-preview-mark-'));
  const source = path.join(dir, 'source.mp4');
  // Scrolled: the tracer must tell from the picture alone that the copy starts at 0 (ADR 0041).
  await testClip(source, SECONDS, { scroll: true });
  const setup = await approvedVideoPost({ visibility: 'subscribers', previewSeconds: String(PREVIEW) }, [
    { name: 'clip.mp4', data: fs.readFileSync(source) },
  ]);
  ({ t, base, creator, get } = setup);
  // Neither subscribes: they see the post, locked, and may play its free preview only.
  fanA = setup.stranger;
  fanB = await createUser(t);
  mediaId = setup.post.media[0]?._id as string;
  videoKey = new VideoMarkKey(await resolveAppSecret(t.config, t.database));
}, 300_000);
afterAll(async () => {
  await t?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 180_000);

/** The fan's preview as the player gets it: media.play, then the preview playlist and its key. */
async function previewOf(who: Who) {
  const play = await t.call('media.play', undefined, { token: who.token, params: { id: mediaId } });
  expect(play.status).toBe(200);
  expect(play.body).toMatchObject({ preview: true, mp4: null, duration: PREVIEW });
  return readPlaylist(get, play.body.hls as string, who.token);
}

const names = (segments: string[]) => segments.map((u) => u.split('?')[0]?.split('/').pop() as string);

async function serveOf(who: Who): Promise<string> {
  const rows = await t.database.session((exec) =>
    exec(`SELECT id FROM video_serves WHERE fan_id = '${who.id}' AND media_id = '${mediaId}'`),
  );
  return rows[0]?.id as string;
}

describe('the free preview of a marked video', () => {
  it("gives each fan their own preview playlist: keyed A/B segment names spelling their serve record's code", async () => {
    const a = await previewOf(fanA);
    const b = await previewOf(fanB);
    expect(a.segments).toHaveLength(PREVIEW / 2);
    for (const [who, playlist] of [
      [fanA, a],
      [fanB, b],
    ] as const) {
      const serve = await serveOf(who);
      expect(serve).toBeTruthy();
      const code = videoKey.code(serve, playlist.segments.length);
      expect(names(playlist.segments)).toEqual(
        code.map((variant, i) => videoKey.segmentName(mediaId, PREVIEW_RENDITION, i, variant)),
      );
    }
    expect(names(a.segments)).not.toEqual(names(b.segments));
    // Both variants of a segment decrypt with the preview's one key.
    expect(a.key.equals(b.key)).toBe(true);
    // The same fan plays the same segments again; the plain name opens nothing.
    expect(names((await previewOf(fanA)).segments)).toEqual(names(a.segments));
    const first = a.segments[0] as string;
    expect((await get(first.replace(/_[0-9a-f]{16}\.ts$/, '.ts'))).status).toBe(404);
  });

  it("traces a re-encoded copy of fan A's preview to fan A (15 bits: ≥ 99 %), and fan B's to fan B", async () => {
    for (const who of [fanA, fanB]) {
      const leak = path.join(dir, `preview-${who.id}.ts`);
      await downloadStream(get, await previewOf(who), leak);
      const copy = path.join(dir, `preview-${who.id}.mp4`);
      await run('ffmpeg', [
        ...['-v', 'error', '-y', '-i', leak, '-vf', 'scale=320:180'],
        ...['-c:v', 'libx264', '-b:v', '200k', '-c:a', 'aac', '-b:a', '48k', copy],
      ]);
      const res = await traceCopy(t, base, creator.token, copy);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ found: true, fan: { _id: who.id }, media: { _id: mediaId } });
      expect(res.body.confidence as number).toBeGreaterThanOrEqual(99);
    }
  }, 120_000);
});
