import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD, uniqueUsername } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { ensureAdminCreator } from './admin-creator.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await ensureAdminCreator(t.services.users, t.config);
});
afterAll(() => t.stop());

describe('the admin creator (spec §6)', () => {
  it('is made once however many copies start together, as a verified creator nobody can sign in as', async () => {
    const app = { appKey: uniqueUsername('offi'), appName: 'Official Test' };
    const runs = await Promise.all([1, 2, 3].map(() => ensureAdminCreator(t.services.users, app)));
    expect(new Set(runs.map((r) => r.id)).size).toBe(1);
    expect(runs.filter((r) => r.created)).toHaveLength(1);
    expect((await ensureAdminCreator(t.services.users, app)).created).toBe(false);
    const fan = await createUser(t);
    const page = await t.call('creator.profile', undefined, { token: fan.token, params: { id: app.appKey } });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      user: app.appKey,
      isCreator: true,
      verified: true,
      displayName: 'Official Test',
    });
    for (const password of ['!', '', TEST_PASSWORD]) {
      const login = await t.call('auth.login', { login: app.appKey, password }, { ip: '10.77.0.1' });
      expect(login.status).not.toBe(200);
    }
  });

  it('keeps an account that already holds the handle as it is', async () => {
    const existing = await createUser(t, { roles: ['user', 'creator'] });
    const run = await ensureAdminCreator(t.services.users, { appKey: existing.username, appName: 'Other' });
    expect(run).toEqual({ id: existing.id, created: false });
    const login = await t.call(
      'auth.login',
      { login: existing.username, password: TEST_PASSWORD },
      { ip: '10.77.0.2' },
    );
    expect(login.status).toBe(200);
  });
});

describe('announcements (POST /admin/announcement)', () => {
  it("an administrator's announcement is a free post of the admin creator on every home feed at once", async () => {
    const admin = await createUser(t, { roles: ['user', 'admin'] });
    const res = await t.call(
      'admin.announce',
      { message: '  New: tips in every language  ' },
      { token: admin.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.post).toMatchObject({
      creator: t.config.appKey,
      message: 'New: tips in every language',
      visibility: 'free',
      adminStatus: 'approved',
    });
    const id = res.body.post._id;
    const fan = await createUser(t);
    const home = await t.call('posts.list', {}, { token: fan.token });
    expect(home.body.posts.map((p) => p._id)).toContain(id);
    const visitor = await t.call('posts.list', {});
    expect(visitor.body.posts.map((p) => p._id)).toContain(id);
  });

  it('is refused to coordinators, creators, fans and visitors, and explains an empty text in en and es', async () => {
    const coord = await createUser(t, { roles: ['user', 'coord'] });
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const fan = await createUser(t);
    for (const who of [coord, creator, fan]) {
      expect((await t.call('admin.announce', { message: 'Hi all' }, { token: who.token })).status).toBe(403);
    }
    expect((await t.call('admin.announce', { message: 'Hi all' })).status).toBe(401);
    const admin = await createUser(t, { roles: ['user', 'super'] });
    const en = await t.call('admin.announce', { message: '   ' }, { token: admin.token });
    const es = await t.call('admin.announce', {}, { token: admin.token, lang: 'es' });
    expect(en.status).toBe(400);
    expect(es.status).toBe(400);
    expect(en.body.fields?.message).toBeTruthy();
    expect(es.body.message).not.toBe(en.body.message);
  });
});
