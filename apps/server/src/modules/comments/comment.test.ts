import type { ClientToServerEvents, ServerToClientEvents } from '@fanverse/contract';
import { SOCKET_PATH } from '@fanverse/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let base: string;
let creator: Awaited<ReturnType<typeof createUser>>;
let fan: Awaited<ReturnType<typeof createUser>>;
let other: Awaited<ReturnType<typeof createUser>>;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  fan = await createUser(t);
  other = await createUser(t);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.stop();
});

describe('comments', () => {
  it('threads replies under their top-level comment with deep 0 and deep 1', async () => {
    const post = await createPost(t, creator);
    const top = await t.call('comments.create', { post, message: 'Love it' }, { token: fan.token });
    expect(top.status).toBe(200);
    expect(top.body.comment).toMatchObject({
      deep: 0,
      parent: null,
      message: 'Love it',
      post: { _id: post },
    });
    const reply = await t.call(
      'comments.create',
      { post, message: 'Thanks!', parent: top.body.comment._id },
      { token: creator.token },
    );
    expect(reply.body.comment.deep).toBe(1);
    const list = await t.call('comments.list', { post }, { token: other.token });
    expect(list.body).toMatchObject({ total: 1, postId: post });
    expect(list.body.comments[0]!.user._id).toBe(fan.id);
    expect(list.body.comments[0]!.replies.map((r) => r.message)).toEqual(['Thanks!']);
    const shown = (await t.call('posts.list', { post }, { token: other.token })).body.posts[0]!;
    expect(shown.comments).toBe(2);
  });

  it('answers Missing Data without a message or post', async () => {
    const post = await createPost(t, creator);
    const noText = await t.call('comments.create', { post, message: '  ' }, { token: fan.token });
    expect(noText.status).toBe(400);
    expect(noText.body.message).toBe('Missing Data');
    const noPost = await t.call('comments.create', { message: 'hi' }, { token: fan.token, lang: 'es' });
    expect(noPost.body.message).toBe('Faltan datos');
  });

  it('needs a session and a visible post', async () => {
    const hidden = await createPost(t, creator, {}, { approve: false });
    expect((await t.call('comments.create', { post: hidden, message: 'x' })).status).toBe(401);
    expect(
      (await t.call('comments.create', { post: hidden, message: 'x' }, { token: fan.token })).status,
    ).toBe(404);
    expect((await t.call('comments.list', { post: hidden }, { token: fan.token })).status).toBe(404);
  });

  it('delivers a new comment live to another person watching the post', async () => {
    const post = await createPost(t, creator);
    const watcher: Socket<ServerToClientEvents, ClientToServerEvents> = connect(base, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      auth: { token: other.token },
      reconnection: false,
    });
    sockets.push(watcher);
    await new Promise<void>((resolve) => watcher.once('connect', () => resolve()));
    const joined = await new Promise<boolean>((resolve) => watcher.emit('watchPost', post, resolve));
    expect(joined).toBe(true);
    const received = new Promise<{ message: string; comments: number }>((resolve) =>
      watcher.once('comment', (p) => resolve({ message: p.comment.message, comments: p.comments })),
    );
    await t.call('comments.create', { post, message: 'live one' }, { token: fan.token });
    // The event carries the post's new comment count, so an open post updates its counter.
    expect(await received).toEqual({ message: 'live one', comments: 1 });
  });

  it('refuses to stream comments of a post the watcher may not see', async () => {
    const hidden = await createPost(t, creator, {}, { approve: false });
    const s = connect(base, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      auth: { token: other.token },
      reconnection: false,
    });
    sockets.push(s);
    await new Promise<void>((resolve) => s.once('connect', () => resolve()));
    expect(await new Promise<boolean>((resolve) => s.emit('watchPost', hidden, resolve))).toBe(false);
  });
});

describe('comment rate limit', () => {
  it('limits comments per account with a clear error, and not other accounts', async () => {
    const app = await createTestApp({ RATE_COMMENT_PER_ACCOUNT: '3' });
    try {
      const author = await createUser(app, { roles: ['user', 'creator'], verified: true });
      const [spammer, bystander] = [await createUser(app), await createUser(app)];
      const post = await createPost(app, author);
      for (let i = 0; i < 3; i++) {
        expect(
          (await app.call('comments.create', { post, message: `c${i}` }, { token: spammer.token })).status,
        ).toBe(200);
      }
      const limited = await app.call(
        'comments.create',
        { post, message: 'one too many' },
        { token: spammer.token, lang: 'es' },
      );
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('COMMENT_RATE_LIMITED');
      expect(limited.body.message).toMatch(/^Estás comentando demasiado rápido\. Espera \d+ segundos/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(
        (await app.call('comments.create', { post, message: 'hi' }, { token: bystander.token })).status,
      ).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
