import type { Post } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFIED_FORM as CERT, createUser, subscribe } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { jpeg, mp4, postForm } from '../../../test/media-fixtures.ts';
import { EVERYONE } from '../../access/index.ts';

/** ADR 0038: what a visitor (nobody signed in) gets of stories and media. */
describe("a visitor's stories and media (ADR 0038)", () => {
  let t: TestApp;
  let base: string;
  let creator: Awaited<ReturnType<typeof createUser>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    const cases: [string, Record<string, string>][] = [
      ['freeStory', { kind: 'story', visibility: 'free' }],
      ['subsStory', { kind: 'story', visibility: 'subscribers' }],
      ['ppvStory', { kind: 'story', visibility: 'ppv', price: '10' }],
      ['freePost', { kind: 'post', visibility: 'free' }],
      ['subsPost', { kind: 'post', visibility: 'subscribers' }],
      ['ppvPost', { kind: 'post', visibility: 'ppv', price: '10' }],
    ];
    const colours = ['#bd0909', '#09bd09', '#0909bd', '#bdbd09', '#09bdbd', '#bd09bd'];
    for (const [i, [name, fields]] of cases.entries()) {
      const res = await postForm(
        base,
        '/api/v1/posts',
        creator.token,
        { ...CERT, message: name, ...fields },
        [
          // Different pictures: the vault stores the same bytes once (ADR 0032).
          { name: `${name}.jpg`, data: await jpeg(320, 240, colours[i]) },
        ],
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids[name] = (res.body.post as Post)._id;
    }
    await t.jobs.drain();
    for (const id of Object.values(ids)) {
      const review = await t.call(
        'admin.postReview',
        { id, adminStatus: 'approved' },
        { token: admin.token },
      );
      expect(review.status).toBe(200);
    }
    // A story waiting for review is never shown to a visitor either.
    const pending = await postForm(
      base,
      '/api/v1/posts',
      creator.token,
      {
        ...CERT,
        message: 'pending',
        kind: 'story',
        visibility: 'free',
      },
      [{ name: 'pending.jpg', data: await jpeg(320, 240, '#777777') }],
    );
    ids.pendingStory = (pending.body.post as Post)._id;
    await t.jobs.drain();
  });
  afterAll(() => t.stop(), 180_000);

  /** Fetches a URL of the app and reads the whole body (an unread stream would hold the server). */
  const get = async (url: string, token?: string) => {
    const res = await fetch(`${base}${url}`, { headers: token ? { a1sledom: token } : {} });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, body };
  };

  it("lists only free published stories, a creator's and every creator's, with media it can fetch", async () => {
    for (const query of [{ creator: creator.username }, {}]) {
      const res = await t.call('stories.list', query);
      expect(res.status).toBe(200);
      const stories = res.body.stories as Post[];
      expect(stories.map((s) => s._id)).toEqual([ids.freeStory]);
      const [story] = stories;
      expect(story?.access).toBe(true);
      const src = story?.media[0]?.src;
      expect(src).toContain(`fan=${EVERYONE}`);
      const file = await get(src ?? '');
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^image\//);
      // Nothing of the locked or pending stories: not their ids, not a URL of their files.
      const text = JSON.stringify(res.body);
      for (const hidden of ['subsStory', 'ppvStory', 'pendingStory']) expect(text).not.toContain(ids[hidden]);
    }
  });

  it('gets no URL of locked media: a locked post shows only its blurred preview', async () => {
    const feed = await t.call('posts.list', {});
    const listed = (feed.body.posts as Post[]).map((p) => p._id);
    expect(listed).toContain(ids.freePost);
    expect(listed).not.toContain(ids.subsPost);
    expect(listed).not.toContain(ids.ppvPost);
    const free = (feed.body.posts as Post[]).find((p) => p._id === ids.freePost);
    expect(free?.access).toBe(true);
    expect((await get(free?.media[0]?.src ?? '')).status).toBe(200);
    for (const name of ['subsPost', 'ppvPost']) {
      const one = await t.call('posts.list', { post: ids[name] });
      const [post] = one.body.posts as Post[];
      expect(post?.access).toBe(false);
      for (const m of post?.media ?? []) {
        expect([m.src, m.thumb, m.poster, m.mediaPoster, m.location]).toEqual([null, null, null, null, null]);
        expect(m.locked).toBe(true);
        expect(m.blur).toMatch(/\/blur\?/);
      }
    }
  });

  it("the visitors' signature opens no other file, and a signed-in fan still gets their own marked copy", async () => {
    const res = await t.call('stories.list', { creator: creator.username });
    const src = (res.body.stories as Post[])[0]?.media[0]?.src ?? '';
    const mediaId = src.split('/')[4] ?? '';
    const subscriber = await createUser(t);
    await subscribe(t, subscriber.id, creator.id);
    const locked = await t.call('stories.list', { creator: creator.username }, { token: subscriber.token });
    const lockedStory = (locked.body.stories as Post[]).find((s) => s._id === ids.subsStory);
    const lockedId = lockedStory?.media[0]?._id ?? '';
    expect(lockedId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lockedId).not.toBe(mediaId);
    expect((await get(src.replace(mediaId, lockedId))).status).toBe(403);
    // The same signature with no fan at all, or with a fan, is another signature.
    expect((await get(src.replace(`&fan=${EVERYONE}`, ''))).status).toBe(403);
    const fan = await createUser(t);
    const fanStories = await t.call('stories.list', { creator: creator.username }, { token: fan.token });
    const fanSrc =
      (fanStories.body.stories as Post[]).find((s) => s._id === ids.freeStory)?.media[0]?.src ?? '';
    expect(fanSrc).toContain(`fan=${fan.id}`);
    expect(fanSrc).not.toContain(EVERYONE);
    // A signed-in fan who follows nobody sees the stories of followed creators: none.
    expect((await t.call('stories.list', {}, { token: fan.token })).body.stories).toEqual([]);
  });

  it('plays a free video to a visitor (HLS signed for everyone, and the MP4 of a short clip), nothing of a subscribers video', async () => {
    const videos: Record<string, string> = {};
    for (const [name, visibility, seconds] of [
      ['free', 'free', 2],
      ['subs', 'subscribers', 3],
    ] as const) {
      const res = await postForm(
        base,
        '/api/v1/posts',
        creator.token,
        { ...CERT, message: `video ${name}`, visibility },
        [{ name: `${name}.mp4`, data: await mp4(seconds) }],
      );
      expect(res.status).toBe(200);
      videos[name] = (res.body.post as Post).media[0]?._id as string;
      const admin = await createUser(t, { roles: ['admin', 'user'] });
      await t.jobs.drain();
      await t.call(
        'admin.postReview',
        { id: (res.body.post as Post)._id, adminStatus: 'approved' },
        { token: admin.token },
      );
    }
    const free = await t.call('media.play', undefined, { params: { id: videos.free as string } });
    expect(free.status).toBe(200);
    // Long videos have no MP4: the HLS player plays them (media/hls/visitor.test.ts).
    expect(free.body.hls).toContain('sid=00000000-0000-0000-0000-000000000000');
    expect(free.body.captions).toEqual([]);
    const file = await get(free.body.mp4 as string);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^video\//);
    expect((await get(free.body.poster as string)).status).toBe(200);
    const locked = await t.call('media.play', undefined, { params: { id: videos.subs as string } });
    expect(locked.status).toBe(401);
    expect(JSON.stringify(locked.body)).not.toContain('/api/v1/media/');
  }, 120_000);

  it("orders every creator's stories by the creator's followers (spec §6: popular creators), then newest", async () => {
    // A newer free story of a creator nobody follows, while the first creator gains followers.
    const other = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const res = await postForm(
      base,
      '/api/v1/posts',
      other.token,
      { ...CERT, message: 'newer', kind: 'story', visibility: 'free' },
      [{ name: 'newer.jpg', data: await jpeg(320, 240, '#123456') }],
    );
    expect(res.status).toBe(200);
    const newer = (res.body.post as Post)._id;
    await t.jobs.drain();
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    await t.call('admin.postReview', { id: newer, adminStatus: 'approved' }, { token: admin.token });
    for (let i = 0; i < 2; i++) {
      const fan = await createUser(t);
      await t.database.session((exec) =>
        exec(`INSERT INTO follows (follower_id, creator_id) VALUES ('${fan.id}', '${creator.id}')`),
      );
    }
    const order = ((await t.call('stories.list', {})).body.stories as Post[]).map((s) => s._id);
    // The followed creator's older story first, then the newer one of the creator nobody follows.
    expect(order).toEqual([ids.freeStory, newer]);
  });
});
