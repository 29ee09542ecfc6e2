import { execFileSync } from 'node:child_process';
import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe, TEST_PASSWORD } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { mp4 } from '../../../test/media-fixtures.ts';
import { approvedVideoPost } from '../../../test/video-post.ts';
import { rewritePlaylist } from './playlist.ts';
import { HlsSigner } from './signing.ts';

const CERT = { certifyAdults: 'true', certifyConsent: 'true', certifyTerms: 'true' };
let t: TestApp;
let creator: Awaited<ReturnType<typeof createUser>>;
let subscriber: Awaited<ReturnType<typeof createUser>>;
let stranger: Awaited<ReturnType<typeof createUser>>;
let get: (url: string, token?: string) => Promise<Response>;
let mediaId: string;

beforeAll(async () => {
  const setup = await approvedVideoPost({ visibility: 'subscribers' }, [
    { name: 'clip.mp4', data: await mp4(3) },
  ]);
  ({ t, creator, subscriber, stranger, get } = setup);
  mediaId = setup.post.media[0]?._id as string;
}, 120_000);
afterAll(() => t.stop());

/** The player's walk: play → master → first rendition's playlist → key URL and first segment URL. */
async function walk(token: string) {
  const play = await t.call('media.play', undefined, { token, params: { id: mediaId } });
  expect(play.status).toBe(200);
  const master = await get(play.body.hls as string, token);
  expect(master.status).toBe(200);
  expect(master.headers.get('content-type')).toContain('mpegurl');
  const variant = (await master.text()).split('\n').find((l) => l && !l.startsWith('#')) as string;
  const playlist = await (await get(variant, token)).text();
  const keyUrl = /URI="([^"]+)"/.exec(playlist)?.[1] as string;
  const iv = /IV=0x([0-9a-f]+)/i.exec(playlist)?.[1] as string;
  const segmentUrl = playlist.split('\n').find((l) => l && !l.startsWith('#')) as string;
  return { play: play.body, keyUrl, iv, segmentUrl, playlist };
}

/** AES-128-CBC with PKCS7, as HLS players do; null when the padding is wrong. */
function decrypt(data: Buffer, key: Buffer, iv: string): Buffer | null {
  try {
    const d = createDecipheriv('aes-128-cbc', key, Buffer.from(iv, 'hex'));
    return Buffer.concat([d.update(data), d.final()]);
  } catch {
    return null;
  }
}

/** MPEG-TS: 188-byte packets, each starting with the sync byte 0x47. */
const isTransportStream = (b: Buffer | null) =>
  !!b && b.length >= 188 * 4 && b.length % 188 === 0 && [0, 188, 376, 564].every((o) => b[o] === 0x47);

describe('protected HLS delivery', () => {
  it('encodes the ladder and the entitled fan plays it: key fits, segments decrypt to MPEG-TS', async () => {
    const { play, keyUrl, iv, segmentUrl, playlist } = await walk(subscriber.token);
    // A 64×48 source: one rendition at its own size, never upscaled to the first rung.
    expect(play.renditions).toEqual([{ name: '240p', width: 64, height: 48 }]);
    expect(play.duration).toBeGreaterThan(2.5);
    expect(playlist).toContain('#EXT-X-KEY:METHOD=AES-128');
    expect(play.thumbnails).toContain('WEBVTT');
    const segment = Buffer.from(await (await get(segmentUrl)).arrayBuffer());
    expect(isTransportStream(segment)).toBe(false);
    const key = await get(keyUrl, subscriber.token);
    expect(key.status).toBe(200);
    expect(key.headers.get('cache-control')).toContain('no-store');
    const bytes = Buffer.from(await key.arrayBuffer());
    expect(bytes.length).toBe(16);
    expect(isTransportStream(decrypt(segment, bytes, iv))).toBe(true);
  });

  it('a fan without entitlement gets 403 for play, playlists and key, and cannot decrypt a segment', async () => {
    const play = await t.call('media.play', undefined, { token: stranger.token, params: { id: mediaId } });
    expect(play.status).toBe(403);
    // Even holding the subscriber's URLs, the stranger's own session is refused…
    const { keyUrl, iv, segmentUrl } = await walk(subscriber.token);
    expect((await get(keyUrl, stranger.token)).status).toBe(403);
    // …and whatever 16 bytes the stranger guesses or gets elsewhere do not decrypt the segment.
    const segment = Buffer.from(await (await get(segmentUrl)).arrayBuffer());
    const refused = await get(keyUrl, stranger.token);
    const answer = Buffer.from(await refused.arrayBuffer());
    expect(
      isTransportStream(decrypt(segment, Buffer.concat([answer, Buffer.alloc(16)]).subarray(0, 16), iv)),
    ).toBe(false);
    expect(isTransportStream(decrypt(segment, Buffer.alloc(16), iv))).toBe(false);
    expect(isTransportStream(segment)).toBe(false);
  });

  it('a key URL from one session fails in another session of the same fan', async () => {
    const other = await t.call('auth.login', { login: subscriber.username, password: TEST_PASSWORD });
    expect(other.status).toBe(200);
    const otherToken = (other.body as { token: string }).token;
    const { keyUrl } = await walk(subscriber.token);
    expect((await get(keyUrl, subscriber.token)).status).toBe(200);
    expect((await get(keyUrl, otherToken)).status).toBe(403);
  });

  it('checks entitlement on every key request: a lapsed subscription loses the key at once', async () => {
    const fan = await createUser(t);
    await subscribe(t, fan.id, creator.id);
    const { keyUrl } = await walk(fan.token);
    expect((await get(keyUrl, fan.token)).status).toBe(200);
    await t.database.session((exec) =>
      exec(`UPDATE subscriptions SET status = 'expired' WHERE fan_id = '${fan.id}'`),
    );
    expect((await get(keyUrl, fan.token)).status).toBe(403);
  });

  it('refuses tampered, expired and logged-out URLs; the owner and staff are entitled', async () => {
    const { keyUrl } = await walk(creator.token);
    expect((await get(keyUrl.replace('/key?', '/key?x=1&'), creator.token)).status).toBe(200);
    expect((await get(keyUrl.replace(/exp=\d+/, 'exp=99999999999'), creator.token)).status).toBe(403);
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    expect((await walk(admin.token)).keyUrl).toContain('/key?');
    // A player without headers (native HLS) is served while the bound session is alive…
    const fan = await createUser(t);
    await subscribe(t, fan.id, creator.id);
    const { keyUrl: fanKey } = await walk(fan.token);
    expect((await get(fanKey)).status).toBe(200);
    // …and not after that session logs out.
    expect((await t.call('auth.logout', {}, { token: fan.token })).status).toBe(200);
    expect((await get(fanKey)).status).toBe(403);
  });
});

describe('the /watch feed', () => {
  it('`video: true` lists posts holding a video, not text or image posts', async () => {
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    const text = await t.call('posts.create', { message: 'words only', ...CERT }, { token: creator.token });
    expect(text.status).toBe(200);
    await t.call(
      'admin.postReview',
      { id: text.body.post._id, adminStatus: 'approved' },
      { token: admin.token },
    );
    const res = await t.call('posts.list', { video: true }, { token: subscriber.token });
    expect(res.status).toBe(200);
    const ids = res.body.posts.map((p) => p.media[0]?._id);
    expect(ids).toContain(mediaId);
    expect(res.body.posts.every((p) => p.media.some((m) => m.type === 'video'))).toBe(true);
    const all = await t.call('posts.list', {}, { token: subscriber.token });
    expect(all.body.posts.some((p) => p._id === text.body.post._id)).toBe(true);
  });
});

describe('HLS building blocks', () => {
  it('signatures expire and bind kind, id, rendition, target and session', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const s = new HlsSigner('secret', { ttlSeconds: 60, now: () => now });
    const g = { kind: 'live', id: 'abc', rendition: '720p', target: 'key' as const, sessionId: 's1' };
    const q = s.sign(g);
    expect(s.verify(g, q)).toBe('s1');
    expect(s.verify({ ...g, rendition: '1080p' }, q)).toBeNull();
    expect(s.verify({ ...g, target: 'playlist' }, q)).toBeNull();
    expect(s.verify({ ...g, kind: 'video' }, q)).toBeNull();
    expect(s.verify(g, { ...q, sid: 's2' })).toBeNull();
    now = new Date(now.getTime() + 61_000);
    expect(s.verify(g, q)).toBeNull();
  });

  it('rewrites key, segment and variant URIs and nothing else', () => {
    const media =
      '#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="key",IV=0x01\n#EXTINF:4,\nseg_00000.ts\n#EXT-X-ENDLIST\n';
    expect(rewritePlaylist(media, { key: () => 'K', segment: (u) => `S/${u}` })).toBe(
      '#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="K",IV=0x01\n#EXTINF:4,\nS/seg_00000.ts\n#EXT-X-ENDLIST\n',
    );
    const master = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n480p/index.m3u8\n';
    expect(rewritePlaylist(master, { variant: (u) => `V/${u}` })).toContain('\nV/480p/index.m3u8\n');
  });

  it('ffmpeg itself cannot play a segment without the key', () => {
    // Sanity of the check above: the encrypted bytes are not a transport stream to ffprobe either.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-hls-'));
    fs.writeFileSync(path.join(dir, 'x.ts'), Buffer.alloc(188 * 8, 0x11));
    expect(() =>
      execFileSync('ffprobe', ['-v', 'error', path.join(dir, 'x.ts')], { stdio: 'pipe' }),
    ).toThrow();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
