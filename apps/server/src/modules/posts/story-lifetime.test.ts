import type { Post } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CERTIFIED_FORM as CERT,
  CERTIFIED,
  clockedCast,
  createUser,
  subscribe,
  unlock,
} from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { jpeg, mp4, postForm } from '../../../test/media-fixtures.ts';
import { publishApproved } from '../../../test/video-post.ts';
import { PUBLISH_POST } from './post.jobs.ts';

/**
 * A story is published for 24 hours from when it went live (access/posts.ts, `isPublished`), not
 * only listed for them: after that, a fan (or a visitor, for a free story) who kept its id or the
 * URLs handed out while it was current gets nothing — the post by id is 404, its picture's signed
 * URL, `media.play`, the HLS playlist and key are refused, and it can no longer be liked or
 * commented. Its creator and staff still get all of it. Pay-per-view stories expire too (ADR 0043).
 * A story approved late, scheduled, edited and approved again, or taken down and restored lives
 * its 24 hours from then, not from when it was written.
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
let late: Who; // a second creator (the fan subscribes): stories that went live after they were written
let moderator: Who;
type StoryName =
  | 'picture'
  | 'video'
  | 'ppv'
  | 'freePicture'
  | 'freeVideo'
  | 'latePicture'
  | 'lateVideo'
  | 'scheduled'
  | 'edited'
  | 'restored';
const story = {} as Record<StoryName, Post>;
/** Stories of `creator` approved at `start`, the first test's. */
const onTime: StoryName[] = ['picture', 'video', 'ppv', 'freePicture', 'freeVideo'];

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

/** A moderator's decision on a story, at the app's clock. */
async function review(name: StoryName, adminStatus: 'approved' | 'rejected') {
  const res = await t.call(
    'admin.postReview',
    { id: story[name]._id, adminStatus },
    { token: moderator.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Which of these stories of `late` the fan's stories row lists, in its order. */
async function inRow(...names: StoryName[]): Promise<StoryName[]> {
  const row = await t.call('stories.list', { creator: late.username }, { token: fan.token });
  expect(row.status).toBe(200);
  return row.body.stories.flatMap((s) => names.filter((n) => story[n]._id === s._id));
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
  ({ t, base, creator, fan, admin } = await clockedCast(() => clock));
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

  // Written at `start` too, by `late`; each goes live later (the tests move the clock and review).
  late = await createUser(t, { roles: ['user', 'creator'], verified: true });
  moderator = await createUser(t, { roles: ['admin', 'user'] });
  await subscribe(t, fan.id, late.id);
  const submit = async (fields: Record<string, string>, file: { name: string; data: Buffer }) => {
    const res = await postForm(
      base,
      '/api/v1/posts',
      late.token,
      { ...CERT, message: 'later', kind: 'story', visibility: 'subscribers', ...fields },
      [file],
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await t.jobs.drain();
    return res.body.post as Post;
  };
  // The video first: by creation the picture is the newer one.
  story.lateVideo = await submit({}, { name: 'l.mp4', data: await mp4(2, '96x64') });
  story.latePicture = await submit({}, { name: 'l.jpg', data: await jpeg(320, 240, '#bd0909') });
  story.scheduled = await submit(
    { publishAt: new Date(start + 48 * HOUR).toISOString() },
    { name: 's.jpg', data: await jpeg(320, 240, '#bdbd09') },
  );
  story.edited = await submit({}, { name: 'e.jpg', data: await jpeg(320, 240, '#09bdbd') });
  story.restored = await submit({}, { name: 'r.jpg', data: await jpeg(320, 240, '#bd09bd') });
  for (const name of ['scheduled', 'edited', 'restored'] as const) await review(name, 'approved');
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
      for (const name of onTime) await fetchAll(story[name], who);
    }
  });
});

/**
 * The fan gets these stories of `late` (row, post, media) until 24 h after `from` (ms after
 * `start`), and nothing of them after, not even with what they fetched just before.
 */
async function livesADayFrom(from: number, ...names: StoryName[]) {
  at(from + 24 * HOUR - 5 * MINUTE);
  expect(await inRow(...names)).toEqual(names);
  const held: Held[] = [];
  for (const name of names) held.push(await fetchAll(story[name], fan));
  at(from + 24 * HOUR + MINUTE);
  expect(await inRow(...names)).toEqual([]);
  for (const [i, name] of names.entries()) await expectRefused(name, fan, held[i] as Held);
}

describe('a story lives 24 hours from when it went live, not from when it was written', () => {
  it('approved 30 h after it was written: shown from approval for 24 h, newest live first', async () => {
    at(29 * HOUR);
    expect(await inRow('latePicture', 'lateVideo')).toEqual([]);
    at(30 * HOUR);
    await review('latePicture', 'approved');
    at(30 * HOUR + MINUTE);
    await review('lateVideo', 'approved');
    at(31 * HOUR);
    // Went live last, so first in the row (although written first); dated when it went live.
    expect(await inRow('latePicture', 'lateVideo')).toEqual(['lateVideo', 'latePicture']);
    expect((await postFor(story.lateVideo._id, fan)).post?.date).toBe(
      new Date(start + 30 * HOUR + MINUTE).toISOString(),
    );
    await fetchAll(story.latePicture, fan);
    await fetchAll(story.lateVideo, fan);
    await livesADayFrom(30 * HOUR + MINUTE, 'lateVideo', 'latePicture');
  });

  it('scheduled for 48 h after it was written: shown from then for 24 h, before and after its job ran', async () => {
    const publishAt = new Date(start + 48 * HOUR);
    at(48 * HOUR - MINUTE);
    expect((await postFor(story.scheduled._id, fan)).status).toBe(404);
    // Its time has come; the publication job (queued for the real clock) has not run yet.
    at(49 * HOUR);
    expect(await inRow('scheduled')).toEqual(['scheduled']);
    await fetchAll(story.scheduled, fan);
    await t.jobs.send(PUBLISH_POST, { postId: story.scheduled._id, publishAt: publishAt.toISOString() });
    await t.jobs.drain();
    await livesADayFrom(48 * HOUR, 'scheduled');
  });

  it('edited (back to review) and approved again 30 h after it was written: 24 h from then', async () => {
    at(20 * HOUR);
    const edit = await t.call(
      'posts.update',
      { message: 'changed', ...CERTIFIED },
      { token: late.token, params: { id: story.edited._id } },
    );
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await postFor(story.edited._id, fan)).status).toBe(404);
    at(30 * HOUR);
    await review('edited', 'approved');
    await livesADayFrom(30 * HOUR, 'edited');
  });

  it('taken down by a moderator and restored 30 h after it was written: 24 h from the restoration', async () => {
    at(2 * HOUR);
    await review('restored', 'rejected');
    expect((await postFor(story.restored._id, fan)).status).toBe(404);
    at(30 * HOUR);
    await review('restored', 'approved');
    await livesADayFrom(30 * HOUR, 'restored');
  });
});
