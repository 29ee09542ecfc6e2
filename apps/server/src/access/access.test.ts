import type { Role } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser, unlock } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import {
  canSeeMedia,
  canSeePost,
  isActiveSubscription,
  isFreeToEveryone,
  isPublished,
  isStaff,
  mediaSeenUntil,
  STORY_LIFETIME_MS,
  storyEnd,
  storyStart,
} from './index.ts';

const DAY = 86_400_000;

/** Every state a subscription row can be in, as the money module leaves it. */
const SUBSCRIPTION_STATES = {
  none: null,
  active: { status: 'active', days: 20 },
  'cancelled, paid period left': { status: 'cancelled', days: 12 },
  'cancelled, paid period over': { status: 'cancelled', days: -1 },
  'active, period over (before the expiry sweep)': { status: 'active', days: -1 },
  expired: { status: 'expired', days: -3 },
  // A refund or chargeback revokes: the row ends expired even if the period had days left.
  'revoked (refund or chargeback)': { status: 'expired', days: 15 },
} as const;
type SubscriptionState = keyof typeof SUBSCRIPTION_STATES;

const GRANTS_ACCESS: Record<SubscriptionState, boolean> = {
  none: false,
  active: true,
  'cancelled, paid period left': true,
  'cancelled, paid period over': false,
  'active, period over (before the expiry sweep)': false,
  expired: false,
  'revoked (refund or chargeback)': false,
};

const VISIBILITIES = ['free', 'subscribers', 'ppv'] as const;
type Visibility = (typeof VISIBILITIES)[number];

type ViewerKind =
  | 'visitor'
  | 'fan'
  | 'follower'
  | 'unlocked buyer'
  | 'owner'
  | 'super'
  | 'admin'
  | 'coord'
  | `subscriber: ${SubscriptionState}`;

/** Media access for a published post, written out by hand from spec §4/§6 (not from the code). */
function expectedMediaAccess(viewer: ViewerKind, visibility: Visibility): boolean {
  if (viewer === 'visitor') return visibility === 'free'; // free to everyone (ADR 0038)
  if (viewer === 'owner' || viewer === 'super' || viewer === 'admin' || viewer === 'coord') return true;
  if (viewer === 'unlocked buyer') return true; // free to the signed in, the rest unlocked
  if (visibility === 'free') return true;
  if (visibility === 'ppv') return false;
  if (viewer.startsWith('subscriber: '))
    return GRANTS_ACCESS[viewer.slice('subscriber: '.length) as SubscriptionState];
  return false;
}

describe('isActiveSubscription: the one definition of an active subscriber', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  it.each(Object.entries(SUBSCRIPTION_STATES))('%s', (state, row) => {
    const sub = row
      ? { status: row.status, currentPeriodEnd: new Date(now.getTime() + row.days * DAY) }
      : null;
    expect(isActiveSubscription(sub, now)).toBe(GRANTS_ACCESS[state as SubscriptionState]);
  });
});

describe('post predicates', () => {
  const post = (status: string, adminStatus: string) => ({
    creatorId: 'c',
    status,
    adminStatus,
    kind: 'post',
    createdAt: new Date(Date.now() - 30 * DAY),
    publishedAt: adminStatus === 'approved' ? new Date(Date.now() - 30 * DAY) : null,
    visibility: 'subscribers',
    subscribed: true,
    unlocked: true,
    creatorSuspended: false,
  });
  const fan = { userId: 'f', roles: ['user', 'fan'] as Role[] };
  const owner = { userId: 'c', roles: ['user', 'creator'] as Role[] };
  const coord = { userId: 'k', roles: ['user', 'coord'] as Role[] };
  it.each([
    ['active', 'approved', true, true, true, true],
    ['active', 'new', false, false, true, true],
    ['active', 'pending', false, false, true, true],
    ['active', 'rejected', false, false, true, true],
    ['deleted', 'approved', false, false, false, true],
  ])(
    '%s/%s: published %s, fan %s, owner %s, staff %s',
    (status, admin, published, byFan, byOwner, byStaff) => {
      const p = post(status, admin);
      expect(isPublished(p)).toBe(published);
      expect(canSeePost(fan, p)).toBe(byFan);
      expect(canSeeMedia(fan, p)).toBe(byFan);
      expect(canSeePost(owner, p)).toBe(byOwner);
      expect(canSeePost(coord, p)).toBe(byStaff);
      expect(canSeePost(null, p)).toBe(published);
    },
  );
  it('content free to everyone: published, free, and its creator not suspended', () => {
    const free = { ...post('active', 'approved'), visibility: 'free' };
    expect(isFreeToEveryone(free)).toBe(true);
    expect(canSeeMedia(null, free)).toBe(true);
    expect(canSeeMedia(null, { ...free, creatorSuspended: true })).toBe(false);
    expect(canSeeMedia(null, { ...free, visibility: 'subscribers' })).toBe(false);
    expect(canSeeMedia(null, post('active', 'new'))).toBe(false);
  });
  it('a story is published for its lifetime only, from when it went live; its creator and staff still see it after', () => {
    const created = new Date('2026-03-10T12:00:00Z');
    // Written at `created`, approved (live) 30 h later.
    const live = new Date(created.getTime() + 30 * 3600_000);
    const story = {
      ...post('active', 'approved'),
      kind: 'story',
      createdAt: created,
      publishedAt: live,
      visibility: 'free',
    };
    const justBefore = new Date(live.getTime() + STORY_LIFETIME_MS - 1);
    const end = new Date(live.getTime() + STORY_LIFETIME_MS);
    expect(storyEnd(story)).toEqual(end);
    expect(storyEnd(post('active', 'approved'))).toBeNull();
    expect([isPublished(story, justBefore), isPublished(story, end)]).toEqual([true, false]);
    expect([canSeeMedia(fan, story, justBefore), canSeeMedia(fan, story, end)]).toEqual([true, false]);
    expect([canSeeMedia(null, story, justBefore), canSeeMedia(null, story, end)]).toEqual([true, false]);
    expect([canSeePost(owner, story, end), canSeePost(coord, story, end)]).toEqual([true, true]);
    expect([canSeeMedia(owner, story, end), canSeeMedia(coord, story, end)]).toEqual([true, true]);
    expect([mediaSeenUntil(fan, story), mediaSeenUntil(null, story)]).toEqual([end, end]);
    expect([mediaSeenUntil(owner, story), mediaSeenUntil(coord, story)]).toEqual([null, null]);
    // A post never expires.
    expect(isPublished(post('active', 'approved'), new Date(created.getTime() + 400 * DAY))).toBe(true);
  });
  it('a story went live at its scheduled time until the publication job records it; one not live counts from its writing', () => {
    const created = new Date('2026-03-10T12:00:00Z');
    const publishAt = new Date(created.getTime() + 2 * DAY);
    const scheduled = {
      ...post('active', 'approved'),
      kind: 'story',
      createdAt: created,
      publishedAt: null,
      publishAt,
    };
    expect(isPublished(scheduled, new Date(publishAt.getTime() - 1))).toBe(false);
    expect(isPublished(scheduled, new Date(publishAt.getTime() + STORY_LIFETIME_MS - 1))).toBe(true);
    expect(isPublished(scheduled, new Date(publishAt.getTime() + STORY_LIFETIME_MS))).toBe(false);
    expect(storyStart(scheduled)).toEqual(publishAt);
    const inReview = { ...post('active', 'new'), kind: 'story', createdAt: created };
    expect(storyEnd(inReview)).toEqual(new Date(created.getTime() + STORY_LIFETIME_MS));
  });
  it('staff are exactly the roles of the contract admin area', () => {
    expect(['super', 'admin', 'coord'].map((r) => isStaff({ roles: [r] }))).toEqual([true, true, true]);
    expect(['user', 'fan', 'creator', 'developer'].some((r) => isStaff({ roles: [r] }))).toBe(false);
  });
});

/**
 * The same rules through the real app and database: the SQL fragments decide `subscribed` and the
 * feed filters, the predicates decide visibility and media. Every viewer kind × subscription state
 * × post visibility, plus posts in review and deleted.
 */
describe('access table through the feeds (SQL fragments and predicates agree)', () => {
  let t: TestApp;
  let creator: Awaited<ReturnType<typeof createUser>>;
  const tokens = new Map<ViewerKind, string | undefined>();
  const published = new Map<Visibility, string>();
  let inReview: string;
  let deleted: string;

  const exec = (q: string) => t.database.session((run) => run(q));

  beforeAll(async () => {
    t = await createTestApp();
    creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const moderator = await createUser(t, { roles: ['admin', 'user'] });
    for (const v of VISIBILITIES) {
      const fields = v === 'ppv' ? { visibility: v, price: 5 } : { visibility: v };
      published.set(v, await createPost(t, creator, { message: `a ${v} post`, ...fields }, { moderator }));
    }
    inReview = await createPost(
      t,
      creator,
      { message: 'waiting', visibility: 'subscribers' },
      { approve: false },
    );
    deleted = await createPost(t, creator, { message: 'gone' }, { moderator });
    expect(
      (await t.call('posts.delete', undefined, { token: creator.token, params: { id: deleted } })).status,
    ).toBe(200);

    tokens.set('visitor', undefined);
    tokens.set('owner', creator.token);
    for (const role of ['super', 'admin', 'coord'] as const)
      tokens.set(role, (await createUser(t, { roles: ['user', role] })).token);
    tokens.set('fan', (await createUser(t)).token);
    const follower = await createUser(t);
    await exec(`INSERT INTO follows (follower_id, creator_id) VALUES ('${follower.id}', '${creator.id}')`);
    tokens.set('follower', follower.token);
    const buyer = await createUser(t);
    for (const id of [...published.values(), inReview]) await unlock(t, buyer.id, id);
    tokens.set('unlocked buyer', buyer.token);
    for (const [state, row] of Object.entries(SUBSCRIPTION_STATES)) {
      const fan = await createUser(t);
      if (row)
        await exec(`INSERT INTO subscriptions (fan_id, creator_id, status, current_period_end)
          VALUES ('${fan.id}', '${creator.id}', '${row.status}', now() + interval '${row.days} days')`);
      tokens.set(`subscriber: ${state as SubscriptionState}`, fan.token);
    }
  });
  afterAll(() => t.stop());

  const viewers = (): ViewerKind[] => [
    'visitor',
    'fan',
    'follower',
    'unlocked buyer',
    'owner',
    'super',
    'admin',
    'coord',
    ...(Object.keys(SUBSCRIPTION_STATES) as SubscriptionState[]).map((s) => `subscriber: ${s}` as const),
  ];

  it('every viewer kind × post visibility: sees the published post, media only when entitled', async () => {
    const seen: string[] = [];
    const expected: string[] = [];
    for (const viewer of viewers()) {
      for (const v of VISIBILITIES) {
        const res = await t.call('posts.list', { post: published.get(v) }, { token: tokens.get(viewer) });
        seen.push(`${viewer} / ${v}: ${res.status} access=${res.body.posts?.[0]?.access}`);
        expected.push(`${viewer} / ${v}: 200 access=${expectedMediaAccess(viewer, v)}`);
      }
    }
    expect(seen).toEqual(expected);
  });

  it('a post in review exists in the feeds for its creator and staff only; a deleted one for nobody', async () => {
    const seen: string[] = [];
    const expected: string[] = [];
    for (const viewer of viewers()) {
      const staff = viewer === 'super' || viewer === 'admin' || viewer === 'coord';
      for (const [name, id, visible] of [
        ['in review', inReview, staff || viewer === 'owner'],
        ['deleted', deleted, false],
      ] as const) {
        const res = await t.call('posts.list', { post: id }, { token: tokens.get(viewer) });
        seen.push(`${viewer} / ${name}: ${res.status}`);
        expected.push(`${viewer} / ${name}: ${visible ? 200 : 404}`);
      }
    }
    expect(seen).toEqual(expected);
  });

  /** Asks one yes/no question as each subscriber; every answer must be "grants access". */
  async function perSubscriptionState(ask: (token: string | undefined) => Promise<boolean>) {
    const seen: string[] = [];
    const expected: string[] = [];
    for (const state of Object.keys(SUBSCRIPTION_STATES) as SubscriptionState[]) {
      seen.push(`${state}: ${await ask(tokens.get(`subscriber: ${state}`))}`);
      expected.push(`${state}: ${GRANTS_ACCESS[state]}`);
    }
    expect(seen).toEqual(expected);
  }

  it("the creator page says 'subscribed' exactly for active subscribers", () =>
    perSubscriptionState(async (token) => {
      const res = await t.call('posts.list', { creator: creator.username }, { token });
      return res.body.iSubscriptor;
    }));

  it('the home feed of a subscriber lists the creator only while the subscription grants access', () =>
    perSubscriptionState(async (token) => {
      const res = await t.call('posts.list', { feed: 'my_content' }, { token });
      return (res.body.posts ?? []).some((p) => p._id === published.get('free'));
    }));

  it("the creator's subscriber count counts the same subscribers", async () => {
    const res = await t.call('posts.list', { creator: creator.username }, { token: creator.token });
    const active = Object.values(GRANTS_ACCESS).filter(Boolean).length;
    expect(res.body.profile).toBeTruthy();
    expect(JSON.stringify(res.body.profile)).toContain(`"subscribers":${active}`);
  });
});

describe('accounts: what waits for a confirmed email', () => {
  it('profile customisation and the free credits need the verified flag', async () => {
    const { mayCustomiseProfile, mayReceiveFreeCredits } = await import('./index.ts');
    for (const rule of [mayCustomiseProfile, mayReceiveFreeCredits]) {
      expect(rule({ verified: true })).toBe(true);
      expect(rule({ verified: false })).toBe(false);
      expect(rule(null)).toBe(false);
      expect(rule(undefined)).toBe(false);
    }
  });
});
