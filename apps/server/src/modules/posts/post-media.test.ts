import type { ClientToServerEvents, Post, ServerToClientEvents } from '@fanverse/contract';
import { SOCKET_PATH } from '@fanverse/contract';
import { eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFIED_FORM as CERT, createUser, subscribe, unlock } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { jpeg, mp4, postForm } from '../../../test/media-fixtures.ts';
import { posts } from '../../db/schema.ts';

let t: TestApp;
let base: string;
let creator: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  admin = await createUser(t, { roles: ['admin', 'user'] });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.stop();
});

function socketFor(token: string): Socket<ServerToClientEvents, ClientToServerEvents> {
  const s: Socket<ServerToClientEvents, ClientToServerEvents> = connect(base, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
  });
  sockets.push(s);
  return s;
}

async function publish(
  fields: Record<string, string>,
  files: { name: string; data: Buffer }[],
): Promise<string> {
  const s = socketFor(creator.token);
  await new Promise<void>((r) => s.once('connect', () => r()));
  const percents: number[] = [];
  s.on('postProgress', (p) => percents.push(p.percent));
  const ended = new Promise<string>((resolve, reject) => {
    s.once('postProgressEnd', (p) => resolve(p.postId));
    s.once('postProgressError', (p) => reject(new Error(p.message)));
  });
  const res = await postForm(base, '/api/v1/posts', creator.token, { ...CERT, ...fields }, files);
  expect(res.status).toBe(200);
  const id = (res.body.post as Post)._id;
  expect(await ended).toBe(id);
  expect(percents.at(-1)).toBe(100);
  expect([...percents].sort((a, b) => a - b)).toEqual(percents);
  s.disconnect();
  return id;
}

/** Every URL in a post as one viewer gets it. */
function urls(post: Post): string[] {
  return post.media.flatMap((m) =>
    [m.src, m.thumb, m.poster, m.mediaPoster, m.location].filter((u): u is string => !!u),
  );
}

describe('publishing with media', () => {
  let imagePost: string;
  let videoPost: string;

  it('processes an image and a video with progress over the socket, then waits for review', async () => {
    imagePost = await publish({ message: 'A photo', visibility: 'subscribers' }, [
      { name: 'photo.jpg', data: await jpeg() },
    ]);
    videoPost = await publish({ message: 'A clip', visibility: 'ppv', price: '50' }, [
      { name: 'clip.mp4', data: await mp4() },
    ]);
    const own = await t.call('posts.list', { post: videoPost }, { token: creator.token });
    const video = own.body.posts[0]!.media[0]!;
    expect(own.body.posts[0]!.adminStatus).toBe('new');
    expect(video).toMatchObject({ type: 'video', status: 'ready', locked: false });
    expect(video.info?.streams.some((s) => s.codec_type === 'video')).toBe(true);
    expect(video.info?.format.duration).toBeGreaterThan(0.5);
    expect(video.poster).toMatch(/^\/api\/v1\/media\//);
    const image = (await t.call('posts.list', { post: imagePost }, { token: creator.token })).body.posts[0]!
      .media[0]!;
    expect(image).toMatchObject({ type: 'image', status: 'ready', width: 320, height: 240 });
    expect(image.thumb).toBeTruthy();
    for (const id of [imagePost, videoPost]) {
      expect(
        (await t.call('admin.postReview', { id, adminStatus: 'approved' }, { token: admin.token })).status,
      ).toBe(200);
    }
  });

  it('a fan without entitlement gets only the blurred preview, on every endpoint that returns the post', async () => {
    const fan = await createUser(t);
    await t.call('posts.save', { id: imagePost }, { token: fan.token });
    await t.call('posts.save', { id: videoPost }, { token: fan.token });
    const answers = [
      await t.call('posts.list', {}, { token: fan.token }),
      await t.call('posts.list', { post: imagePost }, { token: fan.token }),
      await t.call('posts.list', { post: videoPost }, { token: fan.token }),
      await t.call('posts.list', { creator: creator.username }, { token: fan.token }),
      await t.call('posts.list', { feed: 'my_content', content: 'saved' }, { token: fan.token }),
      await t.call('posts.list', { feed: 'gallery' }, { token: fan.token }),
      await t.call('posts.list', { explore: '1' }, { token: fan.token }),
      await t.call('posts.list', {}),
    ];
    let seen = 0;
    for (const a of answers) {
      expect(a.status).toBe(200);
      for (const p of a.body.posts.filter((p) => p._id === imagePost || p._id === videoPost)) {
        seen += 1;
        expect(p.access).toBe(false);
        expect(urls(p)).toEqual([]);
        expect(p.media.every((m) => m.locked && m.blur)).toBe(true);
        expect(JSON.stringify(p)).not.toMatch(/original|\/web|\/thumb/);
      }
    }
    expect(seen).toBeGreaterThanOrEqual(10);
  });

  it('a subscriber sees subscriber media but not pay-per-view until unlocked, then can fetch it', async () => {
    const fan = await createUser(t);
    await subscribe(t, fan.id, creator.id);
    const image = (await t.call('posts.list', { post: imagePost }, { token: fan.token })).body.posts[0]!;
    expect(image.access).toBe(true);
    const file = await fetch(`${base}${image.media[0]!.src}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^image\//);
    const locked = (await t.call('posts.list', { post: videoPost }, { token: fan.token })).body.posts[0]!;
    expect(locked.access).toBe(false);
    expect(urls(locked)).toEqual([]);
    await unlock(t, fan.id, videoPost);
    const open = (await t.call('posts.list', { post: videoPost }, { token: fan.token })).body.posts[0]!;
    expect(open.access).toBe(true);
    // A marked video (ADR 0041): the fan plays the marked stream; its MP4 is not theirs to fetch.
    expect(open.media[0]!.src).toBeNull();
    expect(open.media[0]!.poster).toBeTruthy();
    const play = await t.call('media.play', undefined, {
      token: fan.token,
      params: { id: open.media[0]!._id },
    });
    expect(play.status).toBe(200);
    expect((await fetch(`${base}${play.body.hls}`, { headers: { a1sledom: fan.token } })).status).toBe(200);
  });

  it('a tampered signed URL is refused', async () => {
    const own = (await t.call('posts.list', { post: imagePost }, { token: creator.token })).body.posts[0]!;
    const src = own.media[0]!.src!;
    const tampered = src.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect((await fetch(`${base}${tampered}`)).status).toBe(403);
  });

  it('answers each upload error of the spec with its message', async () => {
    const gif = Buffer.from('GIF89a', 'ascii');
    const notImage = await postForm(base, '/api/v1/posts', creator.token, { ...CERT, message: 'x' }, [
      { name: 'fake.jpg', data: Buffer.from('this is not a picture at all') },
    ]);
    expect(notImage.status).toBe(415);
    // A fake picture is named like any unsupported file (spec §8; issue 14 #10).
    expect(notImage.body.message).toBe('The file fake.jpg is not supported');
    const unsupported = await postForm(base, '/api/v1/posts', creator.token, { ...CERT, message: 'x' }, [
      { name: 'notes.txt', data: Buffer.from('plain text') },
    ]);
    expect(unsupported.body.message).toBe('The file notes.txt is not supported');
    const small = await createTestApp({ MEDIA_MAX_IMAGE_MB: '1' });
    try {
      const smallBase = await small.app.listen({ port: 0, host: '127.0.0.1' });
      const c = await createUser(small, { roles: ['user', 'creator'] });
      const big = Buffer.concat([gif, Buffer.alloc(1_200_000)]);
      const tooLarge = await postForm(smallBase, '/api/v1/posts', c.token, { ...CERT, message: 'x' }, [
        { name: 'big.gif', data: big },
      ]);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body.message).toBe('The file big.gif is too large, Max size 1 MB');
    } finally {
      await small.stop();
    }
  });

  it('judges access on the current row even while the page is cached (a change made by another server copy)', async () => {
    const fan = await createUser(t);
    await subscribe(t, fan.id, creator.id);
    const feeds = () =>
      Promise.all([
        t.call('posts.list', { post: imagePost }, { token: fan.token }),
        t.call('posts.list', { creator: creator.username }, { token: fan.token }),
        t.call('posts.list', {}, { token: fan.token }),
      ]);
    const found = (answers: Awaited<ReturnType<typeof feeds>>) =>
      answers.flatMap((a) => a.body.posts?.filter((p) => p._id === imagePost) ?? []);
    const before = found(await feeds());
    expect(before.length).toBe(3);
    expect(before.every((p) => p.access && urls(p).length > 0)).toBe(true);
    // Written straight into the store, as another copy would: this copy's caches are not told.
    await t.database.db.update(posts).set({ visibility: 'ppv', price: 50 }).where(eq(posts.id, imagePost));
    const ppv = found(await feeds());
    expect(ppv.length).toBe(3);
    for (const p of ppv) {
      expect(p.access).toBe(false);
      expect(urls(p)).toEqual([]);
    }
    await t.database.db.update(posts).set({ status: 'deleted' }).where(eq(posts.id, imagePost));
    const gone = await feeds();
    expect(gone[0].status).toBe(404);
    expect(found(gone)).toEqual([]);
  });
});
