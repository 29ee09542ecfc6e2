import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAppSecret } from '../src/lib/secret.ts';
import { HlsDelivery, HlsKeys, HlsSigner } from '../src/media/hls/index.ts';
import type { MediaService } from '../src/media/media.service.ts';
import { VideoMarkKey } from '../src/watermark/video-mark.ts';
import { createUser, subscribe, unlockMessage } from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { mp4 } from './media-fixtures.ts';
import { publishApproved } from './video-post.ts';

/**
 * The traceable mark beyond posts (ADR 0043): a marked video in a story and in messages plays only
 * through the protected HLS player. A story viewer and a message's receiver each get their own
 * marked playlist (their own `video_serves` code) and no MP4 URL; whoever is not entitled (not the
 * receiver, the receiver of a paid message before paying, a fan blocked by the creator) is refused
 * the playlist and the key.
 */
type Who = Awaited<ReturnType<typeof createUser>>;
let t: TestApp;
let base: string;
let creator: Who;
let viewer: Who; // subscriber: sees the story
let receiver: Who; // receives the free message (not a subscriber)
let payer: Who; // receives the paid message (not a subscriber)
let stranger: Who;
let blocked: Who; // subscriber and receiver, blocked by the creator mid-play
let admin: Who;
let mediaId: string;
let rendition: string;
let paidMessageId: string;

const get = (url: string, token?: string) =>
  fetch(`${base}${url}`, { headers: token ? { a1sledom: token } : {} });

const send = async (to: Who, price: number) => {
  const res = await t.call(
    'message.send',
    {
      to: to.username,
      message: price ? 'paid clip' : 'a clip',
      messageUUID: randomUUID(),
      price,
      vaultMedia: [mediaId],
    },
    { token: creator.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message._id;
};

/** Signed, session-bound URLs minted for someone without asking media.play (as a replayed URL). */
async function mintedFor(who: Who) {
  const session = await t.services.auth.authenticate(who.token);
  const secret = await resolveAppSecret(t.config, t.database);
  const hls = new HlsDelivery(new HlsSigner(secret, { ttlSeconds: 300 }), new HlsKeys(secret));
  const sid = session?.sessionId as string;
  return {
    master: hls.masterUrl('video', mediaId, sid),
    playlist: hls.playlistUrl('video', mediaId, rendition, sid),
    key: hls.keyUrl('video', mediaId, rendition, sid),
  };
}

/** The player's walk: media.play, master, first rendition's playlist, its key. */
async function play(who: Who) {
  const res = await t.call('media.play', undefined, { token: who.token, params: { id: mediaId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const master = await (await get(res.body.hls as string, who.token)).text();
  const variant = master.split('\n').find((l) => l && !l.startsWith('#')) as string;
  const playlistRes = await get(variant, who.token);
  expect(playlistRes.status).toBe(200);
  const playlist = await playlistRes.text();
  const keyUrl = /URI="([^"]+)"/.exec(playlist)?.[1] as string;
  const segments = playlist
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((u) => u.split('/').pop() as string);
  return { body: res.body, variant, keyUrl, segments };
}

/** The statuses these URLs answer the viewer, in order. */
const statuses = (urls: string[], who: Who) =>
  Promise.all(urls.map(async (url) => (await get(url, who.token)).status));

const playStatus = async (who: Who) =>
  (await t.call('media.play', undefined, { token: who.token, params: { id: mediaId } })).status;

/** Refused everywhere: media.play, and the master, playlist and key URLs of their session. */
async function expectRefused(who: Who) {
  expect(await playStatus(who)).toBe(403);
  const urls = await mintedFor(who);
  expect(await statuses([urls.master, urls.playlist, urls.key], who)).toEqual([403, 403, 403]);
  return urls;
}

async function serveOf(who: Who): Promise<string | undefined> {
  const rows = await t.database.session((exec) =>
    exec(`SELECT id FROM video_serves WHERE fan_id = '${who.id}' AND media_id = '${mediaId}'`),
  );
  return rows[0]?.id as string | undefined;
}

/** Every signed MP4 URL a surface hands this viewer for the file (there must be none). */
const mp4UrlsIn = (body: unknown) =>
  (JSON.stringify(body).match(new RegExp(`/${mediaId}/(web|original)\\?[^"]*`, 'g')) ?? []) as string[];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  [viewer, receiver, payer, stranger, blocked] = (await Promise.all(
    Array.from({ length: 5 }, () => createUser(t)),
  )) as [Who, Who, Who, Who, Who];
  admin = await createUser(t, { roles: ['admin', 'user'] });
  await subscribe(t, viewer.id, creator.id);
  await subscribe(t, blocked.id, creator.id);
  // One vault file, marked, in a subscribers' story and in messages.
  const post = await publishApproved(t, base, creator, { kind: 'story', visibility: 'subscribers' }, [
    { name: 'clip.mp4', data: await mp4(7, '320x240') },
  ]);
  mediaId = post.media[0]?._id as string;
  await send(receiver, 0);
  await send(blocked, 0);
  paidMessageId = await send(payer, 5);
  const owner = await t.call('media.play', undefined, { token: creator.token, params: { id: mediaId } });
  expect(owner.status).toBe(200);
  rendition = owner.body.renditions[0]?.name as string;
  expect(rendition).toBeTruthy();
}, 240_000);

afterAll(async () => {
  await t?.stop();
}, 120_000);

describe('marked videos in stories and messages (ADR 0043)', () => {
  it('a story viewer gets their own marked playlist and key, and no MP4 anywhere', async () => {
    const stories = await t.call('stories.list', { creator: creator.username }, { token: viewer.token });
    const media = stories.body.stories.flatMap((s) => s.media).find((m) => m._id === mediaId);
    expect(media).toMatchObject({ locked: false, src: null });
    expect(mp4UrlsIn(stories.body)).toEqual([]);
    const p = await play(viewer);
    expect(p.body.mp4).toBeNull();
    expect(p.segments.length).toBeGreaterThanOrEqual(3);
    expect(p.segments.every((n) => /^seg_\d{5}_[0-9a-f]{16}\.ts$/.test(n))).toBe(true);
    expect(await serveOf(viewer)).toBeTruthy();
    expect(await statuses([p.keyUrl], viewer)).toEqual([200]);
  });

  it('the receiver of a message gets their own marked playlist (not the story viewer’s), no MP4', async () => {
    const chat = await t.call('message.conversation', { user: creator.username }, { token: receiver.token });
    const file = chat.body.messages.flatMap((m) => m.files).find((f) => f._id === mediaId);
    expect(file).toMatchObject({ locked: false, src: null });
    expect(mp4UrlsIn(chat.body)).toEqual([]);
    const mine = await play(receiver);
    expect(mine.body.mp4).toBeNull();
    expect(await serveOf(receiver)).toBeTruthy();
    expect(await serveOf(receiver)).not.toBe(await serveOf(viewer));
    // The names spell the receiver's own code (4 segments: two fans' 4-bit codes coincide 1 time
    // in 16, so comparing the two playlists would fail by luck).
    const key = new VideoMarkKey(await resolveAppSecret(t.config, t.database));
    const code = key.code((await serveOf(receiver)) as string, mine.segments.length);
    expect(mine.segments).toEqual(code.map((v, i) => key.segmentName(mediaId, rendition, i, v)));
    expect(await statuses([mine.keyUrl], receiver)).toEqual([200]);
  });

  it('the receiver of a paid message is refused until they pay, then gets their own playlist', async () => {
    const urls = await expectRefused(payer);
    const locked = await t.call('message.conversation', { user: creator.username }, { token: payer.token });
    expect(locked.body.messages.find((m) => m._id === paidMessageId)).toMatchObject({ locked: true });
    await unlockMessage(t, payer.id, paidMessageId);
    const after = await play(payer);
    expect(after.body.mp4).toBeNull();
    expect(await serveOf(payer)).toBeTruthy();
    expect(await statuses([urls.playlist, urls.key], payer)).toEqual([200, 200]);
  });

  it('someone neither receiving the message nor seeing the story is refused play, playlist and key', async () => {
    await expectRefused(stranger);
    expect(await serveOf(stranger)).toBeUndefined();
  });

  it('a fan blocked by the creator loses the story and the message video: playlist and key refused', async () => {
    const p = await play(blocked);
    const block = await t.call('user.block', { user: blocked.username }, { token: creator.token });
    expect(block.body).toMatchObject({ blocked: true });
    // The URLs minted before the block, and any asked for after it.
    expect(await statuses([p.variant, p.keyUrl], blocked)).toEqual([403, 403]);
    await expectRefused(blocked);
    const stories = await t.call('stories.list', { creator: creator.username }, { token: blocked.token });
    for (const m of stories.body.stories?.flatMap((s) => s.media) ?? []) expect(m.src).toBeNull();
    const chat = await t.call('message.conversation', { user: creator.username }, { token: blocked.token });
    expect(chat.body.messages.flatMap((m) => m.files).every((f) => f.locked)).toBe(true);
  });

  it('the sender gets the MP4 signed for them; staff play the stream; no viewer-less MP4', async () => {
    const owner = await t.call('media.play', undefined, { token: creator.token, params: { id: mediaId } });
    expect(owner.body.mp4).toContain(`fan=${creator.id}`);
    const chat = await t.call('message.conversation', { user: receiver.username }, { token: creator.token });
    expect(chat.body.messages.flatMap((m) => m.files).find((f) => f._id === mediaId)?.src).toContain(
      `fan=${creator.id}`,
    );
    const staff = await play(admin);
    expect(staff.body.mp4).toBeNull();
    await expect((t.services.media as MediaService).file(mediaId, 'web', null)).rejects.toMatchObject({
      code: 'VIDEO_STREAM_ONLY',
    });
  });
});
