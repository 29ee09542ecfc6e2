import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Post } from '@fanverse/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { jpeg, mp4, postForm } from '../../test/media-fixtures.ts';
import { startS3, type TestS3 } from '../../test/s3.ts';
import { openSocket, record, type TestSocket, until } from '../../test/sockets.ts';

// The whole media path of the app — upload, processing jobs, signed serving — with MEDIA_S3_* set,
// against an S3-compatible server started here (s3rver), not the local disk.

let s3: TestS3;
let t: TestApp;
let base: string;
let creator: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-s3-app-'));
const sockets: TestSocket[] = [];
const CERT = { certifyAdults: 'true', certifyConsent: 'true', certifyTerms: 'true' };

beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp({ ...s3.env, DATA_DIR: dataDir });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  admin = await createUser(t, { roles: ['admin', 'user'] });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.stop();
  await s3?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Files the app wrote under its local media folder (none when storage is S3). */
function localMediaFiles(): string[] {
  const dir = t.config.mediaDir;
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];
}

async function publish(
  fields: Record<string, string>,
  file: { name: string; data: Buffer },
): Promise<string> {
  const socket = await openSocket(base, creator.token, sockets);
  const ended = record(socket, 'postProgressEnd');
  const failed = record(socket, 'postProgressError');
  const res = await postForm(base, '/api/v1/posts', creator.token, { ...CERT, ...fields }, [file]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = (res.body.post as Post)._id;
  await until(() => ended.some((e) => e.postId === id) || failed.length > 0, 60_000);
  expect(failed).toEqual([]);
  expect(
    (await t.call('admin.postReview', { id, adminStatus: 'approved' }, { token: admin.token })).status,
  ).toBe(200);
  return id;
}

describe('media on S3-compatible storage', () => {
  it('an avatar is cropped, stored in the bucket and served publicly from it', async () => {
    const before = new Set(await s3.keys());
    const res = await postForm(
      base,
      '/api/v1/user/profile/image',
      creator.token,
      { kind: 'avatar', x: '10', y: '20', width: '100', height: '100' },
      [{ name: 'me.jpg', data: await jpeg(400, 300) }],
    );
    expect(res.status).toBe(200);
    const file = await fetch(`${base}${res.body.avatar as string}`);
    expect(file.status).toBe(200);
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([100, 100]);
    expect((await s3.keys()).filter((k) => !before.has(k)).length).toBeGreaterThan(0);
    expect(localMediaFiles()).toEqual([]);
  });

  it('post image and video are processed from the bucket and served to entitled viewers only', async () => {
    const imagePost = await publish(
      { message: 'A photo', visibility: 'subscribers' },
      { name: 'photo.jpg', data: await jpeg() },
    );
    const videoPost = await publish(
      { message: 'A clip', visibility: 'subscribers' },
      { name: 'clip.mp4', data: await mp4(2) },
    );
    const keys = await s3.keys();
    expect(keys.some((k) => k.endsWith('.mp4'))).toBe(true);
    expect(keys.some((k) => k.endsWith('.webp'))).toBe(true);
    expect(localMediaFiles()).toEqual([]);

    // A fan without a subscription gets the blurred preview and no URL.
    const stranger = await createUser(t);
    const locked = (await t.call('posts.list', { post: imagePost }, { token: stranger.token })).body
      .posts[0]!;
    expect(locked.access).toBe(false);
    expect(locked.media[0]!.src).toBeFalsy();

    // A subscriber gets signed URLs; the server checks them and streams the objects from the bucket.
    const fan = await createUser(t);
    await subscribe(t, fan.id, creator.id);
    const image = (await t.call('posts.list', { post: imagePost }, { token: fan.token })).body.posts[0]!
      .media[0]!;
    const picture = await fetch(`${base}${image.src}`);
    expect(picture.status).toBe(200);
    expect((await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).width).toBe(320);

    const fanVideo = (await t.call('posts.list', { post: videoPost }, { token: fan.token })).body.posts[0]!
      .media[0]!;
    expect(fanVideo).toMatchObject({ type: 'video', status: 'ready' });
    // A marked video's MP4 goes to its owner only (ADR 0041); fans play the marked stream.
    expect(fanVideo.src).toBeNull();
    const video = (await t.call('posts.list', { post: videoPost }, { token: creator.token })).body.posts[0]!
      .media[0]!;
    expect(video.info?.format.duration).toBeGreaterThan(1);
    const whole = Buffer.from(await (await fetch(`${base}${video.src}`)).arrayBuffer());
    const part = await fetch(`${base}${video.src}`, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(0, 100))).toBe(true);
    expect((await fetch(`${base}${video.poster}`)).status).toBe(200);

    const tampered = image.src!.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect((await fetch(`${base}${tampered}`)).status).toBe(403);
  });

  it('while the bucket is away, media and uploads answer 503 with Retry-After, then work again', async () => {
    const image = (await t.call('posts.list', { feed: 'gallery' }, { token: creator.token })).body.posts
      .flatMap((p) => p.media)
      .find((m) => m.type === 'image' && m.src)!;
    const before = await t.call('posts.list', {}, { token: creator.token });
    await s3.stop();
    try {
      const media = await fetch(`${base}${image.src}`, { headers: { ilang: 'es' } });
      expect(media.status).toBe(503);
      expect(media.headers.get('retry-after')).toBe('10');
      expect(await media.json()).toEqual({
        code: 'STORAGE_UNAVAILABLE',
        message:
          'El almacenamiento de archivos no está disponible por un momento. Inténtalo de nuevo en un rato.',
      });
      // New bytes: the same photo again would be the vault's stored file, needing no bucket (ADR 0032).
      const upload = await postForm(base, '/api/v1/posts', creator.token, { ...CERT, message: 'x' }, [
        { name: 'p.jpg', data: await jpeg(321, 241) },
      ]);
      expect(upload.status).toBe(503);
      expect(upload.body.code).toBe('STORAGE_UNAVAILABLE');
      // The feed itself does not need the bucket.
      expect((await t.call('posts.list', {}, { token: creator.token })).body.posts.length).toBe(
        before.body.posts.length,
      );
    } finally {
      await s3.restart();
    }
    expect((await fetch(`${base}${image.src}`)).status).toBe(200);
  });
});
