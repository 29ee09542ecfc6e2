import type { Post } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe, unlock } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { jpeg, mp4 } from '../../../test/media-fixtures.ts';
import { publishApproved } from '../../../test/video-post.ts';

/**
 * A story is published for 24 hours (access/posts.ts, `isPublished`), not only listed for them:
 * after that, a fan (or a visitor, for a free story) who kept its id or the URLs handed out while
 * it was current gets nothing — the post by id is 404, its picture's signed URL, `media.play`, the
 * HLS playlist and key are refused, and it can no longer be liked or commented. Its creator and
 * staff still get all of it. Pay-per-view stories expire too (ADR 0043).
 */
type Who = Awaited<ReturnType<typeof createUser>>;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

// The app's clock, moved by the tests (AppOptions.now); the stories are created at `start`.
const start = Date.now();
let clock = new Date(start);
const at = (ms: number) => {
  clock = new Date(start + ms);
};
let t: TestApp;
let base: string;
let creator: Who;
let fan: Who; // subscriber, and buyer of the pay-per-view story
let admin: Who;
type StoryName = 'picture' | 'video' | 'ppv' | 'freePicture' | 'freeVideo';
const story = {} as Record<StoryName, Post>;

const get = (url: string, token?: string) =>
  fetch(`${base}${url}`, { headers: token ? { a1sledom: token } : {} });
/** The status of a GET of the app's URL (body read, so the connection is freed). */
const statusOf = async (url: string, token?: string) => {
  const res = await get(url, token);
  await res.arrayBuffer();
  return res.status;
};

/** What a viewer holds of a story while it is current: its picture URL or its video's HLS URLs. */
type Held = Partial<Record<'picture' | 'master' | 'playlist' | 'key', string>>;

/** The post by id, as the viewer gets it (null: refused). */
async function postFor(id: string, who: Who | null): Promise<{ status: number; post?: Post }> {
  const res = await t.call('posts.list', { post: id }, who ? { token: who.token } : {});
  return { status: res.status, post: res.body.posts?.[0] };
}

/** Everything the viewer can fetch of the story now, asserting each answer is 200. */
async function fetchAll(s: Post, who: Who | null): Promise<Held> {
  const token = who?.token;
  const { status, post } = await postFor(s._id, who);
  expect(status).toBe(200);
  const media = post?.media[0];
  expect(media?.locked).toBe(false);
  if (media?.type === 'image') {
    expect(media.src).toBeTruthy();
    expect(await statusOf(media.src as string, token)).toBe(200);
    return { picture: media.src as string };
  }
  const play = await t.call('media.play', undefined, { token, params: { id: media?._id as string } });
  expect(play.status, JSON.stringify(play.body)).toBe(200);
  const masterRes = await get(play.body.hls as string, token);
  expect(masterRes.status).toBe(200);
  const playlist = (await masterRes.text()).split('\n').find((l) => l && !l.startsWith('#')) as string;
  const playlistRes = await get(playlist, token);
  expect(playlistRes.status).toBe(200);
  const key = /URI="([^"]+)"/.exec(await playlistRes.text())?.[1] as string;
  expect(await statusOf(key, token)).toBe(200);
  return { master: play.body.hls as string, playlist, key };
}

/** Every one of these is refused: the post 404, the media 403 (a visitor's play: sign in). */
async function expectRefused(name: StoryName, who: Who | null, held: Held) {
  const s = story[name];
  const token = who?.token;
  const what = (thing: string) => `${name} story, ${who ? 'fan' : 'visitor'}: ${thing}`;
  expect.soft((await postFor(s._id, who)).status, what('post by id')).toBe(404);
  for (const [kind, url] of Object.entries(held))
    expect.soft(await statusOf(url, token), what(kind)).toBe(403);
  if (s.media[0]?.type === 'video') {
    const play = await t.call('media.play', undefined, { token, params: { id: s.media[0]._id } });
    expect.soft(play.status, what('media.play')).toBe(who ? 403 : 401);
  }
  if (who) {
    const like = await t.call('posts.like', { id: s._id }, { token });
    expect.soft(like.status, what('like')).toBe(404);
    const comment = await t.call('comments.create', { post: s._id, message: 'late' }, { token });
    expect.soft(comment.status, what('comment')).toBe(404);
  }
}

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  fan = await createUser(t);
  admin = await createUser(t, { roles: ['admin', 'user'] });
  await subscribe(t, fan.id, creator.id);
  const publish = (fields: Record<string, string>, file: { name: string; data: Buffer }) =>
    publishApproved(t, base, creator, { kind: 'story', ...fields }, [file]);
  // Different pictures: the vault stores the same bytes once (ADR 0032).
  story.picture = await publish({ visibility: 'subscribers' }, { name: 'a.jpg', data: await jpeg() });
  story.video = await publish({ visibility: 'subscribers' }, { name: 'a.mp4', data: await mp4(3) });
  story.ppv = await publish(
    { visibility: 'ppv', price: '5' },
    { name: 'b.jpg', data: await jpeg(320, 240, '#09bd09') },
  );
  story.freePicture = await publish(
    { visibility: 'free' },
    { name: 'c.jpg', data: await jpeg(320, 240, '#0909bd') },
  );
  story.freeVideo = await publish({ visibility: 'free' }, { name: 'b.mp4', data: await mp4(2, '96x64') });
  await unlock(t, fan.id, story.ppv._id);
}, 240_000);
afterAll(() => t.stop(), 120_000);

describe('a story is published for 24 hours', () => {
  const fanStories: StoryName[] = ['picture', 'video', 'ppv', 'freeVideo'];
  const visitorStories: StoryName[] = ['freePicture', 'freeVideo'];

  it('plays to the fan and the visitor within 24 h, and nothing of it after 24 h + 1 min', async () => {
    at(24 * HOUR - 5 * MINUTE);
    const listed = await t.call('stories.list', { creator: creator.username }, { token: fan.token });
    expect(listed.body.stories.map((s) => s._id)).toHaveLength(5);
    const fanHeld = await Promise.all(fanStories.map((name) => fetchAll(story[name], fan)));
    const visitorHeld = await Promise.all(visitorStories.map((name) => fetchAll(story[name], null)));

    at(24 * HOUR + MINUTE);
    expect(
      (await t.call('stories.list', { creator: creator.username }, { token: fan.token })).body.stories,
    ).toEqual([]);
    expect((await t.call('stories.list', { creator: creator.username })).body.stories).toEqual([]);
    for (const [i, name] of fanStories.entries()) await expectRefused(name, fan, fanHeld[i] as Held);
    for (const [i, name] of visitorStories.entries()) await expectRefused(name, null, visitorHeld[i] as Held);
  });

  it('still plays to its creator and to staff after 24 h', async () => {
    at(24 * HOUR + MINUTE);
    for (const who of [creator, admin]) {
      for (const s of Object.values(story)) await fetchAll(s, who);
    }
  });
});
