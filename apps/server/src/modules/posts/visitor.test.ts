import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

describe("a visitor's home (spec §6)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('lists free published posts only, with their media (free to everyone, ADR 0038); a signed-in fan sees the rest too', async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const free = await createPost(t, creator, { message: 'Free for everyone' });
    const paid = await createPost(t, creator, { message: 'Pay to see', visibility: 'ppv', price: 10 });
    const subs = await createPost(t, creator, { message: 'Subscribers only', visibility: 'subscribers' });
    const pending = await createPost(t, creator, { message: 'Waiting review' }, { approve: false });
    const visitor = await t.call('posts.list', {});
    expect(visitor.status).toBe(200);
    const ids = visitor.body.posts.map((p) => p._id);
    expect(ids).toContain(free);
    for (const hidden of [paid, subs, pending]) expect(ids).not.toContain(hidden);
    expect(visitor.body.posts.every((p) => p.visibility === 'free' && p.access)).toBe(true);
    const fan = await createUser(t);
    const signedIn = (await t.call('posts.list', {}, { token: fan.token })).body.posts.map((p) => p._id);
    expect(signedIn).toEqual(expect.arrayContaining([free, paid, subs]));
  });
});
