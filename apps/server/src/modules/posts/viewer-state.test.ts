/**
 * A signed-in viewer's feed page is a shared part (cached briefly, the same for every viewer) and
 * the viewer's own part, read fresh on every request by one prepared statement (`viewerState`):
 * likes, saves, unlocks, subscriptions and blocks either way. Each change shows on the very next
 * page, while the shared part stays cached.
 */

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser, subscribe, unlock } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { captureStatements } from '../../db/client.ts';
import { posts, users } from '../../db/schema.ts';
import { PostRepository, type PostViewerState } from './post.repository.ts';

type Person = Awaited<ReturnType<typeof createUser>>;

describe("a viewer's own part of a feed page", () => {
  let t: TestApp;
  let creator: Person;
  let fan: Person;
  let free: string;
  let forSubscribers: string;
  let payPerView: string;
  beforeAll(async () => {
    t = await createTestApp();
    creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    fan = await createUser(t);
    const moderator = await createUser(t, { roles: ['admin', 'user'] });
    free = await createPost(t, creator, { message: 'free', visibility: 'free' }, { moderator });
    forSubscribers = await createPost(
      t,
      creator,
      { message: 'subscribers', visibility: 'subscribers' },
      { moderator },
    );
    payPerView = await createPost(
      t,
      creator,
      { message: 'ppv', visibility: 'ppv', price: 10 },
      { moderator },
    );
  });
  afterAll(() => t.stop());

  /** The fan's home feed page 1, by post id: access, liked, saved. */
  async function page(who: Person = fan) {
    const res = await t.call('posts.list', {}, { token: who.token });
    expect(res.status).toBe(200);
    return new Map(
      res.body.posts.map((p) => [p._id, { access: p.access, liked: p.liked, saved: p.saved }] as const),
    );
  }

  it('reads likes, saves, subscriptions and unlocks fresh on every page', async () => {
    let seen = await page();
    expect(seen.get(free)).toEqual({ access: true, liked: false, saved: false });
    expect(seen.get(forSubscribers)?.access).toBe(false);
    expect(seen.get(payPerView)?.access).toBe(false);

    expect((await t.call('posts.like', { id: free }, { token: fan.token })).status).toBe(200);
    expect((await t.call('posts.save', { id: free }, { token: fan.token })).status).toBe(200);
    await subscribe(t, fan.id, creator.id);
    await unlock(t, fan.id, payPerView);
    seen = await page();
    expect(seen.get(free)).toMatchObject({ access: true, liked: true, saved: true });
    expect(seen.get(forSubscribers)?.access).toBe(true);
    expect(seen.get(payPerView)?.access).toBe(true);
    // Another fan's page, from the same shared part, has none of it.
    const other = await page(await createUser(t));
    expect(other.get(free)).toEqual({ access: true, liked: false, saved: false });
    expect(other.get(forSubscribers)?.access).toBe(false);
    expect(other.get(payPerView)?.access).toBe(false);
  });

  it('locks every post of a blocked pair, whichever of the two blocked the other, and unlocks on unblock', async () => {
    const blocker = await createUser(t);
    expect((await page(blocker)).get(free)?.access).toBe(true);
    // The creator blocks the fan.
    expect((await t.call('user.block', { user: blocker.username }, { token: creator.token })).status).toBe(
      200,
    );
    expect((await page(blocker)).get(free)?.access).toBe(false);
    expect((await page()).get(free)?.access).toBe(true);
    expect((await t.call('user.block', { user: blocker.username }, { token: creator.token })).status).toBe(
      200,
    );
    expect((await page(blocker)).get(free)?.access).toBe(true);
    // The fan blocks the creator.
    expect((await t.call('user.block', { user: creator.username }, { token: blocker.token })).status).toBe(
      200,
    );
    expect((await page(blocker)).get(free)?.access).toBe(false);
    expect((await t.call('user.block', { user: creator.username }, { token: blocker.token })).status).toBe(
      200,
    );
    expect((await page(blocker)).get(free)?.access).toBe(true);
  });

  it('answers the pages asked for together with one statement, each viewer with only their own part', async () => {
    const liker = await createUser(t);
    const buyer = await createUser(t);
    const blocked = await createUser(t);
    expect((await t.call('posts.like', { id: free }, { token: liker.token })).status).toBe(200);
    expect((await t.call('posts.save', { id: free }, { token: buyer.token })).status).toBe(200);
    await unlock(t, buyer.id, payPerView);
    await subscribe(t, liker.id, creator.id);
    expect((await t.call('user.block', { user: blocked.username }, { token: creator.token })).status).toBe(
      200,
    );

    // Requests that ask in the same turn of the event loop share the statement.
    const repo = new PostRepository(t.database.db);
    const all = [free, forSubscribers, payPerView];
    const { result, statements } = await captureStatements(() =>
      Promise.all([
        repo.viewerState(liker.id, all),
        repo.viewerState(buyer.id, all),
        repo.viewerState(blocked.id, [free]),
        repo.viewerState(liker.id, [payPerView]),
      ]),
    );
    expect(statements).toHaveLength(1);
    const [ofLiker, ofBuyer, ofBlocked, again] = result;
    const flags = (state: PostViewerState | undefined) =>
      state && {
        liked: state.liked,
        saved: state.saved,
        unlocked: state.unlocked,
        subscribed: state.subscribed,
        blocked: state.blocked,
      };
    expect(flags(ofLiker.get(free))).toEqual({
      liked: true,
      saved: false,
      unlocked: false,
      subscribed: true,
      blocked: false,
    });
    expect(flags(ofBuyer.get(free))).toEqual({
      liked: false,
      saved: true,
      unlocked: false,
      subscribed: false,
      blocked: false,
    });
    expect(ofBuyer.get(payPerView)?.unlocked).toBe(true);
    expect(ofLiker.get(payPerView)?.unlocked).toBe(false);
    expect([...ofBlocked.keys()]).toEqual([free]);
    expect(ofBlocked.get(free)?.blocked).toBe(true);
    expect([...again.keys()]).toEqual([payPerView]);
    expect(again.get(payPerView)).toEqual(ofLiker.get(payPerView));

    // Through the API, pages asked for at once each get their own access.
    const [pageOfLiker, pageOfBuyer, pageOfBlocked] = await Promise.all([
      page(liker),
      page(buyer),
      page(blocked),
    ]);
    expect(pageOfLiker.get(free)).toEqual({ access: true, liked: true, saved: false });
    expect(pageOfLiker.get(forSubscribers)?.access).toBe(true);
    expect(pageOfLiker.get(payPerView)?.access).toBe(false);
    expect(pageOfBuyer.get(free)).toEqual({ access: true, liked: false, saved: true });
    expect(pageOfBuyer.get(forSubscribers)?.access).toBe(false);
    expect(pageOfBuyer.get(payPerView)?.access).toBe(true);
    expect(pageOfBlocked.get(free)?.access).toBe(false);
  });

  it("answers the columns access is decided on as the post's row has them, and nothing for posts that are gone", async () => {
    // A scheduled post's publication time, to the millisecond, and the time it went live.
    const publishAt = new Date('2031-02-03T04:05:06.789Z');
    const publishedAt = new Date('2026-01-02T03:04:05.006Z');
    await t.database.db.update(posts).set({ publishAt, publishedAt }).where(eq(posts.id, forSubscribers));
    const repo = new PostRepository(t.database.db);
    const [row] = await t.database.db.select().from(posts).where(eq(posts.id, forSubscribers));
    const state = await repo.viewerState(fan.id, [forSubscribers]);
    expect(state.get(forSubscribers)).toMatchObject({
      creatorId: row!.creatorId,
      status: row!.status,
      adminStatus: row!.adminStatus,
      publishAt,
      publishedAt,
      visibility: 'subscribers',
    });
    expect(state.get(forSubscribers)?.publishAt).toBeInstanceOf(Date);
    // A post never written (or deleted since the page was cached) has no state: it is left out.
    const gone = await repo.viewerState(fan.id, ['00000000-0000-4000-8000-000000000000']);
    expect(gone.size).toBe(0);
    await t.database.db
      .update(posts)
      .set({ publishAt: row!.publishAt, publishedAt: row!.publishedAt })
      .where(eq(posts.id, forSubscribers));
  });

  it("says of each post whether its creator is suspended, and leaves out a deleted creator's posts, for every viewer asking together", async () => {
    const other = await createUser(t);
    const repo = new PostRepository(t.database.db);
    const all = [free, forSubscribers];
    const both = () => Promise.all([repo.viewerState(fan.id, all), repo.viewerState(other.id, [free])]);
    let [ofFan, ofOther] = await both();
    expect(ofFan.get(free)?.creatorSuspended).toBe(false);
    expect(ofOther.get(free)?.creatorSuspended).toBe(false);

    await t.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, creator.id));
    [ofFan, ofOther] = await both();
    expect(ofFan.get(free)?.creatorSuspended).toBe(true);
    expect(ofFan.get(forSubscribers)?.creatorSuspended).toBe(true);
    expect(ofOther.get(free)?.creatorSuspended).toBe(true);

    await t.database.db
      .update(users)
      .set({ suspendedAt: null, deletedAt: new Date() })
      .where(eq(users.id, creator.id));
    [ofFan, ofOther] = await both();
    expect(ofFan.size).toBe(0);
    expect(ofOther.size).toBe(0);
    await t.database.db.update(users).set({ deletedAt: null }).where(eq(users.id, creator.id));
  });

  it('sets a flag only on the pairs it holds for, with the same post asked by many viewers in one statement', async () => {
    // Sixteen viewers (one statement's worth) each ask for the same posts; every other one likes
    // `free` and has unlocked `payPerView`.
    const viewers = await Promise.all(Array.from({ length: 16 }, () => createUser(t)));
    for (const [i, v] of viewers.entries()) {
      if (i % 2) continue;
      expect((await t.call('posts.like', { id: free }, { token: v.token })).status).toBe(200);
      await unlock(t, v.id, payPerView);
    }
    const repo = new PostRepository(t.database.db);
    const all = [free, forSubscribers, payPerView];
    const { result, statements } = await captureStatements(() =>
      Promise.all(viewers.map((v) => repo.viewerState(v.id, all))),
    );
    expect(statements).toHaveLength(1);
    for (const [i, state] of result.entries()) {
      expect(state.get(free)?.liked, `viewer ${i}`).toBe(i % 2 === 0);
      expect(state.get(payPerView)?.unlocked, `viewer ${i}`).toBe(i % 2 === 0);
      expect(state.get(forSubscribers)?.liked).toBe(false);
      expect(state.get(free)?.unlocked).toBe(false);
      expect(state.get(payPerView)?.liked).toBe(false);
    }
  });
});
