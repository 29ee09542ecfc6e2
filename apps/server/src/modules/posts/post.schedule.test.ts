import type { Post } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFIED_FORM as CERT, CERTIFIED, clockedCast, type createUser } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { jpeg, mp4, postForm } from '../../../test/media-fixtures.ts';
import { PUBLISH_POST } from './post.jobs.ts';

// The app's clock: moved by the tests (AppOptions.now).
let clock = new Date();
let t: TestApp;
let base: string;
let creator: Awaited<ReturnType<typeof createUser>>;
let fan: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;
const HOUR = 3_600_000;

beforeAll(async () => {
  ({ t, base, creator, fan, admin } = await clockedCast(() => clock));
  await t.call('user.follow', { user: creator.username }, { token: fan.token });
});
afterAll(() => t.stop());

/** A post with a picture, processed and approved, scheduled at `publishAt`. */
async function scheduledPost(publishAt: Date): Promise<string> {
  const res = await postForm(
    base,
    '/api/v1/posts',
    creator.token,
    { ...CERT, message: 'Later', visibility: 'free', publishAt: publishAt.toISOString() },
    [{ name: 'p.jpg', data: await jpeg() }],
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = (res.body.post as Post)._id;
  expect((res.body.post as Post).publishAt).toBe(publishAt.toISOString());
  await t.jobs.drain();
  const review = await t.call('admin.postReview', { id, adminStatus: 'approved' }, { token: admin.token });
  expect(review.status).toBe(200);
  return id;
}

/** Which of the fan's (and a visitor's) views show the post. */
async function seenIn(id: string): Promise<Record<string, boolean>> {
  const has = (r: { body: { posts: { _id: string }[] } }) => r.body.posts.some((p) => p._id === id);
  const fanCall = (input: object) => t.call('posts.list', input, { token: fan.token });
  const profile = await t.call('creator.profile', undefined, {
    token: fan.token,
    params: { id: creator.username },
  });
  return {
    home: has(await fanCall({})),
    creator: has(await fanCall({ creator: creator.username })),
    explore: has(await fanCall({ explore: '1' })),
    gallery: has(await fanCall({ feed: 'gallery' })),
    following: has(await fanCall({ feed: 'my_content' })),
    single: (await fanCall({ post: id })).status === 200,
    visitor: (await t.call('posts.list', { post: id })).status === 200,
    profileCount: profile.body.counts.posts === 1,
  };
}

const everywhere = (v: boolean) => ({
  home: v,
  creator: v,
  explore: v,
  gallery: v,
  following: v,
  single: v,
  visitor: v,
  profileCount: v,
});

describe('scheduled posts', () => {
  it('is invisible in every feed before its time and visible after, as the clock moves', async () => {
    const at = new Date(clock.getTime() + 2 * HOUR);
    const id = await scheduledPost(at);
    expect(await seenIn(id)).toEqual(everywhere(false));
    // The creator sees it in the queue and on their own page.
    const queue = await t.call('posts.scheduled', {}, { token: creator.token });
    expect(queue.body.posts.map((p) => p._id)).toEqual([id]);
    clock = new Date(at.getTime() - 1000);
    expect(await seenIn(id)).toEqual(everywhere(false));
    clock = new Date(at.getTime() + 1000);
    expect(await seenIn(id)).toEqual(everywhere(true));
    expect((await t.call('posts.scheduled', {}, { token: creator.token })).body.posts).toEqual([]);
    // The publication job (queued for `at` on the backbone) records it live and tells the creator,
    // once however often it runs; here it runs as the clock moved (its start time is the real one).
    for (let i = 0; i < 2; i++) {
      await t.jobs.send(PUBLISH_POST, { postId: id, publishAt: at.toISOString() });
      await t.jobs.drain();
    }
    const notes = await t.call('notifications.list', {}, { token: creator.token });
    expect(notes.body.notifications.filter((n) => n.kind === 'post_published')).toHaveLength(1);
  });

  it('the creator changes the time, or publishes now; the publication job tells the creator once', async () => {
    const at = new Date(clock.getTime() + 5 * HOUR);
    const id = await scheduledPost(at);
    const later = new Date(at.getTime() + HOUR);
    const moved = await t.call(
      'posts.schedule',
      { id, publishAt: later.toISOString() },
      { token: creator.token },
    );
    expect(moved.status).toBe(200);
    expect(moved.body.post.publishAt).toBe(later.toISOString());
    expect((await t.call('posts.schedule', { id, publishAt: null }, { token: fan.token })).status).toBe(403);
    const past = await t.call(
      'posts.schedule',
      { id, publishAt: new Date(clock.getTime() - HOUR).toISOString() },
      { token: creator.token },
    );
    expect(past.status).toBe(400);
    expect(past.body.fields?.publishAt).toBeDefined();
    expect((await t.call('posts.list', { post: id }, { token: fan.token })).status).toBe(404);
    const now = await t.call('posts.schedule', { id, publishAt: null }, { token: creator.token });
    expect(now.status).toBe(200);
    expect((await t.call('posts.list', { post: id }, { token: fan.token })).status).toBe(200);
    // Not in the queue any more: publishing again is refused.
    expect((await t.call('posts.schedule', { id, publishAt: null }, { token: creator.token })).status).toBe(
      409,
    );
  });

  it('refuses a publication time in the past', async () => {
    const res = await t.call(
      'posts.create',
      { message: 'x', ...CERTIFIED, publishAt: new Date(clock.getTime() - 60_000).toISOString() },
      { token: creator.token },
    );
    expect(res.status).toBe(400);
    expect(res.body.fields?.publishAt).toBeDefined();
  });
});

describe('lifecycle of a post with files', () => {
  it('failed media cannot be approved; the retry resumes the same post', async () => {
    // A video cut short: accepted at upload (its type is known), but it cannot be processed.
    const broken = (await mp4()).subarray(0, 600);
    const res = await postForm(base, '/api/v1/posts', creator.token, { ...CERT, message: 'oops' }, [
      { name: 'broken.mp4', data: broken },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const post = res.body.post as Post;
    expect(post.adminStatus).toBe('processing');
    // Not in the review queue while processing, nor once failed.
    const queue = async () =>
      (await t.call('posts.list', { adminStatus: 'new' }, { token: admin.token })).body.posts.map(
        (p) => p._id,
      );
    expect(await queue()).not.toContain(post._id);
    await t.jobs.drain();
    const own = (await t.call('posts.list', { post: post._id }, { token: creator.token })).body.posts[0]!;
    expect(own.adminStatus).toBe('failed');
    expect(await queue()).not.toContain(post._id);
    const approve = await t.call(
      'admin.postReview',
      { id: post._id, adminStatus: 'approved' },
      { token: admin.token },
    );
    expect(approve.status).toBe(409);
    expect(approve.body.code).toBe('POST_STATE_CONFLICT');

    const retry = await postForm(
      base,
      `/api/v1/posts/${post._id}`,
      creator.token,
      { ...CERT, message: 'fixed' },
      [{ name: 'good.jpg', data: await jpeg() }],
      { method: 'PUT' },
    );
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect((retry.body.post as Post)._id).toBe(post._id);
    expect((retry.body.post as Post).media).toHaveLength(1);
    await t.jobs.drain();
    const after = (await t.call('posts.list', { post: post._id }, { token: creator.token })).body.posts[0]!;
    expect(after.adminStatus).toBe('new');
    expect(after.media[0]!.status).toBe('ready');
    expect(await queue()).toContain(post._id);
    const mine = await t.call('posts.list', { creator: creator.username }, { token: creator.token });
    expect(mine.body.posts.filter((p) => p.message === 'fixed' || p.message === 'oops')).toHaveLength(1);
  });
});
