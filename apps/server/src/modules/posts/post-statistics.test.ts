import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser, unlock } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

describe('post statistics (the statistics query overlay)', () => {
  it("counts a post's likes, comments, saves and unlocks for its creator and staff", async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const id = await createPost(t, creator, { message: 'Counted', visibility: 'ppv', price: 10 });
    const fans = await Promise.all([createUser(t), createUser(t)]);
    for (const fan of fans) {
      await unlock(t, fan.id, id);
      expect((await t.call('posts.like', { id }, { token: fan.token })).status).toBe(200);
    }
    await t.call('posts.save', { id }, { token: fans[0].token });
    await t.call('comments.create', { post: id, message: 'Nice' }, { token: fans[1].token });
    const own = await t.call('posts.statistics', undefined, { token: creator.token, params: { id } });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ post: id, likes: 2, comments: 1, saves: 1, unlocks: 2 });
    const coord = await createUser(t, { roles: ['user', 'coord'] });
    const staff = await t.call('posts.statistics', undefined, { token: coord.token, params: { id } });
    expect(staff.body).toEqual(own.body);
  });

  it('is refused to fans, other creators and visitors; an unknown or malformed id is not found', async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const id = await createPost(t, creator);
    const fan = await createUser(t);
    const other = await createUser(t, { roles: ['user', 'creator'], verified: true });
    for (const who of [fan, other]) {
      expect((await t.call('posts.statistics', undefined, { token: who.token, params: { id } })).status).toBe(
        403,
      );
    }
    expect((await t.call('posts.statistics', undefined, { params: { id } })).status).toBe(401);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (await t.call('posts.statistics', undefined, { token: creator.token, params: { id: unknown } })).status,
    ).toBe(404);
    const en = await t.call('posts.statistics', undefined, { token: creator.token, params: { id: 'nope' } });
    const es = await t.call('posts.statistics', undefined, {
      token: creator.token,
      params: { id: 'nope' },
      lang: 'es',
    });
    expect(en.status).toBe(404);
    expect(es.status).toBe(404);
    expect(es.body.message).not.toBe(en.body.message);
  });
});
