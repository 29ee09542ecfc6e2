import { MAX_CAPTIONS_BYTES, type Post } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createUser } from '../../test/factories.ts';
import type { TestApp } from '../../test/harness.ts';
import { jpeg, mp4 } from '../../test/media-fixtures.ts';
import { approvedVideoPost } from '../../test/video-post.ts';
import { validateCaptions } from './captions.ts';

const VTT =
  'WEBVTT\n\n00:00.000 --> 00:02.500\nHello from the captions\n\n00:02.500 --> 00:03.000\n<i>Bye</i>\n';
let t: TestApp;
let creator: Awaited<ReturnType<typeof createUser>>;
let subscriber: Awaited<ReturnType<typeof createUser>>;
let stranger: Awaited<ReturnType<typeof createUser>>;
let get: (url: string, token?: string) => Promise<Response>;
let mediaId: string;
let imageId: string;
let postId: string;

beforeAll(async () => {
  // A locked video with a free preview: the preview viewer must not get the captions either.
  const setup = await approvedVideoPost({ visibility: 'subscribers', previewSeconds: '5' }, [
    { name: 'clip.mp4', data: await mp4(7) },
    { name: 'pic.jpg', data: await jpeg() },
  ]);
  ({ t, creator, subscriber, stranger, get } = setup);
  postId = setup.post._id;
  mediaId = setup.post.media[0]?._id as string;
  imageId = setup.post.media[1]?._id as string;
}, 120_000);
afterAll(() => t.stop());

const put = (
  token: string,
  body: { language: string; name: string; text: string },
  id = mediaId,
  lang = 'en',
) => t.call('media.captions.put', body as never, { token, params: { id }, lang: lang as 'en' });

describe('captions tracks', () => {
  it('the owner adds a WebVTT track; the entitled fan gets it from media.play, the <track> URL serves it', async () => {
    const res = await put(creator.token, { language: 'en', name: 'clip.en.vtt', text: `\uFEFF${VTT}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, captions: ['en'] });
    const play = await t.call('media.play', undefined, { token: subscriber.token, params: { id: mediaId } });
    expect(play.status).toBe(200);
    expect(play.body.captions).toHaveLength(1);
    const track = play.body.captions[0] as { language: string; url: string };
    expect(track.language).toBe('en');
    // A <track> element sends no token: the URL is bound to the session, which is alive.
    const file = await get(track.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/vtt');
    expect(file.headers.get('cache-control')).toContain('no-store');
    expect(await file.text()).toBe(VTT);
    // Presented media lists the languages (to anyone who sees the post: the tracks stay locked).
    const feed = await t.call('posts.list', { post: postId }, { token: stranger.token });
    expect(feed.status).toBe(200);
    const media = (feed.body.posts as Post[])[0]?.media[0];
    expect(media?.locked).toBe(true);
    expect(media?.captions).toEqual(['en']);
  });

  it('a fan without entitlement (and the free-preview viewer) cannot read the captions', async () => {
    await put(creator.token, { language: 'es', name: 'clip.es.vtt', text: VTT });
    const owner = await t.call('media.play', undefined, { token: subscriber.token, params: { id: mediaId } });
    const url = (owner.body.captions as { url: string }[])[0]?.url as string;
    // The stranger sees the post (free preview) but gets no captions with it…
    const preview = await t.call('media.play', undefined, { token: stranger.token, params: { id: mediaId } });
    expect(preview.status).toBe(200);
    expect(preview.body.preview).toBe(true);
    expect(preview.body.captions).toEqual([]);
    // …and the subscriber's URL is refused with the stranger's session, and forged ones too.
    expect((await get(url, stranger.token)).status).toBe(403);
    const key = url.replace('/captions.vtt?', '/key?');
    expect((await get(key, subscriber.token)).status).toBe(403);
    expect((await get(url.replace(/sig=[0-9a-f]+/, `sig=${'0'.repeat(64)}`), subscriber.token)).status).toBe(
      403,
    );
    // A lapsed subscription loses the captions at once, like the key.
    await t.database.session((exec) =>
      exec(`UPDATE subscriptions SET status = 'expired' WHERE fan_id = '${subscriber.id}'`),
    );
    expect((await get(url, subscriber.token)).status).toBe(403);
    await t.database.session((exec) =>
      exec(`UPDATE subscriptions SET status = 'active' WHERE fan_id = '${subscriber.id}'`),
    );
    expect((await get(url, subscriber.token)).status).toBe(200);
  });

  it('refuses a non-WebVTT file with "The file … is not supported" in en and es, and a too large one', async () => {
    const bad = await put(creator.token, { language: 'en', name: 'notes.txt', text: 'just some words' });
    expect(bad.status).toBe(415);
    expect(bad.body.message).toBe('The file notes.txt is not supported');
    const badEs = await put(
      creator.token,
      { language: 'en', name: 'subs.srt', text: '1\n00:00:00,000 --> 00:00:01,000\nHola\n' },
      mediaId,
      'es',
    );
    expect(badEs.status).toBe(415);
    expect(badEs.body.message).toBe('El archivo subs.srt no es compatible');
    const big = `WEBVTT\n\n${'00:00.000 --> 00:01.000\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n\n'.repeat(
      Math.ceil(MAX_CAPTIONS_BYTES / 80) + 10,
    )}`;
    const tooBig = await put(creator.token, { language: 'en', name: 'long.vtt', text: big });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('The captions file long.vtt is too large, Max size 512 KB');
    const lang = await put(creator.token, { language: 'fr', name: 'a.vtt', text: VTT });
    expect(lang.status).toBe(400);
    // The stored track is unchanged by the refused uploads.
    const play = await t.call('media.play', undefined, { token: creator.token, params: { id: mediaId } });
    const en = (play.body.captions as { language: string; url: string }[]).find((c) => c.language === 'en');
    expect(await (await get(en?.url as string, creator.token)).text()).toBe(VTT);
  });

  it('only the owner may add or remove a track, only on a video', async () => {
    expect((await put(subscriber.token, { language: 'en', name: 'a.vtt', text: VTT })).status).toBe(404);
    expect((await put(creator.token, { language: 'en', name: 'a.vtt', text: VTT }, imageId)).status).toBe(
      404,
    );
    const del = (token: string) =>
      t.call('media.captions.delete', undefined, { token, params: { id: mediaId, language: 'es' } });
    expect((await del(stranger.token)).status).toBe(404);
    const ok = await del(creator.token);
    expect(ok.status).toBe(200);
    expect(ok.body.captions).toEqual(['en']);
    const play = await t.call('media.play', undefined, { token: subscriber.token, params: { id: mediaId } });
    expect((play.body.captions as { language: string }[]).map((c) => c.language)).toEqual(['en']);
  });
});

describe('validateCaptions (WebVTT parser)', () => {
  it('accepts cues with settings and styling, refuses broken timings, no cues, binary data', () => {
    expect(
      validateCaptions('a.vtt', 'WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000 line:0 align:start\n<b>Hi</b>\n')
        .length,
    ).toBeGreaterThan(0);
    for (const text of [
      'WEBVTT\n',
      'WEBVTT\n\n00:01.000 -> 00:02.000\nHi\n',
      'WEBVTT\n\n00:02.000 --> 00:01.000\nHi\n',
      'WEBVTTX\n\n00:00.000 --> 00:01.000\nHi\n',
      'WEBVTT\n\n00:00.000 --> 00:01.000\n\u0000\u0001binary\n',
    ])
      expect(() => validateCaptions('a.vtt', text)).toThrow();
  });
});
