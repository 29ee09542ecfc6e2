import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { openSocket, record, type TestSocket, until } from '../../../test/sockets.ts';

let t: TestApp;
let base: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.stop();
});

const product = { _id: 'p1', media: [{ src: '/api/v1/media/x/thumb' }, { src: '/other' }] };

describe('notifications', () => {
  it('pushes a notification live in the receiver language with the counters', async () => {
    const u = await createUser(t);
    await t.call('user.updateProfile', { language: 'es' }, { token: u.token });
    const s = await openSocket(base, u.token, sockets);
    const live = record(s, 'notification');
    const counters = record(s, 'counter');
    await t.services.notifications.notify(u.id, 'tip', {
      link: '/?feed=my-credits',
      actor: 'alice',
      amount: 50,
    });
    await until(() => live.length === 1 && counters.length === 1);
    expect(live[0]!.notification).toMatchObject({
      kind: 'tip',
      message: 'alice te envió una propina de 50 créditos.',
      payload: { link: '/?feed=my-credits' },
    });
    expect(counters[0]!.notificationsUnread).toBe(1);
  });

  it('lists 10 a page, newest first, worded in the language of the request, with the product thumbnail', async () => {
    const u = await createUser(t);
    // The embedded store's clock counts milliseconds, and a notification takes less than one: each
    // waits for the next so that "newest first" has one answer (same-millisecond ones have none).
    const nextMillisecond = async () => {
      const now = Date.now();
      while (Date.now() === now) await new Promise((r) => setTimeout(r, 1));
    };
    for (let i = 0; i < 11; i++) {
      await t.services.notifications.notify(u.id, 'like', { link: `/post/${i}`, actor: `fan${i}` });
      await nextMillisecond();
    }
    await t.services.notifications.notify(u.id, 'unlock', {
      link: '/post/p1',
      actor: 'bob',
      amount: 20,
      product,
    });
    const en = await t.call('notifications.list', {}, { token: u.token, lang: 'en' });
    expect(en.status).toBe(200);
    expect(en.body.notifications).toHaveLength(10);
    expect(en.body.statistics).toMatchObject({ page: 1, limit: 10, total: 12, hasMore: true, unread: 12 });
    const first = en.body.notifications[0]!;
    expect(first).toMatchObject({
      kind: 'unlock',
      read: false,
      message: 'bob unlocked your content for 20 credits.',
    });
    expect(first.payload.product?.media[0]?.src).toBe('/api/v1/media/x/thumb');
    expect(en.body.notifications[1]!.message).toBe('fan10 liked your post.');
    const es = await t.call('notifications.list', { page: 2 }, { token: u.token, lang: 'es' });
    expect(es.body.notifications.map((n) => n.message)).toEqual([
      'A fan1 le gustó tu publicación.',
      'A fan0 le gustó tu publicación.',
    ]);
  });

  it('marks read everything up to the timestamp and pushes the new count', async () => {
    const u = await createUser(t);
    await t.services.notifications.notify(u.id, 'subscriber_new', { link: '/', actor: 'a' });
    await t.services.notifications.notify(u.id, 'payout_sent', { link: '/', amount: '$10' });
    const s = await openSocket(base, u.token, sockets);
    const counters = record(s, 'counter');
    const seenAt = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    await t.services.notifications.notify(u.id, 'verification_accepted', { link: '/' });
    const res = await fetch(`${base}/api/v1/notifications/read?timestamp=${seenAt}`, {
      method: 'POST',
      headers: { a1sledom: u.token },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, unread: 1 });
    await until(() => counters.at(-1)?.notificationsUnread === 1);
    const list = await t.call('notifications.list', {}, { token: u.token });
    expect(list.body.notifications.map((n) => n.read)).toEqual([false, true, true]);
    expect((await t.call('user.profile', {}, { token: u.token })).body.notifications).toBe(1);
    const all = await t.call('notifications.read', {}, { token: u.token });
    expect(all.body.unread).toBe(0);
  });

  it('words every kind in en and es', async () => {
    const u = await createUser(t);
    const kinds = [
      'subscriber_new',
      'subscription_renewed',
      'subscription_cancelled',
      'tip',
      'flowers',
      'gift',
      'unlock',
      'payout_sent',
      'verification_accepted',
      'verification_rejected',
      'message',
    ] as const;
    for (const kind of kinds)
      await t.services.notifications.notify(u.id, kind, { link: '/', actor: 'zed', amount: 3, text: 'hey' });
    for (const lang of ['en', 'es'] as const) {
      const list = await t.call('notifications.list', { limit: 20 }, { token: u.token, lang });
      expect(list.body.notifications).toHaveLength(kinds.length);
      for (const n of list.body.notifications) {
        expect(n.message).not.toMatch(/[{}]/);
        expect(n.message.length).toBeGreaterThan(5);
      }
    }
  });

  it('needs a session', async () => {
    expect((await t.call('notifications.list', {})).status).toBe(401);
    expect((await t.call('notifications.read', {})).status).toBe(401);
  });
});
