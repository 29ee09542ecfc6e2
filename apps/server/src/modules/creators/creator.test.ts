import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { captureStatements } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { CreatorRepository } from './creator.repository.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

describe('creator search', () => {
  it('finds creators despite a typo, by username or display name, and never lists fans', async () => {
    const luna = await createUser(t, { roles: ['user', 'creator'], verified: true, username: 'lunarivera7' });
    await t.call('user.updateProfile', { displayName: 'Luna Rivera' }, { token: luna.token });
    await createUser(t, { roles: ['user', 'fan'], username: 'lunafan123' });
    const typo = await t.call('creator.search', { q: 'lunna' });
    expect(typo.status).toBe(200);
    expect(typo.body.word).toBe('lunna');
    expect(typo.body.creators.items.map((c) => c.user)).toContain('lunarivera7');
    expect(typo.body.creators.items.map((c) => c.user)).not.toContain('lunafan123');
    const byName = await t.call('creator.search', { q: 'rivera' });
    expect(byName.body.creators.items.map((c) => c.user)).toContain('lunarivera7');
    expect(typo.body.creators.limit).toBe(30);
    expect(typo.body.topCreators.items.length).toBeGreaterThan(0);
  });
});

describe('creator profile', () => {
  it('shows public fields, counts and follow state, never email', async () => {
    const c = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const fan = await createUser(t);
    await t.call('user.follow', { creator: c.username }, { token: fan.token });
    const res = await t.call('creator.profile', undefined, {
      token: fan.token,
      params: { id: c.username.toUpperCase() },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: c.username, isCreator: true, following: true, isMe: false });
    expect(res.body).not.toHaveProperty('email');
    expect(
      (await t.call('creator.profile', undefined, { token: fan.token, params: { id: 'nobodyxx1' } })).status,
    ).toBe(404);
  });

  it('cannot follow a fan or oneself', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    expect((await t.call('user.follow', { creator: b.username }, { token: a.token })).status).toBe(404);
    const c = await createUser(t, { roles: ['user', 'creator'] });
    expect((await t.call('user.follow', { creator: c.username }, { token: c.token })).status).toBe(403);
  });
});

describe('creators by handle', () => {
  it('answers the lookups asked for together with one statement, each by its own handle', async () => {
    const a = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const b = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const repo = new CreatorRepository(t.database.db);
    const { result, statements } = await captureStatements(() =>
      Promise.all([
        repo.findByHandle(a.username),
        repo.findByHandle(b.username.toUpperCase()),
        repo.findByHandle('nobodyxx1'),
        repo.findByHandle(a.username),
      ]),
    );
    expect(statements).toHaveLength(1);
    expect(result.map((row) => row?.id)).toEqual([a.id, b.id, undefined, a.id]);
  });

  it('finds an older handle whose letters JavaScript and PostgreSQL lower-case differently, as PostgreSQL does', async () => {
    // Usernames are ASCII now (USERNAME_PATTERN); one from before may hold 'İ', which JavaScript
    // lower-cases to 'i' and a combining dot, PostgreSQL (C.UTF-8) to 'i'. The lookup must find
    // exactly what `lower(username)` finds, whatever the store's locale.
    const c = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const legacy = `K\u0130rk${c.username.slice(-6)}`;
    await t.database.db.update(users).set({ username: legacy }).where(eq(users.id, c.id));
    const [row] = await t.database.db
      .select({ key: sql<string>`lower(${users.username})` })
      .from(users)
      .where(eq(users.id, c.id));
    const key = row?.key ?? '';
    const found = await new CreatorRepository(t.database.db).findByHandle(key);
    const reference = key === key.toLowerCase() ? c.id : undefined;
    expect(found?.id).toBe(reference);
  });
});
