import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

describe('explore', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('lets only creators choose up to three known categories, and lists them by category', async () => {
    const yogi = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const fan = await createUser(t);
    expect(
      (await t.call('creator.setTags', { tags: ['yoga', 'travel'] }, { token: yogi.token })).body,
    ).toEqual({
      tags: ['travel', 'yoga'],
    });
    expect((await t.call('creator.tags', undefined, { token: yogi.token })).body.tags).toEqual([
      'travel',
      'yoga',
    ]);
    expect((await t.call('creator.setTags', { tags: ['yoga'] }, { token: fan.token })).status).toBe(403);
    expect((await t.call('creator.tags', undefined, { token: fan.token })).status).toBe(403);
    expect((await t.call('creator.setTags', { tags: ['yoga'] })).status).toBe(401);
    const tooMany = await t.call(
      'creator.setTags',
      { tags: ['yoga', 'art', 'music', 'dance'] },
      { token: yogi.token },
    );
    expect(tooMany.status).toBe(400);
    const unknown = await t.call('creator.setTags', { tags: ['weapons'] }, { token: yogi.token, lang: 'es' });
    expect(unknown.status).toBe(400);
    const page = await t.call('explore.sections', { tag: 'yoga' });
    expect(page.status).toBe(200);
    expect(page.body.tag).toBe('yoga');
    expect(page.body.tagCreators.map((c) => c.user)).toContain(yogi.username);
    expect((await t.call('explore.sections', { tag: 'nope' as never })).status).toBe(400);
  });

  it('shows trending and new creators to everyone, and creators you may like only to fans', async () => {
    const a = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const b = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const c = await createUser(t, { roles: ['user', 'creator'], verified: true });
    await t.call('creator.setTags', { tags: ['cooking'] }, { token: b.token });
    await t.call('creator.setTags', { tags: ['cooking'] }, { token: c.token });
    // A peer follows a and c; our fan likes a post of a: c is a creator the fan may like.
    const peer = await createUser(t);
    await t.call('user.follow', { creator: a.username }, { token: peer.token });
    await t.call('user.follow', { creator: c.username }, { token: peer.token });
    const fan = await createUser(t);
    const post = await createPost(t, a, { message: 'Pasta night' });
    expect((await t.call('posts.like', { id: post, creator: a.username }, { token: fan.token })).status).toBe(
      200,
    );
    const mine = await t.call('explore.sections', {}, { token: fan.token });
    expect(mine.status).toBe(200);
    const liked = mine.body.mayLike.map((u) => u.user);
    expect(liked[0]).toBe(c.username);
    expect(mine.body.newCreators.length).toBeGreaterThan(0);
    expect(mine.body.trending.length).toBeGreaterThan(0);
    const visitor = await t.call('explore.sections', {});
    expect(visitor.body.mayLike).toEqual([]);
    expect((await t.call('explore.sections', {}, { token: a.token })).body.mayLike).toEqual([]);
    const staff = await createUser(t, { roles: ['user', 'admin'] });
    expect((await t.call('explore.sections', {}, { token: staff.token })).body.mayLike).toEqual([]);
  });

  it('explore posts are free posts only, most liked first', async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const paid = await createPost(t, creator, { message: 'Paid', visibility: 'ppv', price: 5 });
    const free = await createPost(t, creator, { message: 'Free' });
    const fan = await createUser(t);
    const ids = (await t.call('posts.list', { explore: '1' }, { token: fan.token })).body.posts.map(
      (p) => p._id,
    );
    expect(ids).toContain(free);
    expect(ids).not.toContain(paid);
  });
});
