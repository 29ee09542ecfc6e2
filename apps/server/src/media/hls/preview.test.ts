import { createDecipheriv } from 'node:crypto';
import type { Post } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { mp4, postForm } from '../../../test/media-fixtures.ts';

/**
 * The free preview of a locked video (issue 16): the first seconds the creator chose, playable by
 * anyone who may see the post, as its own playlist with its own key; the full playlists and keys
 * stay refused and the preview's key decrypts nothing else.
 */
const CERT = { certifyAdults: 'true', certifyConsent: 'true', certifyTerms: 'true' };
let t: TestApp;
let base: string;
let creator: Awaited<ReturnType<typeof createUser>>;
let subscriber: Awaited<ReturnType<typeof createUser>>;
let stranger: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;

const get = (url: string, token?: string) =>
  fetch(`${base}${url}`, { headers: token ? { a1sledom: token } : {} });

async function publish(fields: Record<string, string>, seconds: number, approve = true): Promise<Post> {
  const res = await postForm(base, '/api/v1/posts', creator.token, { ...CERT, message: 'clip', ...fields }, [
    { name: 'clip.mp4', data: await mp4(seconds) },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const post = res.body.post as Post;
  await t.jobs.drain();
  if (approve) {
    const review = await t.call(
      'admin.postReview',
      { id: post._id, adminStatus: 'approved' },
      { token: admin.token },
    );
    expect(review.status).toBe(200);
  }
  return post;
}

/** Media playlist → its key URL, IV, segment URLs and total duration. */
async function mediaPlaylist(url: string, token: string) {
  const res = await get(url, token);
  expect(res.status).toBe(200);
  const text = await res.text();
  return {
    text,
    keyUrl: /URI="([^"]+)"/.exec(text)?.[1] as string,
    iv: /IV=0x([0-9a-f]+)/i.exec(text)?.[1] as string,
    segments: text.split('\n').filter((l) => l && !l.startsWith('#')),
    seconds: [...text.matchAll(/#EXTINF:([\d.]+)/g)].reduce((s, m) => s + Number(m[1]), 0),
  };
}

async function bytes(url: string, token?: string): Promise<Buffer> {
  return Buffer.from(await (await get(url, token)).arrayBuffer());
}

function decrypt(data: Buffer, key: Buffer, iv: string): Buffer | null {
  try {
    const d = createDecipheriv('aes-128-cbc', key, Buffer.from(iv, 'hex'));
    return Buffer.concat([d.update(data), d.final()]);
  } catch {
    return null;
  }
}
const isTransportStream = (b: Buffer | null) =>
  !!b && b.length >= 188 * 4 && b.length % 188 === 0 && [0, 188, 376, 564].every((o) => b[o] === 0x47);

let locked: Post;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  admin = await createUser(t, { roles: ['admin', 'user'] });
  subscriber = await createUser(t);
  stranger = await createUser(t);
  await subscribe(t, subscriber.id, creator.id);
  locked = await publish({ visibility: 'subscribers', previewSeconds: '5' }, 13);
}, 180_000);
afterAll(() => t.stop());

describe('free preview of a locked video', () => {
  it('a fan who may see the post but not its media plays only the first seconds, with its own key', async () => {
    const listed = await t.call('posts.list', { post: locked._id }, { token: stranger.token });
    const media = listed.body.posts[0]?.media[0];
    expect(media).toMatchObject({ locked: true, preview: 5, src: null });
    const play = await t.call('media.play', undefined, {
      token: stranger.token,
      params: { id: media?._id as string },
    });
    expect(play.status).toBe(200);
    expect(play.body).toMatchObject({
      preview: true,
      mp4: null,
      thumbnails: null,
      renditions: [],
      duration: 5,
    });
    expect(play.body.hls).toContain('/preview/index.m3u8?');
    const preview = await mediaPlaylist(play.body.hls as string, stranger.token);
    expect(preview.text).toContain('#EXT-X-ENDLIST');
    expect(preview.seconds).toBeLessThan(5.5);
    // Marked like the video (ADR 0041): 2 s segments, 2 + 2 + 1, each under the fan's keyed name.
    expect(preview.segments).toHaveLength(3);
    expect(preview.segments.every((u) => /\/preview\/seg_\d{5}_[0-9a-f]{16}\.ts$/.test(u))).toBe(true);
    const key = await get(preview.keyUrl, stranger.token);
    expect(key.status).toBe(200);
    const previewKey = Buffer.from(await key.arrayBuffer());
    expect(
      isTransportStream(decrypt(await bytes(preview.segments[0] as string), previewKey, preview.iv)),
    ).toBe(true);

    // The whole video: the subscriber's playlists and key, refused to the stranger's session…
    const full = await t.call('media.play', undefined, {
      token: subscriber.token,
      params: { id: media?._id as string },
    });
    expect(full.body.preview).toBe(false);
    expect((await get(full.body.hls as string, stranger.token)).status).toBe(403);
    const master = await (await get(full.body.hls as string, subscriber.token)).text();
    const variant = master.split('\n').find((l) => l && !l.startsWith('#')) as string;
    expect((await get(variant, stranger.token)).status).toBe(403);
    const whole = await mediaPlaylist(variant, subscriber.token);
    expect(whole.seconds).toBeGreaterThan(12);
    expect((await get(whole.keyUrl, stranger.token)).status).toBe(403);
    // …a preview URL re-aimed at a full rendition fails its signature…
    const reaimed = preview.keyUrl.replace('/preview/key', `/${variant.split('/')[6]}/key`);
    expect(reaimed).not.toBe(preview.keyUrl);
    expect((await get(reaimed, stranger.token)).status).toBe(403);
    // …and the preview's key decrypts none of the full video's (public) segments.
    for (const segment of whole.segments) {
      const data = await bytes(segment);
      expect(isTransportStream(decrypt(data, previewKey, whole.iv))).toBe(false);
    }
    const wholeKey = await bytes(whole.keyUrl, subscriber.token);
    expect(isTransportStream(decrypt(await bytes(whole.segments[2] as string), wholeKey, whole.iv))).toBe(
      true,
    );
  }, 180_000);

  it('a fan blocked by the creator (or who blocked them) gets no preview, and a blocked mid-play loses it', async () => {
    const id = locked.media[0]?._id as string;
    for (const [blocker, blocked] of [
      ['creator', 'fan'],
      ['fan', 'creator'],
    ] as const) {
      const fan = await createUser(t);
      const play = await t.call('media.play', undefined, { token: fan.token, params: { id } });
      expect(play.status).toBe(200);
      const preview = await mediaPlaylist(play.body.hls as string, fan.token);
      const by = blocker === 'creator' ? creator : fan;
      const whom = blocked === 'fan' ? fan : creator;
      expect((await t.call('user.block', { user: whom.username }, { token: by.token })).status).toBe(200);
      expect(
        (await t.call('media.play', undefined, { token: fan.token, params: { id } })).status,
        `${blocker} blocked`,
      ).toBe(403);
      expect((await get(preview.keyUrl, fan.token)).status, `${blocker} blocked: key`).toBe(403);
      expect((await get(play.body.hls as string, fan.token)).status, `${blocker} blocked: playlist`).toBe(
        403,
      );
      // Nor is a preview offered where the post is still listed to them.
      const listed = await t.call('posts.list', { post: locked._id }, { token: fan.token });
      for (const post of listed.body.posts ?? [])
        expect(post.media[0]?.preview, `${blocker} blocked: listed preview`).toBe(0);
    }
  }, 120_000);

  it('the preview checks on each request that the post is still visible: a deleted post loses it', async () => {
    // Other bytes than the other posts' clips: the same bytes would be the same vault file, still
    // previewable through the post that holds it too.
    const post = await publish({ visibility: 'ppv', price: '5', previewSeconds: '5' }, 11);
    const id = post.media[0]?._id as string;
    const play = await t.call('media.play', undefined, { token: stranger.token, params: { id } });
    expect(play.status).toBe(200);
    const preview = await mediaPlaylist(play.body.hls as string, stranger.token);
    expect((await get(preview.keyUrl, stranger.token)).status).toBe(200);
    const removed = await t.call('posts.delete', undefined, {
      token: creator.token,
      params: { id: post._id },
    });
    expect(removed.status).toBe(200);
    expect((await get(preview.keyUrl, stranger.token)).status).toBe(403);
    expect((await get(play.body.hls as string, stranger.token)).status).toBe(403);
  }, 180_000);

  it('no preview without the creator choosing one, nor on a post the fan may not see yet', async () => {
    const none = await publish({ visibility: 'subscribers' }, 6);
    expect(none.media[0]?.preview).toBe(0);
    const id = none.media[0]?._id as string;
    expect((await t.call('media.play', undefined, { token: stranger.token, params: { id } })).status).toBe(
      403,
    );

    // In review (not approved): the fan cannot see the post, so no preview either.
    const pending = await publish({ visibility: 'subscribers', previewSeconds: '5' }, 9, false);
    const pendingId = pending.media[0]?._id as string;
    const res = await t.call('media.play', undefined, { token: stranger.token, params: { id: pendingId } });
    expect(res.status).toBe(403);
    // Its creator still gets the whole video.
    const own = await t.call('media.play', undefined, { token: creator.token, params: { id: pendingId } });
    expect(own.body.preview).toBe(false);
  }, 180_000);

  it('a preview as long as the video is none; an unknown length is refused in the user language', async () => {
    const short = await publish({ visibility: 'subscribers', previewSeconds: '5' }, 3);
    expect(short.media[0]?.preview).toBe(0);
    for (const [lang, text] of [
      ['en', /free preview of 0, 5, 10/],
      ['es', /vista previa gratis de 0, 5/],
    ] as const) {
      const res = await fetch(`${base}/api/v1/posts`, {
        method: 'POST',
        headers: { a1sledom: creator.token, 'content-type': 'application/json', 'accept-language': lang },
        body: JSON.stringify({ message: 'x', ...CERT, previewSeconds: 7 }),
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toMatch(text);
    }
  }, 180_000);
});
