import type { Post } from '@fanverse/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createUser } from '../../test/factories.ts';
import type { TestApp } from '../../test/harness.ts';
import { mp4 } from '../../test/media-fixtures.ts';
import { approvedVideoPost } from '../../test/video-post.ts';

/**
 * Issue 16: what the transcoding job makes of an uploaded video besides the HLS ladder — the
 * poster, the thumbnail strip for seeking (one sprite and its WebVTT index, ADR 0037), and the
 * duration and dimensions of spec §3's `info` — checked through the API, as the player gets them.
 */
let t: TestApp;
let subscriber: Awaited<ReturnType<typeof createUser>>;
let get: (url: string, token?: string) => Promise<Response>;
let post: Post;

beforeAll(async () => {
  // 12 s of 320×240: one tile a second, 12 tiles of 160×120 on a 10-column sprite (2 rows).
  const setup = await approvedVideoPost({ visibility: 'subscribers' }, [
    { name: 'clip.mp4', data: await mp4(12, '320x240') },
  ]);
  ({ t, subscriber, get } = setup);
  const listed = await t.call('posts.list', { post: setup.post._id }, { token: subscriber.token });
  post = (listed.body.posts as Post[])[0] as Post;
}, 180_000);
afterAll(() => t.stop());

const picture = async (url: string, token?: string) => {
  const res = await get(url, token);
  expect(res.status, url).toBe(200);
  return sharp(Buffer.from(await res.arrayBuffer()));
};

describe('transcoding outputs of an uploaded video', () => {
  it("gives the file its dimensions and duration (spec §3's info)", () => {
    const media = post.media[0];
    expect(media?.status).toBe('ready');
    expect([media?.width, media?.height]).toEqual([320, 240]);
    expect(media?.info?.format.duration).toBeGreaterThan(11.5);
    expect(media?.info?.format.duration).toBeLessThan(12.5);
    const video = media?.info?.streams.find((s) => (s as { codec_type?: string }).codec_type === 'video') as
      | { width?: number; height?: number }
      | undefined;
    expect([video?.width, video?.height]).toEqual([320, 240]);
  });

  it('makes a poster at the source size, and a blurred one for those without access', async () => {
    const media = post.media[0];
    const poster = await picture(media?.poster ?? '');
    const meta = await poster.metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);
    const stats = await poster.stats();
    // A frame of the test pattern, not a blank picture.
    expect(Math.max(...stats.channels.map((c) => c.stdev))).toBeGreaterThan(20);
    expect((await (await picture(media?.blur ?? '')).metadata()).width).toBeGreaterThan(0);
  });

  it('draws the thumbnail strip: one sprite whose WebVTT tiles cover the whole video', async () => {
    const id = post.media[0]?._id as string;
    const play = await t.call('media.play', undefined, { token: subscriber.token, params: { id } });
    expect(play.status).toBe(200);
    expect([play.body.width, play.body.height]).toEqual([320, 240]);
    const vtt = play.body.thumbnails as string;
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    const cues = [
      ...vtt.matchAll(
        /(\d\d):(\d\d):(\d\d\.\d{3}) --> (\d\d):(\d\d):(\d\d\.\d{3})\n(\S+)#xywh=(\d+),(\d+),(\d+),(\d+)/g,
      ),
    ].map((m) => ({
      start: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]),
      end: Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]),
      url: m[7] as string,
      x: Number(m[8]),
      y: Number(m[9]),
      w: Number(m[10]),
      h: Number(m[11]),
    }));
    expect(cues.length).toBe(12);
    // Contiguous from 0 to the duration, a tile a second, in reading order on 10 columns.
    expect(cues[0]?.start).toBe(0);
    expect(cues.at(-1)?.end).toBeCloseTo(play.body.duration as number, 2);
    cues.forEach((c, i) => {
      expect([c.x, c.y, c.w, c.h]).toEqual([(i % 10) * 160, Math.floor(i / 10) * 120, 160, 120]);
      if (i > 0) expect(c.start).toBe(cues[i - 1]?.end);
    });
    // One sprite for all cues; it is a JPEG holding every tile, and the tiles differ (the test
    // pattern's counter moves), so they are frames at their times, not one frame repeated.
    expect(new Set(cues.map((c) => c.url)).size).toBe(1);
    const sprite = await picture(cues[0]?.url ?? '');
    const meta = await sprite.metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([10 * 160, 2 * 120]);
    const tile = (c: (typeof cues)[number]) =>
      sprite.clone().extract({ left: c.x, top: c.y, width: c.w, height: c.h }).raw().toBuffer();
    const first = await tile(cues[0] as (typeof cues)[number]);
    const last = await tile(cues.at(-1) as (typeof cues)[number]);
    let diff = 0;
    for (let i = 0; i < first.length; i++) diff += Math.abs((first[i] ?? 0) - (last[i] ?? 0));
    expect(diff / first.length).toBeGreaterThan(1);
  });

  it('the sprite URL is signed: without its signature, or for another file, it is refused', async () => {
    const id = post.media[0]?._id as string;
    const play = await t.call('media.play', undefined, { token: subscriber.token, params: { id } });
    const url = /\n(\S+)#xywh=/.exec(play.body.thumbnails as string)?.[1] as string;
    expect((await get(url.replace(/sig=[0-9a-f]+/, `sig=${'0'.repeat(64)}`))).status).toBe(403);
    expect((await get(url.replace('/sprite?', '/original?'))).status).toBe(403);
  });
});
