import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser, subscribe } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

describe('user preview card (spec §2 overlays)', () => {
  it("shows a creator's public counts and the viewer's relation, never private fields", async () => {
    const c = await createUser(t, { roles: ['user', 'creator'], verified: true });
    await createPost(t, c);
    await createPost(t, c);
    const fan = await createUser(t);
    await subscribe(t, fan.id, c.id);
    await t.call('user.follow', { creator: c.username }, { token: fan.token });
    const res = await t.call('user.preview', undefined, {
      token: fan.token,
      params: { handle: `@${c.username.toUpperCase()}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user: c.username,
      isCreator: true,
      counts: { posts: 2, subscribers: 1 },
      following: true,
      subscribed: true,
      isMe: false,
    });
    expect(res.body).not.toHaveProperty('email');
    expect(res.body).not.toHaveProperty('about');
    const own = await t.call('user.preview', undefined, { token: c.token, params: { handle: c.username } });
    expect(own.body).toMatchObject({ isMe: true, subscribed: false });
  });

  it("gives a fan's card without counts (a fan's numbers are private)", async () => {
    const fan = await createUser(t);
    const other = await createUser(t);
    const res = await t.call('user.preview', undefined, {
      token: other.token,
      params: { handle: fan.username },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: fan.username, isCreator: false, counts: null, subscribed: false });
  });

  it('gives no card data across a block (either way), to visitors, or for unknown handles', async () => {
    const c = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const fan = await createUser(t);
    expect((await t.call('user.block', { user: fan.username }, { token: c.token })).body.blocked).toBe(true);
    const blockedFan = await t.call('user.preview', undefined, {
      token: fan.token,
      params: { handle: c.username },
    });
    expect(blockedFan.status).toBe(404);
    expect(blockedFan.body).not.toHaveProperty('user');
    const blocker = await t.call('user.preview', undefined, {
      token: c.token,
      params: { handle: fan.username },
    });
    expect(blocker.status).toBe(404);
    const visitor = await t.call('user.preview', undefined, { params: { handle: c.username } });
    expect(visitor.status).toBe(401);
    const unknown = await t.call('user.preview', undefined, {
      token: fan.token,
      params: { handle: 'nobodyxx1' },
    });
    expect(unknown.status).toBe(404);
    const es = await t.call('user.preview', undefined, {
      token: fan.token,
      params: { handle: 'nobodyxx1' },
      lang: 'es',
    });
    expect(es.status).toBe(404);
    expect(es.body.message).toBeTruthy();
    expect(es.body.message).not.toBe(unknown.body.message);
  });
});
