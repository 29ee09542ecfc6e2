import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFIED, createPost, createUser, subscribe, unlock } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let creator: Awaited<ReturnType<typeof createUser>>;
let fan: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await createTestApp();
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  fan = await createUser(t);
  admin = await createUser(t, { roles: ['admin', 'user'] });
});
afterAll(() => t.stop());

const ids = (res: { body: { posts: { _id: string }[] } }) => res.body.posts.map((p) => p._id);

describe('publishing and review', () => {
  it('refuses fans: only creators publish', async () => {
    const res = await t.call('posts.create', { message: 'hi', ...CERTIFIED }, { token: fan.token });
    expect(res.status).toBe(403);
  });

  it('requires the three content certifications', async () => {
    const res = await t.call('posts.create', { message: 'hi' }, { token: creator.token, lang: 'es' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields ?? {}).sort()).toEqual([
      'certifyAdults',
      'certifyConsent',
      'certifyTerms',
    ]);
    expect(res.body.fields?.certifyAdults).toBe('Confirma esta certificación para publicar.');
  });

  it('limits the text to 280 characters and needs a price for pay-per-view', async () => {
    const long = await t.call(
      'posts.create',
      { message: 'x'.repeat(281), ...CERTIFIED },
      { token: creator.token },
    );
    expect(long.status).toBe(400);
    expect(long.body.fields?.message).toBeDefined();
    const ppv = await t.call(
      'posts.create',
      { message: 'pay', visibility: 'ppv', price: 0, ...CERTIFIED },
      { token: creator.token },
    );
    expect(ppv.status).toBe(400);
    expect(ppv.body.fields?.price).toBeDefined();
  });

  it('a new post waits for review: hidden from fans, listed for moderators, published when approved', async () => {
    const id = await createPost(t, creator, { message: 'awaiting review' }, { approve: false });
    expect(ids(await t.call('posts.list', {}, { token: fan.token }))).not.toContain(id);
    expect((await t.call('posts.list', { post: id }, { token: fan.token })).status).toBe(404);
    const queue = await t.call('posts.list', { adminStatus: 'new' }, { token: admin.token });
    expect(ids(queue)).toContain(id);
    expect(
      (await t.call('user.profile', undefined, { token: admin.token })).body.counters.postsByReview,
    ).toBeGreaterThan(0);

    const review = await t.call('admin.postReview', { id, adminStatus: 'approved' }, { token: admin.token });
    expect(review.status).toBe(200);
    expect(review.body.post.adminStatus).toBe('approved');
    expect(ids(await t.call('posts.list', {}, { token: fan.token }))).toContain(id);
    expect(ids(await t.call('posts.list', { adminStatus: 'approved' }, { token: admin.token }))).toContain(
      id,
    );
    expect(ids(await t.call('posts.list', { adminStatus: 'new' }, { token: admin.token }))).not.toContain(id);
    const notes = await t.database.session((exec) =>
      exec(`SELECT kind FROM notifications WHERE user_id = '${creator.id}' AND payload->>'postId' = '${id}'`),
    );
    expect(notes.map((n) => n.kind)).toContain('post_approved');
  });

  it('a rejected post shows under Disapproved with its reason and stays hidden', async () => {
    const id = await createPost(t, creator, { message: 'to reject' }, { approve: false });
    const res = await t.call(
      'admin.postReview',
      { id, adminStatus: 'rejected', reason: 'Blurry' },
      { token: admin.token },
    );
    expect(res.body.post.reviewReason).toBe('Blurry');
    expect(ids(await t.call('posts.list', { adminStatus: 'rejected' }, { token: admin.token }))).toContain(
      id,
    );
    expect(ids(await t.call('posts.list', {}, { token: fan.token }))).not.toContain(id);
    const own = await t.call('posts.list', { creator: creator.username }, { token: creator.token });
    expect(own.body.posts.find((p) => p._id === id)?.adminStatus).toBe('rejected');
  });

  it('only moderators review, and the review needs a post id', async () => {
    const id = await createPost(t, creator, {}, { approve: false });
    expect(
      (await t.call('admin.postReview', { id, adminStatus: 'approved' }, { token: fan.token })).status,
    ).toBe(403);
    expect(
      (await t.call('admin.postReview', { id, adminStatus: 'approved' }, { token: creator.token })).status,
    ).toBe(403);
    expect((await t.call('posts.list', { adminStatus: 'new' }, { token: fan.token })).status).toBe(403);
    const missing = await t.call('admin.postReview', { adminStatus: 'approved' }, { token: admin.token });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'MISSING_POST_ID', message: 'Missing post ID' });
  });

  it('an edit sends the post back to review; only its creator edits; deleting hides it', async () => {
    const id = await createPost(t, creator, { message: 'v1' });
    const other = await createUser(t, { roles: ['user', 'creator'] });
    expect(
      (
        await t.call(
          'posts.update',
          { message: 'hijack', ...CERTIFIED },
          { token: other.token, params: { id } },
        )
      ).status,
    ).toBe(403);
    const edit = await t.call(
      'posts.update',
      { message: 'v2', ...CERTIFIED },
      { token: creator.token, params: { id } },
    );
    expect(edit.status).toBe(200);
    expect(edit.body.post).toMatchObject({ message: 'v2', adminStatus: 'new' });
    expect((await t.call('posts.delete', undefined, { token: fan.token, params: { id } })).status).toBe(403);
    expect((await t.call('posts.delete', undefined, { token: creator.token, params: { id } })).status).toBe(
      200,
    );
    expect((await t.call('posts.list', { post: id }, { token: creator.token })).status).toBe(404);
  });
});

describe('discounts', () => {
  it('applies the discount only while on and before the limit', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const on = await createPost(t, creator, {
      visibility: 'ppv',
      price: 200,
      discountStatus: 'on',
      discountPercent: 25,
      discountDateLimit: future,
    });
    const expired = await createPost(t, creator, {
      visibility: 'ppv',
      price: 200,
      discountStatus: 'on',
      discountPercent: 25,
      discountDateLimit: past,
    });
    const off = await createPost(t, creator, {
      visibility: 'ppv',
      price: 200,
      discountStatus: 'off',
      discountPercent: 25,
    });
    const get = async (id: string) =>
      (await t.call('posts.list', { post: id }, { token: fan.token })).body.posts[0]!;
    expect((await get(on)).finalPrice).toBe(150);
    expect((await get(expired)).finalPrice).toBe(200);
    expect((await get(off)).finalPrice).toBe(200);
  });
});

describe('likes and saves', () => {
  it('toggles a like with the count, and lists who liked', async () => {
    const id = await createPost(t, creator);
    const liked = await t.call('posts.like', { id, creator: creator.username }, { token: fan.token });
    expect(liked.body).toEqual({ success: true, liked: true, likes: 1 });
    const post = (await t.call('posts.list', { post: id }, { token: fan.token })).body.posts[0]!;
    expect(post).toMatchObject({ liked: true, likes: 1 });
    const likers = await t.call('likes.list', { post: id }, { token: creator.token });
    expect(likers.body.users.map((u) => u.user)).toEqual([fan.username]);
    expect(likers.body.users[0]).not.toHaveProperty('email');
    const unliked = await t.call('posts.like', { id }, { token: fan.token });
    expect(unliked.body).toEqual({ success: true, liked: false, likes: 0 });
  });

  it("a signed-in page served from the shared cache shows another fan's like and comment at once, and the viewer's own entitlements fresh", async () => {
    const ppv = await createPost(t, creator, { visibility: 'ppv', price: 50 });
    const subs = await createPost(t, creator, { visibility: 'subscribers' });
    const other = await createUser(t);
    const seen = async (id: string) => {
      const out = [];
      for (const query of [{ post: id }, { creator: creator.username }, {}]) {
        const res = await t.call('posts.list', query, { token: fan.token });
        expect(res.status).toBe(200);
        out.push(res.body.posts.find((p) => p._id === id)!);
      }
      return out;
    };
    // The first look fills the shared part of each page.
    for (const p of await seen(ppv))
      expect(p).toMatchObject({ likes: 0, comments: 0, liked: false, access: false });
    for (const p of await seen(subs)) expect(p).toMatchObject({ access: false });
    await t.call('posts.like', { id: ppv }, { token: other.token });
    expect(
      (await t.call('comments.create', { post: ppv, message: 'Nice' }, { token: other.token })).status,
    ).toBe(200);
    for (const p of await seen(ppv))
      expect(p).toMatchObject({ likes: 1, comments: 1, liked: false, access: false });
    // Entitlements written straight into the store (another copy, the payments module) show at once.
    await unlock(t, fan.id, ppv);
    await subscribe(t, fan.id, creator.id);
    await t.call('posts.like', { id: ppv }, { token: fan.token });
    for (const p of await seen(ppv)) expect(p).toMatchObject({ likes: 2, liked: true, access: true });
    for (const p of await seen(subs)) expect(p).toMatchObject({ access: true });
  });

  it('answers Missing post ID without an id', async () => {
    for (const name of ['posts.like', 'posts.save'] as const) {
      const res = await t.call(name, { creator: 'x' }, { token: fan.token });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Missing post ID');
    }
  });

  it('saved posts appear under content=saved until unsaved', async () => {
    const id = await createPost(t, creator);
    expect((await t.call('posts.save', { id }, { token: fan.token })).body.saved).toBe(true);
    expect(
      ids(await t.call('posts.list', { feed: 'my_content', content: 'saved' }, { token: fan.token })),
    ).toContain(id);
    expect((await t.call('posts.save', { id }, { token: fan.token })).body.saved).toBe(false);
    expect(
      ids(await t.call('posts.list', { feed: 'my_content', content: 'saved' }, { token: fan.token })),
    ).not.toContain(id);
  });

  it('cannot like a post that is not published', async () => {
    const id = await createPost(t, creator, {}, { approve: false });
    expect((await t.call('posts.like', { id }, { token: fan.token })).status).toBe(404);
  });
});

describe('feeds', () => {
  it('pages with hasMore; page 2 continues page 1', async () => {
    const c = await createUser(t, { roles: ['user', 'creator'], verified: true });
    for (let i = 0; i < 5; i++) await createPost(t, c, { message: `p${i}` }, { moderator: admin });
    const p1 = await t.call('posts.list', { creator: c.username, limit: 2 }, { token: fan.token });
    const p3 = await t.call('posts.list', { creator: c.username, limit: 2, page: 3 }, { token: fan.token });
    expect(p1.body.statistics).toEqual({ page: 1, limit: 2, total: 5, hasMore: true });
    expect(p3.body.statistics.hasMore).toBe(false);
    expect(p3.body.posts).toHaveLength(1);
    expect(p1.body.profile?.user).toBe(c.username);
    expect(p1.body.profile?.counts.posts).toBe(5);
  });

  it('favourites: following a creator puts their posts under my_content content=all', async () => {
    const c = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const id = await createPost(t, c, {}, { moderator: admin });
    expect(
      ids(await t.call('posts.list', { feed: 'my_content', content: 'all' }, { token: fan.token })),
    ).not.toContain(id);
    expect((await t.call('user.follow', { creator: c.username }, { token: fan.token })).body.following).toBe(
      true,
    );
    expect(
      ids(await t.call('posts.list', { feed: 'my_content', content: 'all' }, { token: fan.token })),
    ).toContain(id);
    expect(
      (await t.call('user.following', undefined, { token: fan.token })).body.users.map((u) => u.user),
    ).toContain(c.username);
  });

  it('suggests creators to fans, with the first page only, but not to creators nor on review queries', async () => {
    expect((await t.call('posts.list', {}, { token: fan.token })).body.suggestions.length).toBeGreaterThan(0);
    expect((await t.call('posts.list', { page: '2' }, { token: fan.token })).body.suggestions).toEqual([]);
    expect((await t.call('posts.list', {}, { token: creator.token })).body.suggestions).toEqual([]);
    expect(
      (await t.call('posts.list', { adminStatus: 'all' }, { token: admin.token })).body.suggestions,
    ).toEqual([]);
  });

  it('an unknown creator answers 404', async () => {
    expect((await t.call('posts.list', { creator: 'nobodyatall99' }, { token: fan.token })).status).toBe(404);
  });
});

describe('reports', () => {
  it('stores a report as a pending complaint that moderators count', async () => {
    const id = await createPost(t, creator);
    const before = (await t.call('user.profile', undefined, { token: admin.token })).body.counters
      .complaintsByVerify;
    const res = await t.call(
      'report.create',
      { type: 'post', id, reason: 'spam', details: 'ads' },
      { token: fan.token },
    );
    expect(res.status).toBe(200);
    const after = (await t.call('user.profile', undefined, { token: admin.token })).body.counters
      .complaintsByVerify;
    expect(after).toBe(before + 1);
  });

  it('refuses a reason outside the list', async () => {
    const id = await createPost(t, creator);
    const res = await t.call('report.create', { type: 'post', id, reason: 'boring' }, { token: fan.token });
    expect(res.status).toBe(400);
    expect(res.body.fields?.reason).toBeDefined();
  });
});
