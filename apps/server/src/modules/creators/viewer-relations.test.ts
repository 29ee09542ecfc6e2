/**
 * A fan's relations (follows, subscriptions, blocks) answer from memory once read (ADR 0047):
 * "creators you may like" (spec §2) and a creator page's follow and subscribe state. Every change
 * is seen by the very next request, whatever path wrote it, because the database announces it; a
 * subscription's end is judged when asked, on the app's clock.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, subscribe } from '../../../test/factories.ts';
import { createTestApp, type TestApp, twoCopies } from '../../../test/harness.ts';
import { captureStatements } from '../../db/client.ts';

type Person = Awaited<ReturnType<typeof createUser>>;

/** The fan's suggestions on the home feed, and whether the relations were read from the database. */
async function suggested(t: TestApp, fan?: Person) {
  const { result, statements } = await captureStatements(() =>
    t.call('posts.list', {}, fan ? { token: fan.token } : {}),
  );
  return {
    users: result.body.suggestions.map((u) => u.user),
    readRelations: statements.some((s) => s.sql.includes('ARRAY(SELECT f.creator_id FROM')),
  };
}

const sql = (t: TestApp, text: string) => t.database.session((exec) => exec(text));

describe('creators you may like', () => {
  let t: TestApp;
  let creators: Person[];
  beforeAll(async () => {
    t = await createTestApp();
    creators = [];
    for (let i = 0; i < 5; i++)
      creators.push(await createUser(t, { roles: ['user', 'creator'], verified: true }));
  });
  afterAll(() => t.stop());

  it("reads a fan's relations once, then answers from memory", async () => {
    const fan = await createUser(t);
    const first = await suggested(t, fan);
    expect(first.readRelations).toBe(true);
    expect(first.users).toEqual(expect.arrayContaining(creators.map((c) => c.username)));
    expect(await suggested(t, fan)).toMatchObject({ readRelations: false });
  });

  it('drops a creator followed or blocked through the app at once, and brings them back', async () => {
    const fan = await createUser(t);
    const [a, b, c] = creators as [Person, Person, Person];
    await suggested(t, fan);
    await t.call('user.follow', { creator: a.username }, { token: fan.token });
    await t.call('user.block', { user: b.username }, { token: fan.token });
    // Blocked by the creator is the same: no suggestion either way.
    await t.call('user.block', { user: fan.username }, { token: c.token });
    const after = await suggested(t, fan);
    expect(after.readRelations).toBe(true);
    expect(after.users).not.toContain(a.username);
    expect(after.users).not.toContain(b.username);
    expect(after.users).not.toContain(c.username);
    await t.call('user.follow', { creator: a.username }, { token: fan.token });
    await t.call('user.block', { user: b.username }, { token: fan.token });
    await t.call('user.block', { user: fan.username }, { token: c.token });
    expect((await suggested(t, fan)).users).toEqual(
      expect.arrayContaining([a.username, b.username, c.username]),
    );
  });

  it('sees follows and blocks written by plain SQL at once, and leaves other fans cached', async () => {
    const [fan, other] = [await createUser(t), await createUser(t)];
    const [, , , d, e] = creators as [Person, Person, Person, Person, Person];
    await suggested(t, fan);
    await suggested(t, other);
    await sql(t, `INSERT INTO follows (follower_id, creator_id) VALUES ('${fan.id}', '${d.id}')`);
    await sql(t, `INSERT INTO user_blocks (blocker_id, blocked_id) VALUES ('${e.id}', '${fan.id}')`);
    const after = await suggested(t, fan);
    expect(after.users).not.toContain(d.username);
    expect(after.users).not.toContain(e.username);
    expect(await suggested(t, other)).toMatchObject({ readRelations: false });
    await sql(t, `DELETE FROM follows WHERE follower_id = '${fan.id}'`);
    await sql(t, `DELETE FROM user_blocks WHERE blocked_id = '${fan.id}'`);
    expect((await suggested(t, fan)).users).toEqual(expect.arrayContaining([d.username, e.username]));
  });

  it('drops a ranked creator suspended or unverified at once, for fans and visitors', async () => {
    const fan = await createUser(t);
    const gone = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const unverified = await createUser(t, { roles: ['user', 'creator'], verified: true });
    // Most followed, so they rank first whatever the shown number; the ranking is kept a minute,
    // and new creators enter it when an announced change to a ranked one drops it.
    const follower = await createUser(t);
    await sql(
      t,
      `INSERT INTO follows (follower_id, creator_id) VALUES ('${follower.id}', '${gone.id}'), ('${follower.id}', '${unverified.id}')`,
    );
    await sql(t, `UPDATE users SET suspended_at = now() WHERE id = '${creators[0]!.id}'`);
    await sql(t, `UPDATE users SET suspended_at = NULL WHERE id = '${creators[0]!.id}'`);
    expect((await suggested(t, fan)).users).toEqual(
      expect.arrayContaining([gone.username, unverified.username]),
    );
    await sql(t, `UPDATE users SET suspended_at = now() WHERE id = '${gone.id}'`);
    await sql(t, `UPDATE users SET verified = false WHERE id = '${unverified.id}'`);
    for (const who of [fan, undefined]) {
      const { users } = await suggested(t, who);
      expect(users).not.toContain(gone.username);
      expect(users).not.toContain(unverified.username);
    }
  });
});

/** A creator page as the fan sees it, and whether the relations were read from the database. */
async function page(t: TestApp, fan: Person, creator: Person) {
  const { result, statements } = await captureStatements(() =>
    t.call('creator.profile', undefined, { token: fan.token, params: { id: creator.username } }),
  );
  const feed = await t.call('posts.list', { creator: creator.username }, { token: fan.token });
  return {
    following: result.body.following,
    subscribed: feed.body.iSubscriptor,
    readRelations: statements.some((s) => s.sql.includes('ARRAY(SELECT f.creator_id FROM')),
  };
}

describe("a creator page's follow and subscribe state", () => {
  let clock = new Date();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { now: () => clock });
  });
  afterAll(() => t.stop());

  it('follows and subscriptions written by any path are seen at once; a period ends on the clock', async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const fan = await createUser(t);
    expect(await page(t, fan, creator)).toMatchObject({
      following: false,
      subscribed: false,
      readRelations: true,
    });
    expect(await page(t, fan, creator)).toMatchObject({ readRelations: false });
    await t.call('user.follow', { creator: creator.username }, { token: fan.token });
    await subscribe(t, fan.id, creator.id, 1);
    expect(await page(t, fan, creator)).toMatchObject({
      following: true,
      subscribed: true,
      readRelations: true,
    });
    expect(await page(t, fan, creator)).toMatchObject({ subscribed: true, readRelations: false });
    // No write when a period runs out: the cached subscription is judged on the clock.
    clock = new Date(clock.getTime() + 2 * 86_400_000);
    expect(await page(t, fan, creator)).toMatchObject({ subscribed: false, readRelations: false });
    clock = new Date();
    await sql(t, `UPDATE subscriptions SET status = 'expired' WHERE fan_id = '${fan.id}'`);
    expect(await page(t, fan, creator)).toMatchObject({
      following: true,
      subscribed: false,
      readRelations: true,
    });
  });
});

describe.skipIf(!process.env.DATABASE_URL)('creators you may like across server copies (PostgreSQL)', () => {
  const copies = twoCopies();

  it("a follow on one copy leaves the other copy's suggestions", async () => {
    const creator = await createUser(copies.one, { roles: ['user', 'creator'], verified: true });
    const fan = await createUser(copies.one);
    expect((await suggested(copies.two, fan)).users).toContain(creator.username);
    expect(await suggested(copies.two, fan)).toMatchObject({ readRelations: false });
    await copies.one.call('user.follow', { creator: creator.username }, { token: fan.token });
    await vi.waitFor(
      async () => expect((await suggested(copies.two, fan)).users).not.toContain(creator.username),
      {
        timeout: 5000,
      },
    );
  });
});
