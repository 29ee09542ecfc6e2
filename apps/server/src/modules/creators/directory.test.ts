import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

const handles = (body: { items: { user: string }[] }) => body.items.map((u) => u.user);

describe('people directories (?view=creator, ?view=user)', () => {
  let t: TestApp;
  let luna: Awaited<ReturnType<typeof createUser>>;
  let marco: Awaited<ReturnType<typeof createUser>>;
  let fan: Awaited<ReturnType<typeof createUser>>;
  let admin: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    luna = await createUser(t, { roles: ['user', 'creator'], verified: true, username: 'lunarivera' });
    marco = await createUser(t, { roles: ['user', 'creator'], verified: true, username: 'marcopolo7' });
    fan = await createUser(t, { username: 'fanfolk01' });
    admin = await createUser(t, { roles: ['user', 'admin'], username: 'staffonly1' });
    await t.call('creator.setTags', { tags: ['yoga'] }, { token: luna.token });
    await t.call('user.follow', { creator: luna.username }, { token: fan.token });
  });
  afterAll(() => t.stop());

  it('lists creators to visitors, most followed first, with search despite typos, a category and paging', async () => {
    const all = await t.call('directory.creators', {});
    expect(all.status).toBe(200);
    expect(handles(all.body).slice(0, 2)).toEqual([luna.username, marco.username]);
    expect(handles(all.body)).not.toContain(fan.username);
    expect(all.body.items[0]).toMatchObject({ isCreator: true, followers: 1 });
    expect(all.body.statistics).toEqual({ page: 1, limit: 30, total: 2, hasMore: false });

    const typo = await t.call('directory.creators', { q: 'lunarivear' });
    expect(handles(typo.body)[0]).toBe(luna.username);
    expect(handles((await t.call('directory.creators', { tag: 'yoga' })).body)).toEqual([luna.username]);
    const byName = await t.call('directory.creators', { sort: 'name', limit: 1, page: 2 });
    expect(handles(byName.body)).toEqual([marco.username]);
    expect(byName.body.statistics).toEqual({ page: 2, limit: 1, total: 2, hasMore: false });
    const first = await t.call('directory.creators', { sort: 'name', limit: 1 });
    expect(first.body.statistics.hasMore).toBe(true);
    expect((await t.call('directory.creators', { online: '1' })).body.items).toEqual([]);
  });

  it('lists people (fans and creators, never staff-only accounts) to members only', async () => {
    expect((await t.call('directory.users', {})).status).toBe(401);
    const everyone = await t.call('directory.users', {}, { token: fan.token });
    expect(everyone.status).toBe(200);
    expect(handles(everyone.body)).toEqual(
      expect.arrayContaining([luna.username, marco.username, fan.username]),
    );
    expect(handles(everyone.body)).not.toContain(admin.username);
    const fans = await t.call('directory.users', { role: 'fans' }, { token: luna.token });
    expect(handles(fans.body)).toEqual([fan.username]);
    expect(fans.body.items[0]).toMatchObject({ isCreator: false });
    const found = await t.call('directory.users', { q: 'fanfokl01' }, { token: luna.token });
    expect(handles(found.body)[0]).toBe(fan.username);
  });

  it('leaves out people blocked either way', async () => {
    await t.call('user.block', { user: marco.username }, { token: fan.token });
    expect(handles((await t.call('directory.creators', {}, { token: fan.token })).body)).not.toContain(
      marco.username,
    );
    expect(handles((await t.call('directory.users', {}, { token: marco.token })).body)).not.toContain(
      fan.username,
    );
    expect(
      handles((await t.call('directory.users', { q: 'marcopolo' }, { token: fan.token })).body),
    ).not.toContain(marco.username);
  });

  it('refuses bad filters with a clear error in the caller language', async () => {
    const bad = await t.call('directory.creators', { sort: 'random' as never }, { lang: 'es' });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe('string');
    expect((await t.call('directory.creators', { tag: 'weapons' as never })).status).toBe(400);
    expect((await t.call('directory.users', { role: 'admins' as never }, { token: fan.token })).status).toBe(
      400,
    );
    expect((await t.call('directory.creators', { limit: 500 })).status).toBe(400);
  });
});
