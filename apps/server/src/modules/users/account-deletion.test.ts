import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStore, until } from '../../../test/child-server.ts';
import {
  APPLICATION_PROFILE,
  CERTIFIED_FORM as CERT,
  createPost,
  createUser,
  TEST_PASSWORD,
} from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { cameraWebm, jpeg, postForm } from '../../../test/media-fixtures.ts';
import { openDatabase } from '../../db/client.ts';
import type { JobSpec } from '../../jobs/job.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { createPrivateStorage, createStorage, LocalStorage, type Storage } from '../../media/storage.ts';
import { buyCredits, ledgerHealth, makeCreator, postback } from '../../payments/money.testkit.ts';
import { ANALYSIS } from '../../watermark/video-mark.ts';
import { liveReferenceKey } from '../lives/live-reference.ts';
import { AccountDeletionService, type DeletionLogger, FILES_PER_JOB } from './account-deletion.service.ts';
import type { UserRepository } from './user.repository.ts';

let t: TestApp;
let base: string;
let storage: Storage;
let privateStorage: Storage;
let admin: Awaited<ReturnType<typeof createUser>>;
type U = Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await createTestApp({ EARNINGS_HOLD_DAYS: '0' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  storage = createStorage(t.config);
  privateStorage = createPrivateStorage(t.config);
  admin = await createUser(t, { roles: ['admin', 'user'] });
});
afterAll(() => t.stop());

const q = (sqlText: string) => t.database.session((exec) => exec(sqlText));
const n = async (sqlText: string) => Number((await q(sqlText))[0]?.n);
/** Jobs removing stored files, by state. */
const fileJobs = (state: string) =>
  n(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'users.erase-files' AND state = '${state}'`);

/** Everything the ledger says: rows, their amounts, and the balance of every account. */
async function ledgerSnapshot() {
  return {
    transactions: await q(
      `SELECT id, kind, user_id, creator_id, post_id, amount_cents, credits, idempotency_key
       FROM ledger_transactions ORDER BY id`,
    ),
    entries: await n('SELECT count(*)::int AS n FROM ledger_entries'),
    balances: await q(
      `SELECT account, currency, sum(amount)::int AS total FROM ledger_entries
       GROUP BY account, currency ORDER BY account, currency`,
    ),
    wallets: await q('SELECT user_id, credits FROM wallets ORDER BY user_id'),
    checkouts: await n('SELECT count(*)::int AS n FROM checkouts'),
    paymentEvents: await n('SELECT count(*)::int AS n FROM payment_events'),
  };
}

async function mediaKeysOf(ownerId: string): Promise<string[]> {
  const rows = await q(
    `SELECT original_key, web_key, thumb_key, blur_key, poster_key FROM media WHERE owner_id = '${ownerId}'`,
  );
  return rows.flatMap((r) => Object.values(r).filter((k): k is string => typeof k === 'string'));
}

async function processed(ownerId: string) {
  await t.jobs.drain();
  const rows = await q(`SELECT status FROM media WHERE owner_id = '${ownerId}'`);
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => r.status === 'ready')).toBe(true);
}

async function subscribeThroughSandbox(fan: U, creator: U) {
  const res = await t.call('checkout.subscription', { creator: creator.username }, { token: fan.token });
  expect(res.status).toBe(200);
  const params = new URL(res.body.redirectUrl, 'http://x').searchParams;
  await t.services.billing.sandboxDecide(
    params.get('checkout') ?? '',
    params.get('sig') ?? '',
    true,
    async (_p, body) => postback(t, body),
  );
  const mine = await t.call('subscriptions.mine', undefined, { token: fan.token });
  expect(mine.body.items.find((i) => i.creator.user === creator.username)?.status).toBe('active');
}

async function comment(who: U, post: string, message: string, parent?: string): Promise<string> {
  const res = await t.call('comments.create', { post, message, parent }, { token: who.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.comment._id;
}

/** A fan who applies with identity photos and is accepted: a verified creator with a price. */
async function acceptedCreator(): Promise<U> {
  const u = await createUser(t);
  const profile = { ...APPLICATION_PROFILE, email: 'ana.private@example.com' };
  expect((await t.call('creator.apply', profile, { token: u.token })).status).toBe(200);
  expect(
    (await t.call('creator.apply', { step: '2', acceptCreatorTerms: true }, { token: u.token })).status,
  ).toBe(200);
  const form = new FormData();
  form.append('step', '3');
  form.append('documentType', 'passport');
  for (const [side, colour] of [
    ['front', '#111111'],
    ['back', '#222222'],
    ['face', '#333333'],
  ] as const) {
    form.append(side, new Blob([new Uint8Array(await jpeg(300, 200, colour))]), `${side}.jpg`);
  }
  const step3 = await fetch(`${base}/api/v1/creator/apply`, {
    method: 'POST',
    headers: { a1sledom: u.token },
    body: form,
  });
  expect(step3.status).toBe(200);
  const id = (
    await t.call('admin.verifications', { status: 'pending' }, { token: admin.token })
  ).body.items.find((i) => i.user._id === u.id)!._id;
  const decided = await t.call(
    'admin.verificationDecide',
    { decision: 'accept' },
    { token: admin.token, params: { id } },
  );
  expect(decided.status).toBe(200);
  expect((await t.call('creator.pricing', { price: '9.99' }, { token: u.token })).status).toBe(200);
  return u;
}

let pictures = 0;
/** Publishes a post with a picture of its own (the same bytes would be stored once: ADR 0032). */
async function publish(creator: U, fields: Record<string, string>): Promise<string> {
  const color = `#${(0x200000 + 0x10203 * ++pictures).toString(16).padStart(6, '0')}`;
  const res = await postForm(base, '/api/v1/posts', creator.token, { ...CERT, ...fields }, [
    { name: 'photo.jpg', data: await jpeg(320, 240, color) },
  ]);
  expect(res.status).toBe(200);
  return (res.body.post as { _id: string })._id;
}

describe('a creator deletes the account', () => {
  it('removes content, files and personal data; the ledger and money records stay exactly as they were', async () => {
    const creator = await acceptedCreator();
    const other = await makeCreator(t);
    const fan = await createUser(t);
    const fan2 = await createUser(t);

    // Content with media: an avatar, two posts, a gallery, a message with a photo.
    const avatar = await postForm(base, '/api/v1/user/profile/image', creator.token, { kind: 'avatar' }, [
      { name: 'me.jpg', data: await jpeg(200, 200) },
    ]);
    expect(avatar.status).toBe(200);
    const ppv = await publish(creator, { message: 'Pay per view', visibility: 'ppv', price: '30' });
    const subsOnly = await publish(creator, { message: 'For subscribers', visibility: 'subscribers' });
    const message = await postForm(
      base,
      '/api/v1/message/send',
      creator.token,
      { to: fan.username, message: 'A private photo for you', messageUUID: randomUUID() },
      [{ name: 'dm.jpg', data: await jpeg(100, 100) }],
    );
    expect(message.status).toBe(200);
    await processed(creator.id);
    for (const id of [ppv, subsOnly]) {
      expect(
        (await t.call('admin.postReview', { id, adminStatus: 'approved' }, { token: admin.token })).status,
      ).toBe(200);
    }
    const [postMedia] = await q(`SELECT media_id FROM post_media WHERE post_id = '${ppv}'`);
    expect(
      (
        await t.call(
          'gallery.saveCategory',
          { name: 'Best', media: [String(postMedia?.media_id)] },
          { token: creator.token },
        )
      ).status,
    ).toBe(200);

    // Money: the fan buys credits, subscribes, unlocks the post and tips; the creator has a payout method.
    await buyCredits(t, fan, 'bag-250');
    await subscribeThroughSandbox(fan, creator);
    expect((await t.call('posts.unlock', undefined, { token: fan.token, params: { id: ppv } })).status).toBe(
      200,
    );
    expect(
      (
        await t.call(
          'tips.send',
          { creator: creator.username, credits: 20, message: 'You rock' },
          { token: fan.token },
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await t.call(
          'creator.setPayoutMethod',
          {
            kind: 'bank',
            holder: 'Ana Pérez',
            bank: 'Banco Uno',
            accountNumber: '0011223344',
            country: 'CO',
          },
          { token: creator.token },
        )
      ).status,
    ).toBe(200);

    // Reactions and relations both ways, comments threaded with other people's replies.
    await t.call('user.follow', { creator: creator.username }, { token: fan.token });
    await t.call('user.follow', { creator: other.username }, { token: creator.token });
    await t.call('user.block', { user: (await createUser(t)).username }, { token: creator.token });
    await t.call('posts.like', { id: ppv }, { token: fan.token });
    await comment(fan, subsOnly, 'Lovely');
    const otherPost = await createPost(t, other, {}, { moderator: admin });
    await t.call('posts.like', { id: otherPost }, { token: creator.token });
    await t.call('posts.save', { id: otherPost }, { token: creator.token });
    const c1 = await comment(creator, otherPost, 'Top-level by the creator');
    const r1 = await comment(fan, otherPost, 'Fan answers the creator', c1);
    const r1b = await comment(fan2, otherPost, 'Fan 2 answers the fan', r1);
    const f1 = await comment(fan, otherPost, 'Top-level by the fan');
    const c2 = await comment(creator, otherPost, 'The creator answers the fan', f1);
    const r2 = await comment(fan2, otherPost, 'Fan 2 answers the creator', c2);
    await t.call(
      'message.send',
      { to: creator.username, message: 'Hello!', messageUUID: randomUUID() },
      { token: fan.token },
    );

    // Mail and forms.
    await t.call('auth.code', { email: creator.email }, { ip: '10.77.0.1' });
    await t.call(
      'contact.send',
      { name: 'Ana', email: creator.email, subject: 'Hi', message: 'About my account' },
      { token: creator.token },
    );

    // What is there before, so that the test can fail.
    const files = await mediaKeysOf(creator.id);
    expect(files.length).toBeGreaterThanOrEqual(4 * 4);
    for (const key of files) expect(await storage.exists(key)).toBe(true);
    const identity = (
      await q(
        `SELECT d.storage_key FROM identity_documents d JOIN creator_applications a ON a.id = d.application_id
         WHERE a.user_id = '${creator.id}'`,
      )
    ).map((r) => String(r.storage_key));
    expect(identity).toHaveLength(3);
    for (const key of identity) expect(await privateStorage.exists(key)).toBe(true);
    expect(
      await n(`SELECT count(*)::int AS n FROM notifications WHERE payload->>'actor' = '${creator.username}'`),
    ).toBeGreaterThan(0);
    expect(
      await n(`SELECT count(*)::int AS n FROM mail_outbox WHERE lower("to") = lower('${creator.email}')`),
    ).toBe(1);
    const ledgerBefore = await ledgerSnapshot();
    expect(ledgerBefore.transactions.length).toBeGreaterThanOrEqual(4);
    const earningsBefore = (await t.call('creator.earnings', { period: 'all' }, { token: creator.token }))
      .body;
    expect(earningsBefore.balance.total).toBeGreaterThan(0);

    const res = await t.call(
      'user.delete',
      { confirm: 'delete', password: TEST_PASSWORD },
      { token: creator.token },
    );
    expect(res.status).toBe(200);

    // Content rows and files are gone.
    expect(await n(`SELECT count(*)::int AS n FROM posts WHERE creator_id = '${creator.id}'`)).toBe(0);
    expect(
      await n(`SELECT count(*)::int AS n FROM post_media WHERE post_id IN ('${ppv}', '${subsOnly}')`),
    ).toBe(0);
    expect(await n(`SELECT count(*)::int AS n FROM media WHERE owner_id = '${creator.id}'`)).toBe(0);
    expect(
      await n(`SELECT count(*)::int AS n FROM gallery_categories WHERE creator_id = '${creator.id}'`),
    ).toBe(0);
    // The files go through the job the erasure queued.
    await t.jobs.drain();
    for (const key of files) expect(await storage.exists(key)).toBe(false);
    for (const key of identity) expect(await privateStorage.exists(key)).toBe(false);
    expect(await n(`SELECT count(*)::int AS n FROM messages WHERE from_id = '${creator.id}'`)).toBe(0);
    // What others sent stays theirs (no longer listed: contacts skip deleted accounts).
    expect(
      await n(
        `SELECT count(*)::int AS n FROM messages WHERE from_id = '${fan.id}' AND to_id = '${creator.id}'`,
      ),
    ).toBe(1);
    const contacts = await t.call('message.contacts', {}, { token: fan.token });
    expect(contacts.body.users.map((c) => c.user._id)).not.toContain(creator.id);

    // Personal data and relations.
    for (const table of [
      'creator_applications',
      'password_reset_codes',
      'post_likes',
      'post_saves',
      'notifications',
    ]) {
      expect(await n(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = '${creator.id}'`), table).toBe(
        0,
      );
    }
    expect(
      await n(
        `SELECT count(*)::int AS n FROM follows WHERE follower_id = '${creator.id}' OR creator_id = '${creator.id}'`,
      ),
    ).toBe(0);
    expect(
      await n(
        `SELECT count(*)::int AS n FROM user_blocks WHERE blocker_id = '${creator.id}' OR blocked_id = '${creator.id}'`,
      ),
    ).toBe(0);
    expect(
      await n(
        `SELECT count(*)::int AS n FROM contact_requests WHERE lower(email) = lower('${creator.email}')`,
      ),
    ).toBe(0);
    expect(
      await n(`SELECT count(*)::int AS n FROM mail_outbox WHERE lower("to") = lower('${creator.email}')`),
    ).toBe(0);
    expect(
      await n(`SELECT count(*)::int AS n FROM notifications WHERE payload->>'actor' = '${creator.username}'`),
    ).toBe(0);
    const [row] = await q(
      `SELECT * FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = '${creator.id}'`,
    );
    expect(row).toMatchObject({
      name: 'Deleted user',
      birthdate: null,
      country: null,
      avatar: null,
      display_name: null,
    });
    expect(row?.deleted_at).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(creator.username);
    expect(JSON.stringify(row)).not.toContain(creator.email);

    // Comments: the creator's are gone, everybody else's replies still show in their threads.
    const thread = await t.call('comments.list', { post: otherPost }, { token: fan.token });
    expect(thread.status).toBe(200);
    const shown = JSON.stringify(thread.body);
    expect(shown).not.toContain(c1);
    expect(shown).not.toContain(c2);
    const top = thread.body.comments.map((c) => c._id).sort();
    expect(top).toEqual([f1, r1].sort());
    const promoted = thread.body.comments.find((c) => c._id === r1)!;
    expect(promoted).toMatchObject({ parent: null, deep: 0 });
    expect(promoted.replies.map((r) => [r._id, r.parent, r.deep])).toEqual([[r1b, r1, 1]]);
    const fans = thread.body.comments.find((c) => c._id === f1)!;
    expect(fans.replies.map((r) => [r._id, r.parent, r.deep])).toEqual([[r2, f1, 1]]);
    expect(thread.body.total).toBe(2);
    const listed = await t.call('posts.list', { post: otherPost }, { token: fan.token });
    expect(listed.body.posts[0]?.comments).toBe(4);

    // Publicly not found; no login; no session.
    for (const handle of [creator.username, String(row?.username)]) {
      expect(
        (await t.call('creator.profile', undefined, { token: fan.token, params: { id: handle } })).status,
      ).toBe(404);
    }
    const search = await t.call(
      'creator.search',
      { word: creator.username.slice(0, 8) },
      { token: fan.token },
    );
    expect(JSON.stringify(search.body)).not.toContain(creator.id);
    const explore = await t.call('posts.list', { explore: '1' }, { token: fan.token });
    expect(explore.body.posts.map((p) => p._id)).not.toContain(ppv);
    expect((await t.call('auth.login', { login: creator.username, password: TEST_PASSWORD })).status).toBe(
      401,
    );
    expect((await t.call('auth.login', { login: creator.email, password: TEST_PASSWORD })).status).toBe(401);
    expect((await t.call('user.profile', undefined, { token: creator.token })).status).toBe(401);

    // The ledger, wallets, checkouts and postbacks are untouched, and still balance.
    expect(await ledgerSnapshot()).toEqual(ledgerBefore);
    const health = await ledgerHealth(t);
    expect(health.mismatches).toEqual([]);
    expect(Object.values(health.totals).every((v) => v === 0)).toBe(true);

    // The fan's subscription ended now and renews no more from our side.
    const mine = await t.call('subscriptions.mine', undefined, { token: fan.token });
    expect(mine.body.items.find((i) => i.creator._id === creator.id)?.status).toBe('expired');
    const [sub] = await q(
      `SELECT s.status, s.current_period_end <= now() AS ended, b.cancelled_at FROM subscriptions s
       JOIN subscription_billing b ON b.subscription_id = s.id WHERE s.creator_id = '${creator.id}'`,
    );
    expect(sub).toMatchObject({ status: 'expired', ended: true });
    expect(sub?.cancelled_at).not.toBeNull();

    // Admins still see the account, anonymised, and can no longer act on it.
    const listing = await t.call('admin.users', { role: 'creators', q: 'deleted' }, { token: admin.token });
    const shownToAdmin = listing.body.items.find((i) => i._id === creator.id);
    expect(shownToAdmin).toMatchObject({ name: 'Deleted user', avatar: null });
    expect(shownToAdmin?.user).toMatch(/^deleted[0-9a-f]{12}$/);
    expect(shownToAdmin?.email).toMatch(/@invalid\.local$/);
    expect(shownToAdmin?.deletedAt).toEqual(expect.any(String));
    expect(
      (
        await t.call(
          'admin.userAction',
          { action: 'restore' },
          { token: admin.token, params: { id: creator.id } },
        )
      ).status,
    ).toBe(404);

    // Earnings are still owed: the payout method stays until the payout is decided, then goes.
    expect(await n(`SELECT count(*)::int AS n FROM payout_methods WHERE user_id = '${creator.id}'`)).toBe(1);
    expect(await t.services.accountDeletion.sweepPayoutMethods()).toBe(0);
    expect(await t.services.earnings.runPayouts()).toBeGreaterThanOrEqual(1);
    const [payout] = await q(
      `SELECT id FROM payouts WHERE creator_id = '${creator.id}' AND status = 'scheduled'`,
    );
    expect(await t.services.accountDeletion.sweepPayoutMethods()).toBe(0);
    await t.services.earnings.decide(String(payout?.id), 'paid');
    expect(await t.services.accountDeletion.sweepPayoutMethods()).toBe(1);
    expect(await n(`SELECT count(*)::int AS n FROM payout_methods WHERE user_id = '${creator.id}'`)).toBe(0);
  });
});

describe('a fan deletes the account', () => {
  it('removes comments, reactions and messages; the wallet and ledger stay, only the tip note is blanked', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    const other = await createUser(t);
    const post = await createPost(t, creator, {}, { moderator: admin });
    const ppv = await createPost(t, creator, { visibility: 'ppv', price: 10 }, { moderator: admin });
    await buyCredits(t, fan, 'bag-50');
    await subscribeThroughSandbox(fan, creator);
    await t.call('posts.unlock', undefined, { token: fan.token, params: { id: ppv } });
    await t.call(
      'tips.send',
      { creator: creator.username, credits: 5, message: 'From Ann, 555-0100' },
      { token: fan.token },
    );
    await t.call('posts.like', { id: post }, { token: fan.token });
    await t.call('posts.save', { id: post }, { token: fan.token });
    await t.call('user.follow', { creator: creator.username }, { token: fan.token });
    await t.call('user.block', { user: (await createUser(t)).username }, { token: fan.token });
    const mine = await comment(fan, post, 'Great post');
    const reply = await comment(other, post, 'Agreed', mine);
    const kept = await comment(other, post, 'My own thread');
    await t.call(
      'message.send',
      { to: creator.username, message: 'Hi there', messageUUID: randomUUID() },
      { token: fan.token },
    );
    // Live chat: the fan's line goes, the other fan's stays; the creator's moderation of the fan goes.
    const live = (
      await t.call('lives.start', { title: 'Open live', audience: 'everyone' }, { token: creator.token })
    ).body.live._id;
    for (const [who, text] of [
      [fan, 'Ann from Lyon here'],
      [other, 'Hello all'],
    ] as const) {
      expect((await t.call('lives.chat', { text }, { token: who.token, params: { id: live } })).status).toBe(
        200,
      );
    }
    expect(
      (
        await t.call(
          'lives.moderate',
          { user: fan.username, action: 'mute' },
          { token: creator.token, params: { id: live } },
        )
      ).status,
    ).toBe(200);

    expect(await n(`SELECT count(*)::int AS n FROM comments WHERE user_id = '${fan.id}'`)).toBe(1);
    expect(await n(`SELECT count(*)::int AS n FROM messages WHERE from_id = '${fan.id}'`)).toBe(1);
    expect(
      await n(
        `SELECT count(*)::int AS n FROM notifications WHERE user_id = '${creator.id}' AND payload->>'actor' = '${fan.username}'`,
      ),
    ).toBeGreaterThanOrEqual(4);
    expect(
      await n(
        `SELECT count(*)::int AS n FROM ledger_transactions WHERE user_id = '${fan.id}' AND memo IS NOT NULL`,
      ),
    ).toBe(1);
    const ledgerBefore = await ledgerSnapshot();
    const walletBefore = await q(`SELECT credits FROM wallets WHERE user_id = '${fan.id}'`);
    expect(walletBefore[0]?.credits).toBe(50 - 10 - 5);
    const earnings = (await t.call('creator.earnings', { period: 'all' }, { token: creator.token })).body;

    const wrong = await t.call(
      'user.delete',
      { confirm: 'delete', password: 'not-the-password' },
      { token: fan.token },
    );
    expect(wrong.status).toBe(401);
    expect(await n(`SELECT count(*)::int AS n FROM comments WHERE user_id = '${fan.id}'`)).toBe(1);
    const res = await t.call(
      'user.delete',
      { confirm: 'eliminar', password: TEST_PASSWORD },
      { token: fan.token },
    );
    expect(res.status).toBe(200);

    for (const [table, column] of [
      ['comments', 'user_id'],
      ['post_likes', 'user_id'],
      ['post_saves', 'user_id'],
      ['unlocks', 'user_id'],
      ['follows', 'follower_id'],
      ['user_blocks', 'blocker_id'],
      ['messages', 'from_id'],
      ['notifications', 'user_id'],
      ['live_messages', 'user_id'],
      ['live_moderations', 'user_id'],
    ]) {
      expect(await n(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = '${fan.id}'`), table).toBe(0);
    }
    expect(
      await n(`SELECT count(*)::int AS n FROM notifications WHERE payload->>'actor' = '${fan.username}'`),
    ).toBe(0);
    const chat = (await t.call('lives.get', undefined, { token: creator.token, params: { id: live } })).body
      .chat;
    expect(chat.map((m) => m.text)).toEqual(['Hello all']);
    await t.call('lives.end', undefined, { token: creator.token, params: { id: live } });
    const thread = await t.call('comments.list', { post }, { token: creator.token });
    expect(thread.body.comments.map((c) => [c._id, c.parent, c.deep]).sort()).toEqual(
      [
        [reply, null, 0],
        [kept, null, 0],
      ].sort(),
    );
    const card = (await t.call('posts.list', { post }, { token: creator.token })).body.posts[0];
    expect(card).toMatchObject({ comments: 2, likes: 0 });

    // Money records: identical, the wallet keeps its credits, the creator's earnings are unchanged.
    expect(await ledgerSnapshot()).toEqual(ledgerBefore);
    expect(await q(`SELECT credits FROM wallets WHERE user_id = '${fan.id}'`)).toEqual(walletBefore);
    expect(
      await n(
        `SELECT count(*)::int AS n FROM ledger_transactions WHERE user_id = '${fan.id}' AND memo IS NOT NULL`,
      ),
    ).toBe(0);
    expect((await t.call('creator.earnings', { period: 'all' }, { token: creator.token })).body).toEqual(
      earnings,
    );
    expect((await ledgerHealth(t)).mismatches).toEqual([]);
    const subscribers = await t.call('creator.subscribers', { page: 1, limit: 10 }, { token: creator.token });
    expect(subscribers.body.items.map((i) => [i.user.name, i.status])).toEqual([['Deleted user', 'expired']]);
    expect((await t.call('auth.login', { login: fan.username, password: TEST_PASSWORD })).status).toBe(401);
  });

  it('a second deletion with the same session is refused', async () => {
    const fan = await createUser(t);
    expect(
      (await t.call('user.delete', { confirm: 'delete', password: TEST_PASSWORD }, { token: fan.token }))
        .status,
    ).toBe(200);
    expect(
      (await t.call('user.delete', { confirm: 'delete', password: TEST_PASSWORD }, { token: fan.token }))
        .status,
    ).toBe(401);
  });
});

describe('a creator with lives deletes the account', () => {
  it('ends the live in progress; lives, their chat, tickets, moderation and files go; the ledger keeps the ticket', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    const fan2 = await createUser(t);
    await t.services.wallet.grantCredits(fan.id, 20, `test:${fan.id}:20`);
    const call = (
      name: 'lives.chat' | 'lives.ticket' | 'lives.moderate' | 'lives.end',
      who: U,
      id: string,
      input?: object,
    ) => t.call(name, input, { token: who.token, params: { id } });

    // An ended ticketed live: a fan's ticket and line of chat, the creator's answer, a muted fan,
    // the recording on disk and the mark reference kept in media storage when it ended.
    const start = await t.call(
      'lives.start',
      {
        title: 'Evening live',
        audience: 'ticket',
        ticketPrice: 5,
        goalCredits: 100,
        goalLabel: 'new lights',
      },
      { token: creator.token },
    );
    expect(start.status).toBe(200);
    const ended = start.body.live._id;
    expect((await call('lives.ticket', fan, ended)).status).toBe(200);
    expect((await call('lives.chat', fan, ended, { text: 'hello from the front row' })).status).toBe(200);
    expect((await call('lives.chat', creator, ended, { text: 'welcome!' })).status).toBe(200);
    expect(
      (await call('lives.moderate', creator, ended, { user: fan2.username, action: 'mute' })).status,
    ).toBe(200);
    const endedDir = t.services.liveMedia.dir(ended);
    fs.mkdirSync(path.join(endedDir, 'mark'), { recursive: true });
    fs.writeFileSync(path.join(endedDir, 'recording.webm'), Buffer.alloc(4096, 1));
    fs.writeFileSync(
      path.join(endedDir, 'mark', 'ref.0.gray'),
      Buffer.alloc(ANALYSIS.width * ANALYSIS.height * 20, 90),
    );
    expect((await call('lives.end', creator, ended)).status).toBe(200);
    await t.jobs.drain();
    expect(await storage.exists(liveReferenceKey(ended))).toBe(true);
    expect(fs.existsSync(path.join(endedDir, 'recording.webm'))).toBe(true);

    // A live in progress, its ffmpeg running on the creator's camera stream.
    const running = (
      await t.call('lives.start', { title: 'Late show', audience: 'everyone' }, { token: creator.token })
    ).body.live._id;
    const clip = await cameraWebm(3, { size: '320x240' });
    for (let i = 0; i < clip.length; i += 64 * 1024)
      expect(await t.services.liveMedia.push(running, clip.subarray(i, i + 64 * 1024), 'camera')).toBe(true);
    const runningDir = t.services.liveMedia.dir(running);
    await until(() => fs.existsSync(path.join(runningDir, 'index.m3u8')), 30_000, 'first segments');
    expect(t.services.liveMedia.isRunning(running)).toBe(true);
    const ledgerBefore = await ledgerSnapshot();
    const ticketKey = `live:${ended}:ticket:${fan.id}`;
    expect(
      await n(`SELECT count(*)::int AS n FROM ledger_transactions WHERE idempotency_key = '${ticketKey}'`),
    ).toBe(1);
    const liveIds = `('${ended}', '${running}')`;
    expect(await n(`SELECT count(*)::int AS n FROM live_messages WHERE live_id IN ${liveIds}`)).toBe(2);

    const res = await t.call(
      'user.delete',
      { confirm: 'delete', password: TEST_PASSWORD },
      { token: creator.token },
    );
    expect(res.status).toBe(200);

    // The live was ended first (its media stopped), then every row of both lives went.
    expect(t.services.liveMedia.isRunning(running)).toBe(false);
    expect(await n(`SELECT count(*)::int AS n FROM lives WHERE creator_id = '${creator.id}'`)).toBe(0);
    for (const table of ['live_messages', 'live_tickets', 'live_moderations', 'live_serves'])
      expect(await n(`SELECT count(*)::int AS n FROM ${table} WHERE live_id IN ${liveIds}`), table).toBe(0);
    expect(
      await n(`SELECT count(*)::int AS n FROM live_stream_keys WHERE creator_id = '${creator.id}'`),
    ).toBe(0);
    expect((await t.call('lives.get', undefined, { token: fan.token, params: { id: ended } })).status).toBe(
      404,
    );
    // Tickets are money: the ledger keeps the purchase, unchanged (ADR 0011).
    expect(await ledgerSnapshot()).toEqual(ledgerBefore);
    expect((await ledgerHealth(t)).mismatches).toEqual([]);

    // The files: both lives' folders and the kept reference, by the queued job.
    await t.jobs.drain();
    expect(fs.existsSync(endedDir)).toBe(false);
    expect(fs.existsSync(runningDir)).toBe(false);
    expect(await storage.exists(liveReferenceKey(ended))).toBe(false);
    expect(await storage.exists(liveReferenceKey(running))).toBe(false);
    expect(await fileJobs('completed')).toBeGreaterThan(0);
  }, 60_000);
});

describe('the removal of the stored files', () => {
  it('is queued with the erasure: a storage failure fails the job, pg-boss retries it and the files go', async () => {
    await t.jobs.drain();
    const fan = await createUser(t, { verified: true });
    const avatar = await postForm(base, '/api/v1/user/profile/image', fan.token, { kind: 'avatar' }, [
      { name: 'me.jpg', data: await jpeg(200, 200, '#445566') },
    ]);
    expect(avatar.status).toBe(200);
    const files = await mediaKeysOf(fan.id);
    expect(files.length).toBeGreaterThan(0);
    const retriesBefore = await fileJobs('retry');
    const failing = vi
      .spyOn(LocalStorage.prototype, 'delete')
      .mockRejectedValueOnce(new Error('EIO: storage unreachable'));
    try {
      const res = await t.call(
        'user.delete',
        { confirm: 'delete', password: TEST_PASSWORD },
        { token: fan.token },
      );
      expect(res.status).toBe(200);
      await t.jobs.drain();
      expect(failing).toHaveBeenCalled();
    } finally {
      failing.mockRestore();
    }
    // The failed run left the job waiting for its retry, and the file it could not delete in place.
    expect(await fileJobs('retry')).toBe(retriesBefore + 1);
    const left = [];
    for (const key of files) if (await storage.exists(key)) left.push(key);
    expect(left).toHaveLength(1);
    // The retry is due (instead of waiting its delay): it deletes what is left.
    await q(`UPDATE pgboss.job SET start_after = now() WHERE name = 'users.erase-files' AND state = 'retry'`);
    await t.jobs.drain();
    expect(await fileJobs('retry')).toBe(retriesBefore);
    for (const key of files) expect(await storage.exists(key)).toBe(false);
  });

  it('survives the process: deleted on a copy without workers that stops, the files go on a copy started later', async () => {
    const store = createStore();
    try {
      const a = await store.prepare();
      const baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
      const fan = await createUser(a, { verified: true });
      const avatar = await postForm(baseA, '/api/v1/user/profile/image', fan.token, { kind: 'avatar' }, [
        { name: 'me.jpg', data: await jpeg(200, 200, '#665544') },
      ]);
      expect(avatar.status).toBe(200);
      const rows = await a.database.session((exec) =>
        exec(`SELECT original_key, web_key, thumb_key, blur_key FROM media WHERE owner_id = '${fan.id}'`),
      );
      const files = rows.flatMap((r) => Object.values(r).filter((k): k is string => typeof k === 'string'));
      const storeFiles = createStorage(a.config);
      expect(files.length).toBeGreaterThan(0);
      const res = await a.call(
        'user.delete',
        { confirm: 'delete', password: TEST_PASSWORD },
        { token: fan.token },
      );
      expect(res.status).toBe(200);
      const queued = await a.database.session((exec) =>
        exec(
          `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'users.erase-files' AND state = 'created'`,
        ),
      );
      // One job for the picture's files, one for its marked copies.
      expect(Number(queued[0]?.n)).toBe(2);
      for (const key of files) expect(await storeFiles.exists(key)).toBe(true);
      await a.stop();

      const b =
        store.kind === 'pglite'
          ? await createTestApp(
              { DATA_DIR: store.dataDir },
              { database: await openDatabase({ dataDir: store.dataDir }) },
            )
          : await createTestApp({ DATA_DIR: store.dataDir }, { databaseUrl: a.databaseUrl });
      try {
        await until(
          async () => (await Promise.all(files.map((k) => storeFiles.exists(k)))).every((e) => !e),
          30_000,
          'files removed by the new copy',
        );
      } finally {
        await b.stop();
      }
    } finally {
      await store.close();
    }
  }, 60_000);

  it('is split into jobs of FILES_PER_JOB files; logs carry counts only; sessions end as before', async () => {
    const passwordHash = await hashPassword(TEST_PASSWORD);
    const id = randomUUID();
    const liveId = randomUUID();
    const logged: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const logger: DeletionLogger = {
      info: (obj, msg) => logged.push({ level: 'info', obj, msg }),
      warn: (obj, msg) => logged.push({ level: 'warn', obj, msg }),
    };
    const sent: { job: string; data: Record<string, string[]>; within: unknown }[] = [];
    const revoked: string[][] = [];
    const within = { executeSql: async () => ({ rows: [] }) };
    const media = Array.from({ length: FILES_PER_JOB * 2 + 1 }, (_, i) => `media/${id}/m${i}/web.jpg`);
    const service = new AccountDeletionService({
      users: {
        findByLogin: async () => ({ id, passwordHash }) as Awaited<ReturnType<UserRepository['findByLogin']>>,
      },
      erasure: {
        erase: async (_userId, _placeholder, _at, enqueue) => {
          const files = {
            media,
            marked: [randomUUID()],
            identity: [`identity/${id}/front.jpg`],
            lives: [liveId],
          };
          await enqueue(files, within);
          return { files, affectedUserIds: [], payoutMethodKept: false, counts: { posts: 1 } };
        },
        sweepPayoutMethods: async () => 0,
      },
      sessions: { revokeAll: async () => ['s1'] },
      media: { removeFiles: async (keys) => ({ deleted: keys.length - 1, failed: 1 }) },
      privateStorage: { delete: async (key) => Promise.reject(new Error(`EACCES ${key}`)) },
      lives: { endCurrent: async () => undefined, removeFiles: async () => undefined },
      jobs: {
        send: async (job: JobSpec, data: unknown, options?: { within?: unknown }) => {
          sent.push({
            job: job.name,
            data: job.schema.parse(data) as Record<string, string[]>,
            within: options?.within,
          });
        },
      },
      onSessionsRevoked: (ids) => revoked.push(ids),
      logger,
    });
    const auth = {
      userId: id,
      sessionId: 's1',
      username: 'someone',
      roles: ['user' as const],
      verified: false,
    };
    await service.deleteAccount(auth, { confirm: 'delete', password: TEST_PASSWORD }, 'en');
    expect(revoked).toEqual([['s1']]);
    expect(sent.every((s) => s.job === 'users.erase-files' && s.within === within)).toBe(true);
    expect(sent.map((s) => Object.values(s.data).map((list) => list.length))).toEqual([
      [FILES_PER_JOB, 0, 0, 0],
      [FILES_PER_JOB, 0, 0, 0],
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ]);

    // A run where storage fails: the job fails (pg-boss retries it), with counts only.
    await expect(
      service.removeFiles({
        media: media.slice(0, 2),
        marked: [],
        identity: [`identity/${id}/front.jpg`],
        lives: [liveId],
      }),
    ).rejects.toThrow(/^account deletion: 2 of 4 stored files not deleted$/);
    expect(logged.at(-1)).toMatchObject({ level: 'warn', obj: { deleted: 2, failed: 2 } });
    expect(JSON.stringify(logged)).not.toMatch(new RegExp(`${id}|${liveId}|someone|media/|identity/`));
  });
});
