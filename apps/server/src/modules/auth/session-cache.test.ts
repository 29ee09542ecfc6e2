/**
 * The session cache (ADR 0047): a signed-in request does not ask the database who its token is
 * again, yet every change that can alter the answer is seen by the very next request, whatever
 * path wrote it (an endpoint, another server copy, plain SQL), because the database announces it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp, twoCopies } from '../../../test/harness.ts';
import { captureStatements, type NotifyListener } from '../../db/client.ts';
import type { ActiveSession } from './session.repository.ts';
import { SessionCache } from './session-cache.ts';

/** The session lookup by token (SessionRepository.findActive). */
const isLookup = (sql: string) => sql.includes('"sessions"."token_hash" =');

/** The profile call, with how many session lookups it sent to the database. */
async function profile(t: TestApp, token: string) {
  const { result, statements } = await captureStatements(() => t.call('user.profile', undefined, { token }));
  return {
    status: result.status,
    code: result.body.code,
    lookups: statements.filter((s) => isLookup(s.sql)).length,
  };
}

const sql = (t: TestApp, text: string) => t.database.session((exec) => exec(text));

describe('session cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('asks the database who a token is once, then answers from memory', async () => {
    const u = await createUser(t);
    expect(await profile(t, u.token)).toMatchObject({ status: 200, lookups: 1 });
    expect(await profile(t, u.token)).toMatchObject({ status: 200, lookups: 0 });
    expect(await profile(t, u.token)).toMatchObject({ status: 200, lookups: 0 });
  });

  it('forgets a token signed out through the app at once', async () => {
    const u = await createUser(t);
    await profile(t, u.token);
    expect((await t.call('auth.logout', {}, { token: u.token })).status).toBe(200);
    expect(await profile(t, u.token)).toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
  });

  it('sees changes written by plain SQL at once: revoked, suspended, deleted, expired', async () => {
    const cases = [
      {
        change: (id: string) => `UPDATE sessions SET revoked_at = now() WHERE user_id = '${id}'`,
        status: 401,
      },
      { change: (id: string) => `UPDATE users SET suspended_at = now() WHERE id = '${id}'`, status: 403 },
      { change: (id: string) => `UPDATE users SET deleted_at = now() WHERE id = '${id}'`, status: 401 },
      {
        change: (id: string) => `UPDATE sessions SET expires_at = now() WHERE user_id = '${id}'`,
        status: 401,
      },
      { change: (id: string) => `DELETE FROM sessions WHERE user_id = '${id}'`, status: 401 },
    ];
    for (const c of cases) {
      const u = await createUser(t);
      expect(await profile(t, u.token)).toMatchObject({ status: 200 });
      expect(await profile(t, u.token)).toMatchObject({ status: 200, lookups: 0 });
      await sql(t, c.change(u.id));
      expect(await profile(t, u.token), c.change('…')).toMatchObject({ status: c.status, lookups: 1 });
    }
  });

  it('sees a new role and name at once', async () => {
    const u = await createUser(t);
    await profile(t, u.token);
    await sql(
      t,
      `UPDATE users SET roles = ARRAY['user','creator'], username = 'renamed${u.id.slice(0, 8)}' WHERE id = '${u.id}'`,
    );
    const { result, statements } = await captureStatements(() =>
      t.call('user.profile', undefined, { token: u.token }),
    );
    expect(statements.filter((s) => isLookup(s.sql))).toHaveLength(1);
    expect(result.body).toMatchObject({ username: `renamed${u.id.slice(0, 8)}` });
  });

  it('keeps other users cached when one changes', async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    await profile(t, a.token);
    await profile(t, b.token);
    await sql(t, `UPDATE sessions SET revoked_at = now() WHERE user_id = '${a.id}'`);
    expect(await profile(t, b.token)).toMatchObject({ status: 200, lookups: 0 });
    expect(await profile(t, a.token)).toMatchObject({ status: 401 });
  });

  it('ignores writes that cannot change who a token is (last seen, presence)', async () => {
    const u = await createUser(t);
    await profile(t, u.token);
    await sql(t, `UPDATE sessions SET last_used_at = now() - interval '1 day' WHERE user_id = '${u.id}'`);
    await sql(t, `UPDATE users SET online = true, last_connection = now() WHERE id = '${u.id}'`);
    expect(await profile(t, u.token)).toMatchObject({ status: 200, lookups: 0 });
  });
});

describe.skipIf(!process.env.DATABASE_URL)('session cache across server copies (PostgreSQL)', () => {
  const copies = twoCopies();

  it('a sign-out on one copy ends the token on the other', async () => {
    const u = await createUser(copies.one);
    expect(await profile(copies.two, u.token)).toMatchObject({ status: 200 });
    expect(await profile(copies.two, u.token)).toMatchObject({ status: 200, lookups: 0 });
    expect((await copies.one.call('auth.logout', {}, { token: u.token })).status).toBe(200);
    // The announcement crosses connections: it arrives within moments of the commit.
    await vi.waitFor(async () => expect((await profile(copies.two, u.token)).status).toBe(401), {
      timeout: 5000,
    });
  });

  it('a suspension written by another client is seen by both copies', async () => {
    const u = await createUser(copies.one);
    for (const copy of [copies.one, copies.two]) await profile(copy, u.token);
    const client = new pg.Client({ connectionString: copies.one.databaseUrl });
    await client.connect();
    await client.query('UPDATE users SET suspended_at = now() WHERE id = $1', [u.id]);
    await client.end();
    for (const copy of [copies.one, copies.two]) {
      await vi.waitFor(async () => expect((await profile(copy, u.token)).status).toBe(403), {
        timeout: 5000,
      });
    }
  });
});

describe('SessionCache when announcements may be missed', () => {
  const session = (userId: string): ActiveSession => ({
    sessionId: `s-${userId}`,
    userId,
    username: userId,
    roles: ['user', 'fan'],
    verified: true,
    twoFactor: false,
    suspended: false,
    lastUsedAt: new Date(),
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  function fakeDatabase() {
    let listener: NotifyListener | undefined;
    const db = {
      live: true,
      onNotify: (_channel: string, l: NotifyListener) => {
        listener = l;
      },
      listening: () => db.live,
      announce: (userId: string) => listener?.message(userId),
      lose: () => listener?.lost(),
    };
    return db;
  }

  it('does not answer from memory while no connection listens, nor keep what it loaded then', async () => {
    const db = fakeDatabase();
    const cache = new SessionCache(db);
    const load = vi.fn(async () => session('u1'));
    await cache.find('h', new Date(), load);
    db.live = false;
    await cache.find('h', new Date(), load);
    await cache.find('h', new Date(), load);
    expect(load).toHaveBeenCalledTimes(3);
    db.live = true;
    await cache.find('h', new Date(), load);
    await cache.find('h', new Date(), load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('forgets everything when announcements were lost', async () => {
    const db = fakeDatabase();
    const cache = new SessionCache(db);
    const load = vi.fn(async () => session('u1'));
    await cache.find('h', new Date(), load);
    db.lose();
    await cache.find('h', new Date(), load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not keep a lookup that an announcement overtook', async () => {
    const db = fakeDatabase();
    const cache = new SessionCache(db);
    // The change is announced while the (older) answer is on its way back.
    const racing = vi.fn(async () => {
      db.announce('u1');
      return session('u1');
    });
    await cache.find('h', new Date(), racing);
    const load = vi.fn(async () => session('u1'));
    await cache.find('h', new Date(), load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not answer with a session past its end', async () => {
    const db = fakeDatabase();
    const cache = new SessionCache(db);
    const ending = { ...session('u1'), expiresAt: new Date(Date.now() + 1000) };
    await cache.find('h', new Date(), async () => ending);
    const load = vi.fn(async () => undefined);
    expect(await cache.find('h', new Date(Date.now() + 2000), load)).toBeUndefined();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
