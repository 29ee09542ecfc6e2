import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { openSocket, record, settle, type TestSocket, until } from '../../test/sockets.ts';

/**
 * Two app instances on two ports sharing one PostgreSQL database and Redis, as copies of the
 * server behind a load balancer. PGlite can't be shared between processes, so this runs only
 * where DATABASE_URL and REDIS_URL are set (CI).
 */
const shared = !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

describe.skipIf(!shared)('two servers on PostgreSQL and Redis', () => {
  let one: TestApp;
  let two: TestApp;
  let base1: string;
  let base2: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    one = await createTestApp();
    two = await createTestApp({}, { databaseUrl: one.databaseUrl });
    base1 = await one.app.listen({ port: 0, host: '127.0.0.1' });
    base2 = await two.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await two?.stop();
    await one?.stop();
  });

  it('delivers a message sent through server 1 live to a client on server 2, and a notification the other way', async () => {
    expect(base1).not.toBe(base2);
    const creator = await createUser(one, { roles: ['user', 'creator'], verified: true });
    const fan = await createUser(one);
    const onTwo = await openSocket(base2, creator.token, sockets);
    const onOne = await openSocket(base1, fan.token, sockets);
    const messages = record(onTwo, 'message');
    const unread = record(onTwo, 'unreadMessages');
    await settle();

    const sent = await one.call(
      'message.send',
      { to: creator.username, message: 'across servers', messageUUID: `x-${Date.now()}` },
      { token: fan.token },
    );
    expect(sent.status).toBe(200);
    await until(() => messages.length === 1 && unread.length === 1);
    expect(messages[0]!.message).toMatchObject({ _id: sent.body.message._id, isMe: false });
    expect(unread[0]).toEqual({ total: 1 });

    const notes = record(onOne, 'notification');
    await two.services.notifications.notify(fan.id, 'like', { link: '/post/x', actor: creator.username });
    await until(() => notes.length === 1);
    expect(notes[0]!.notification.message).toBe(`${creator.username} liked your post.`);

    // The chat open on server 2 suppresses the message notification raised by server 1.
    const opened = await new Promise<boolean>((resolve) => onTwo.emit('openChat', fan.username, resolve));
    expect(opened).toBe(true);
    const creatorNotes = record(onTwo, 'notification');
    await one.call(
      'message.send',
      { to: creator.username, message: 'chat is open', messageUUID: `y-${Date.now()}` },
      { token: fan.token },
    );
    await until(() => messages.length === 2);
    await settle();
    expect(creatorNotes).toHaveLength(0);

    // Closed on server 2, by leaving the chat or by the device going away: messages notify again.
    const send = (text: string) =>
      one.call(
        'message.send',
        { to: creator.username, message: text, messageUUID: `${text}-${Date.now()}` },
        {
          token: fan.token,
        },
      );
    onTwo.emit('closeChat');
    await settle();
    await send('chat left');
    await until(() => creatorNotes.length === 1);
    const tab = await openSocket(base2, creator.token, sockets);
    expect(await new Promise<boolean>((resolve) => tab.emit('openChat', fan.username, resolve))).toBe(true);
    await send('chat open in a tab');
    await until(() => messages.length === 4);
    await settle();
    expect(creatorNotes).toHaveLength(1);
    tab.disconnect();
    await settle();
    await send('tab gone');
    await until(() => creatorNotes.length === 2);
  });

  it('events published together on server 1 reach sockets on both servers once each, in order', async () => {
    const [a, b] = [await createUser(one), await createUser(one)];
    const aOnTwo = await openSocket(base2, a.token, sockets);
    const aOnOne = await openSocket(base1, a.token, sockets);
    const bOnTwo = await openSocket(base2, b.token, sockets);
    const got = [
      record(aOnTwo, 'unreadMessages'),
      record(aOnOne, 'unreadMessages'),
      record(bOnTwo, 'unreadMessages'),
    ];
    await settle();
    // All published in one turn of server 1's event loop (they travel to server 2 together).
    for (let total = 1; total <= 20; total++) {
      one.realtime.toUser(a.id, 'unreadMessages', { total });
    }
    one.realtime.toUser(b.id, 'unreadMessages', { total: 99 });
    await until(() => got[0]!.length === 20 && got[1]!.length === 20 && got[2]!.length === 1);
    await settle();
    const order = Array.from({ length: 20 }, (_, i) => ({ total: i + 1 }));
    expect(got[0]).toEqual(order);
    expect(got[1]).toEqual(order);
    expect(got[2]).toEqual([{ total: 99 }]);
  });

  it("signing a device out on server 1 cuts that device's socket on server 2 at once", async () => {
    const fan = await createUser(one);
    const other = await one.call(
      'auth.login',
      { login: fan.username, password: TEST_PASSWORD },
      { ip: '10.44.0.1' },
    );
    const onTwo = await openSocket(base2, fan.token, sockets);
    const keep = await openSocket(base2, other.body.token, sockets);
    const list = await one.call('auth.sessions', undefined, { token: other.body.token });
    const target = list.body.items.find((i) => !i.current);
    expect(target).toBeDefined();
    const res = await one.call(
      'auth.revokeSession',
      {},
      { token: other.body.token, params: { id: target!.id } },
    );
    expect(res.status).toBe(200);
    await until(() => !onTwo.connected, 2_000);
    await settle();
    expect(keep.connected).toBe(true);
  });
});
