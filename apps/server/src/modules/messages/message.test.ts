import { randomUUID } from 'node:crypto';
import type { Message } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser, subscribe, unlockMessage } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { jpeg, postForm } from '../../../test/media-fixtures.ts';
import { openSocket, record, settle, type TestSocket, until } from '../../../test/sockets.ts';
import { MASS_MESSAGE } from './message.jobs.ts';
import { PROCESSING_PLACEHOLDER } from './message.presenter.ts';

let t: TestApp;
let base: string;
const sockets: TestSocket[] = [];
type U = Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.stop();
});

const creatorUser = () => createUser(t, { roles: ['user', 'creator'], verified: true });
let uuidSeq = 0;
const uuid = () => `m-${Date.now()}-${++uuidSeq}`;

async function send(from: U, to: U, message: string, messageUUID = uuid()) {
  return t.call('message.send', { to: to.username, message, messageUUID }, { token: from.token });
}

describe('sending and live delivery', () => {
  it("delivers fan A's message to each of the creator's two devices once, to A's device as isMe, and not to fan B", async () => {
    const [creator, fanA, fanB] = [await creatorUser(), await createUser(t), await createUser(t)];
    const [c1, c2, a1, b1] = [
      await openSocket(base, creator.token, sockets),
      await openSocket(base, creator.token, sockets),
      await openSocket(base, fanA.token, sockets),
      await openSocket(base, fanB.token, sockets),
    ];
    const [onC1, onC2, onA1, onB1] = [c1, c2, a1, b1].map((s) => record(s, 'message'));
    const unread1 = record(c1, 'unreadMessages');
    const unread2 = record(c2, 'unreadMessages');

    const res = await send(fanA, creator, 'Hi there');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toMatchObject({
      from: fanA.username,
      to: creator.username,
      message: 'Hi there',
      isMe: true,
      files: [],
      processing: false,
    });
    await until(() => onC1!.length > 0 && onC2!.length > 0 && onA1!.length > 0 && unread2.length > 0);
    await settle();
    expect(onC1!.length).toBe(1);
    expect(onC2!.length).toBe(1);
    expect(onB1!.length).toBe(0);
    expect(onC1![0]!.message).toMatchObject({ _id: res.body.message._id, isMe: false, from: fanA.username });
    expect(onA1![0]!.message.isMe).toBe(true);
    expect(unread1.at(-1)).toEqual({ total: 1 });
    expect(unread2.at(-1)).toEqual({ total: 1 });
  });

  it('keeps unread counts right on every device: contacts, counters, and zero after opening the chat', async () => {
    const [creator, fan] = [await creatorUser(), await createUser(t)];
    const [c1, c2] = [
      await openSocket(base, creator.token, sockets),
      await openSocket(base, creator.token, sockets),
    ];
    const [u1, u2] = [record(c1, 'unreadMessages'), record(c2, 'unreadMessages')];
    const counters = record(c2, 'counter');
    await send(fan, creator, 'one');
    await send(fan, creator, 'two');
    await until(() => u1.length >= 2 && u2.length >= 2 && counters.length >= 2);
    expect(u2.at(-1)).toEqual({ total: 2 });
    // The pushed counters (read with the writes that changed them) are the ones the profile reads.
    const profile = (await t.call('user.profile', {}, { token: creator.token })).body;
    expect(counters.at(-1)).toEqual(profile.counters);
    expect(counters.at(-1)).toMatchObject({ messagesUnread: 2, notificationsUnread: 2 });
    const contacts = await t.call('message.contacts', {}, { token: creator.token });
    expect(contacts.body.users).toHaveLength(1);
    expect(contacts.body.users[0]).toMatchObject({
      user: { user: fan.username },
      unread: 2,
      lastMessage: 'two',
    });
    expect((await t.call('user.profile', {}, { token: creator.token })).body.counters.messagesUnread).toBe(2);

    const chat = await t.call('message.conversation', { user: fan.username }, { token: creator.token });
    expect(chat.status).toBe(200);
    expect(chat.body.messages.map((m) => m.message)).toEqual(['one', 'two']);
    await until(() => u1.at(-1)?.total === 0 && u2.at(-1)?.total === 0);
    await until(() => counters.at(-1)?.messagesUnread === 0);
    const after = await t.call('message.contacts', {}, { token: creator.token });
    expect(after.body.users[0]!.unread).toBe(0);
    expect((await t.call('user.profile', {}, { token: creator.token })).body.counters.messagesUnread).toBe(0);
    // The sender's own messages never count as unread for them.
    expect((await t.call('user.profile', {}, { token: fan.token })).body.counters.messagesUnread).toBe(0);
  });

  it('stores one message for a messageUUID sent twice, and for one sent concurrently', async () => {
    const [creator, fan] = [await creatorUser(), await createUser(t)];
    const c1 = await openSocket(base, creator.token, sockets);
    const got = record(c1, 'message');
    const first = uuid();
    const a = await send(fan, creator, 'again', first);
    const b = await send(fan, creator, 'again', first);
    expect(b.status).toBe(200);
    expect(b.body.message._id).toBe(a.body.message._id);

    const second = uuid();
    const all = await Promise.all(Array.from({ length: 5 }, () => send(fan, creator, 'race', second)));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(all.map((r) => r.body.message._id)).size).toBe(1);

    const someoneElse = await createUser(t);
    expect((await send(fan, someoneElse, 'again', first)).status).toBe(400);
    const chat = await t.call('message.conversation', { user: fan.username }, { token: creator.token });
    expect(chat.body.messages.map((m) => m.messageUUID)).toEqual([first, second]);
    await until(() => got.length >= 2);
    await settle();
    expect(got.map((g) => g.message.messageUUID)).toEqual([first, second]);
  });

  it("answers 'Message empty', the length message naming 1024 and 'Missing Data', in en and es", async () => {
    const [creator, fan] = [await creatorUser(), await createUser(t)];
    const empty = await send(fan, creator, '   ');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Message empty');
    const emptyEs = await t.call(
      'message.send',
      { to: creator.username, message: '', messageUUID: uuid() },
      { token: fan.token, lang: 'es' },
    );
    expect(emptyEs.body.message).toBe('Mensaje vacío');
    const long = await send(fan, creator, 'x'.repeat(1025));
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('MESSAGE_TOO_LONG');
    expect(long.body.message).toContain('1024');
    expect((await send(fan, creator, 'x'.repeat(1024))).status).toBe(200);
    const nothing = await t.call('message.send', {}, { token: fan.token });
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe('Missing Data');
    expect(
      (await t.call('message.send', { to: creator.username, message: 'x', messageUUID: uuid() })).status,
    ).toBe(401);
    expect(
      (
        await t.call(
          'message.send',
          { to: 'nobody0000x', message: 'x', messageUUID: uuid() },
          { token: fan.token },
        )
      ).status,
    ).toBe(404);
    expect((await send(fan, fan, 'me')).status).toBe(403);
  });

  it('pages 24 at a time: page 1 holds the newest, each page oldest to newest', async () => {
    const [creator, fan] = [await creatorUser(), await createUser(t)];
    for (let i = 1; i <= 30; i++) expect((await send(fan, creator, `n${i}`)).status).toBe(200);
    const p1 = await t.call('message.conversation', { user: fan.username }, { token: creator.token });
    expect(p1.body.messages).toHaveLength(24);
    expect(p1.body.messages[0]!.message).toBe('n7');
    expect(p1.body.messages.at(-1)!.message).toBe('n30');
    expect(p1.body.statistics).toMatchObject({ page: 1, limit: 24, total: 30, hasMore: true });
    expect(p1.body.user.user).toBe(fan.username);
    const p2 = await t.call(
      'message.conversation',
      { user: fan.username, page: 2 },
      { token: creator.token },
    );
    expect(p2.body.messages.map((m) => m.message)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
    expect(p2.body.statistics.hasMore).toBe(false);
    // The spec's path, GET /message/?user=…, answers the same page.
    const spec = await fetch(`${base}/api/v1/message/?user=${fan.username}&page=2`, {
      headers: { a1sledom: creator.token },
    });
    expect(((await spec.json()) as { messages: Message[] }).messages).toHaveLength(6);
  });

  it('lists contacts newest conversation first and finds them by handle', async () => {
    const me = await createUser(t);
    const [c1, c2] = [await creatorUser(), await creatorUser()];
    await send(me, c1, 'to c1');
    await send(me, c2, 'to c2');
    await send(c1, me, 'c1 answers');
    const list = await t.call('message.contacts', {}, { token: me.token });
    expect(list.body.users.map((u) => u.user.user)).toEqual([c1.username, c2.username]);
    expect(list.body.users[0]).toMatchObject({
      lastMessage: 'c1 answers',
      lastMessageIsMe: false,
      unread: 1,
    });
    expect(list.body.users[1]).toMatchObject({ lastMessage: 'to c2', lastMessageIsMe: true, unread: 0 });
    const found = await t.call('message.contacts', { q: c2.username.slice(0, 10) }, { token: me.token });
    expect(found.body.users.map((u) => u.user.user)).toEqual([c2.username]);
  });

  it('notifies a new message only when the receiver has no chat with the sender open', async () => {
    const [creator, fan] = [await creatorUser(), await createUser(t)];
    const c1 = await openSocket(base, creator.token, sockets);
    const notes = record(c1, 'notification');
    const opened = await new Promise<boolean>((resolve) => c1.emit('openChat', fan.username, resolve));
    expect(opened).toBe(true);
    const live = record(c1, 'message');
    const unread = record(c1, 'unreadMessages');
    await send(fan, creator, 'while open');
    await until(() => live.length === 1 && unread.length === 1);
    await settle();
    expect(notes).toHaveLength(0);
    // Seen in the open chat: it does not count as unread.
    expect(unread.at(-1)).toEqual({ total: 0 });
    c1.emit('closeChat');
    await settle(50);
    await send(fan, creator, 'while closed');
    await until(() => notes.length === 1 && unread.length === 2);
    expect(unread.at(-1)).toEqual({ total: 1 });
    expect(notes[0]!.notification).toMatchObject({
      kind: 'message',
      payload: { link: `/?messages=${fan.username}` },
    });
    expect(notes[0]!.notification.message).toContain('while closed');
    const list = await t.call('notifications.list', {}, { token: creator.token });
    expect(list.body.notifications.filter((n) => n.kind === 'message')).toHaveLength(1);
  });

  it('a message into an open chat is read at once, and so is what the sender sent before it', async () => {
    const [creator, fan] = [await creatorUser(), await createUser(t)];
    await send(fan, creator, 'before the chat opened');
    const c1 = await openSocket(base, creator.token, sockets);
    const notes = record(c1, 'notification');
    const unread = record(c1, 'unreadMessages');
    expect(await new Promise<boolean>((resolve) => c1.emit('openChat', fan.username, resolve))).toBe(true);
    await send(fan, creator, 'into the open chat');
    await until(() => unread.length === 1);
    await settle();
    expect(unread.at(-1)).toEqual({ total: 0 });
    expect(notes).toHaveLength(0);
    const rows = await t.database.session((exec) =>
      exec(`SELECT message, read_at FROM messages WHERE to_id = '${creator.id}' ORDER BY created_at`),
    );
    expect(rows.map((r) => [r.message, r.read_at !== null])).toEqual([
      ['before the chat opened', true],
      ['into the open chat', true],
    ]);
  });

  it('rate-limits sending per sender', async () => {
    const [creator, fan, other] = [await creatorUser(), await createUser(t), await createUser(t)];
    for (let i = 0; i < 60; i++)
      await t.services.messages.send(
        { userId: fan.id, username: fan.username, roles: ['user', 'fan'], sessionId: '', verified: false },
        { to: creator.username, message: `m${i}`, messageUUID: uuid(), price: 0 },
        [],
      );
    const limited = await send(fan, creator, 'one too many');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('MESSAGE_RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(other, creator, 'someone else')).status).toBe(200);
  });
});

describe('files, paid and mass messages', () => {
  it('shows an image as processing with placeholders, then a second event with processing=false replaces it', async () => {
    const [creator, fan] = [await creatorUser(), await createUser(t)];
    const c1 = await openSocket(base, creator.token, sockets);
    const got = record(c1, 'message');
    const messageUUID = uuid();
    const res = await postForm(
      base,
      '/api/v1/message/send',
      fan.token,
      { to: creator.username, message: '', messageUUID },
      [{ name: 'photo.jpg', data: await jpeg() }],
    );
    expect(res.status).toBe(200);
    const sent = res.body.message as unknown as Message;
    expect(sent.processing).toBe(true);
    expect(sent.filesDummy).toEqual([PROCESSING_PLACEHOLDER]);
    await until(() => got.some((g) => !g.message.processing));
    expect(got.map((g) => g.message.messageUUID)).toEqual([messageUUID, messageUUID]);
    expect(got[0]!.message.processing).toBe(true);
    const done = got[1]!.message;
    expect(done).toMatchObject({ processing: false, locked: false, isMe: false });
    expect(done.files[0]).toMatchObject({ type: 'image', status: 'ready', locked: false });
    expect(done.filesDummy[0]).toMatch(/^\/api\/v1\/media\/.+\/blur/);
    expect((await fetch(`${base}${done.files[0]!.src}`)).status).toBe(200);
  });

  it('keeps paid media locked (blurred previews only) until the receiver unlocks the message', async () => {
    const [creator, fan] = [await creatorUser(), await createUser(t)];
    const res = await postForm(
      base,
      '/api/v1/message/send',
      creator.token,
      {
        to: fan.username,
        message: 'Exclusive',
        messageUUID: uuid(),
        price: '25',
      },
      [{ name: 'photo.jpg', data: await jpeg() }],
    );
    expect(res.status).toBe(200);
    const id = (res.body.message as unknown as Message)._id;
    await t.jobs.drain();
    const locked = (await t.call('message.conversation', { user: creator.username }, { token: fan.token }))
      .body.messages[0]!;
    expect(locked).toMatchObject({ price: 25, locked: true, processing: false });
    expect(locked.files[0]).toMatchObject({ src: null, thumb: null, locked: true });
    expect(locked.filesDummy[0]).toMatch(/\/blur/);
    expect(JSON.stringify(locked)).not.toMatch(/\/web|\/thumb|original/);
    const own = (await t.call('message.conversation', { user: fan.username }, { token: creator.token })).body
      .messages[0]!;
    expect(own.locked).toBe(false);

    await unlockMessage(t, fan.id, id);
    const open = (await t.call('message.conversation', { user: creator.username }, { token: fan.token })).body
      .messages[0]!;
    expect(open.locked).toBe(false);
    expect((await fetch(`${base}${open.files[0]!.src}`)).status).toBe(200);
  });

  it('only creators put a price on media', async () => {
    const [creator, fan] = [await creatorUser(), await createUser(t)];
    const res = await postForm(
      base,
      '/api/v1/message/send',
      fan.token,
      {
        to: creator.username,
        message: 'pay me',
        messageUUID: uuid(),
        price: '5',
      },
      [{ name: 'photo.jpg', data: await jpeg() }],
    );
    expect(res.status).toBe(400);
  });

  it('sends a mass message to every active subscriber only, rate-limited', async () => {
    const creator = await creatorUser();
    const [s1, s2, notSub] = [await createUser(t), await createUser(t), await createUser(t)];
    await subscribe(t, s1.id, creator.id);
    await subscribe(t, s2.id, creator.id);
    const live = record(await openSocket(base, s1.token, sockets), 'message');
    const res = await t.call(
      'message.mass',
      { message: 'Hello all', messageUUID: uuid() },
      { token: creator.token },
    );
    expect(res.body).toEqual({ success: true, sent: 2 });
    await until(() => live.length === 1);
    expect(live[0]!.message).toMatchObject({ message: 'Hello all', from: creator.username, isMe: false });
    for (const fan of [s1, s2]) {
      const chat = await t.call('message.conversation', { user: creator.username }, { token: fan.token });
      expect(chat.body.messages.map((m) => m.message)).toEqual(['Hello all']);
    }
    const none = await t.call('message.conversation', { user: creator.username }, { token: notSub.token });
    expect(none.body.messages).toEqual([]);
    expect(
      (await t.call('message.mass', { message: 'x', messageUUID: uuid() }, { token: s1.token })).status,
    ).toBe(403);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await t.call('message.mass', { message: `m${i}`, messageUUID: uuid() }, { token: creator.token }))
          .status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('reaches a subscriber who cancelled but paid until next month (issue 12: not "Sent to 0")', async () => {
    const creator = await creatorUser();
    const fan = await createUser(t);
    await subscribe(t, fan.id, creator.id, 30);
    const cancel = await t.call('subscriptions.cancel', undefined, {
      token: fan.token,
      params: { creator: creator.username },
    });
    expect(cancel.status).toBe(200);
    const list = await t.call('creator.subscribers', { page: 1 }, { token: creator.token });
    expect(list.body.items.map((i) => [i.user.user, i.status])).toEqual([[fan.username, 'cancelled']]);
    const res = await t.call(
      'message.mass',
      { message: 'Thanks for staying', messageUUID: uuid() },
      { token: creator.token },
    );
    expect(res.body).toEqual({ success: true, sent: 1 });
    // Delivery runs on the job backbone: wait for the queue before reading the fan's chat.
    await t.jobs.drain();
    const chat = await t.call('message.conversation', { user: creator.username }, { token: fan.token });
    expect(chat.body.messages.map((m) => m.message)).toEqual(['Thanks for staying']);
  });
});

describe('mass messages on the job backbone', () => {
  it('a re-run of the same mass message (a retry after a crash) sends nothing twice', async () => {
    const creator = await creatorUser();
    const fans = [await createUser(t), await createUser(t), await createUser(t)];
    for (const f of fans) await subscribe(t, f.id, creator.id);
    const job = {
      massId: randomUUID(),
      creatorId: creator.id,
      messageUuid: uuid(),
      text: 'Once only',
      price: 0,
      mediaIds: [],
    };
    // The first run stops after one recipient (as a killed worker would): their message exists.
    await t.database.session((exec) =>
      exec(
        `INSERT INTO messages (message_uuid, from_id, to_id, message, price, mass_id)
         VALUES ('${job.messageUuid}:${fans[0]!.id}', '${creator.id}', '${fans[0]!.id}', 'Once only', 0, '${job.massId}')`,
      ),
    );
    await t.jobs.send(MASS_MESSAGE, job, { singletonKey: 'retry-1' });
    await t.jobs.drain();
    await t.jobs.send(MASS_MESSAGE, job, { singletonKey: 'retry-2' });
    await t.jobs.drain();
    const rows = await t.database.session((exec) =>
      exec(`SELECT to_id, count(*)::int AS n FROM messages WHERE mass_id = '${job.massId}' GROUP BY to_id`),
    );
    expect(rows.map((r) => [r.to_id, r.n]).sort()).toEqual(fans.map((f) => [f.id, 1]).sort());
  });
});

describe('blocking', () => {
  it("blocks messages both ways, comments on each other's posts and search, until unblocked", async () => {
    const [creator, fan] = [await creatorUser(), await createUser(t)];
    const post = await createPost(t, creator);
    const blocked = await t.call('user.block', { user: creator.username }, { token: fan.token });
    expect(blocked.body).toEqual({ success: true, blocked: true });
    expect((await t.call('user.blocks', {}, { token: fan.token })).body.users.map((u) => u.user)).toEqual([
      creator.username,
    ]);
    expect((await send(fan, creator, 'hello')).status).toBe(403);
    expect((await send(creator, fan, 'hello')).status).toBe(403);
    expect((await t.call('comments.create', { post, message: 'hi' }, { token: fan.token })).status).toBe(403);
    const search = await t.call('creator.search', { q: creator.username }, { token: fan.token });
    expect(search.body.creators.items.map((c) => c.user)).not.toContain(creator.username);
    expect(search.body.topCreators.items.map((c) => c.user)).not.toContain(creator.username);
    const anyone = await t.call('creator.search', { q: creator.username });
    expect(anyone.body.creators.items.map((c) => c.user)).toContain(creator.username);
    const feed = await t.call('posts.list', {}, { token: fan.token });
    expect(feed.body.suggestions.map((c) => c.user)).not.toContain(creator.username);

    const unblocked = await t.call('user.block', { user: creator.username }, { token: fan.token });
    expect(unblocked.body.blocked).toBe(false);
    expect((await send(fan, creator, 'hello again')).status).toBe(200);
    expect((await t.call('comments.create', { post, message: 'hi' }, { token: fan.token })).status).toBe(200);
  });
});

describe('presence', () => {
  it('is online while a socket is connected; the last disconnect sets offline and lastConnection', async () => {
    const u = await createUser(t);
    const s1 = await openSocket(base, u.token, sockets);
    const s2 = await openSocket(base, u.token, sockets);
    const profile = async () => (await t.call('user.profile', {}, { token: u.token })).body;
    await until(async () => (await profile()).online);
    s1.disconnect();
    await settle();
    expect((await profile()).online).toBe(true);
    s2.disconnect();
    await until(async () => !(await profile()).online);
    expect((await profile()).lastConnection).not.toBeNull();
  });
});
