import fs from 'node:fs';
import path from 'node:path';
import type { Post } from '@fanverse/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { postForm } from '../../test/media-fixtures.ts';
import type { MediaService } from '../media/media.service.ts';
import { detectMark } from './mark.ts';

/**
 * Through the real app: a subscriber's picture of a paid post is that fan's marked copy, never the
 * stored rendition; the creator's leak tracer names the fan; others can't trace it.
 */
const PHOTO = fs.readFileSync(path.resolve(import.meta.dirname, '../../test/fixtures/photos/coffee.jpg'));
const CERT = { certifyAdults: 'true', certifyConsent: 'true', certifyTerms: 'true' };

let t: TestApp;
let base: string;
type Who = Awaited<ReturnType<typeof createUser>>;
let creator: Who;
let other: Who;
let fanA: Who;
let fanB: Who;
let admin: Who;
let post: Post;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  other = await createUser(t, { roles: ['user', 'creator'], verified: true });
  fanA = await createUser(t);
  fanB = await createUser(t);
  admin = await createUser(t, { roles: ['admin', 'user'] });
  await subscribe(t, fanA.id, creator.id);
  await subscribe(t, fanB.id, creator.id);
  const res = await postForm(
    base,
    '/api/v1/posts',
    creator.token,
    { ...CERT, message: 'Paid', visibility: 'subscribers' },
    [{ name: 'coffee.jpg', data: PHOTO }],
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = (res.body.post as Post)._id;
  await t.jobs.drain();
  expect(
    (await t.call('admin.postReview', { id, adminStatus: 'approved' }, { token: admin.token })).status,
  ).toBe(200);
  post = (await t.call('posts.list', { post: id }, { token: fanA.token })).body.posts[0] as Post;
});
afterAll(() => t.stop());

const fetchAs = async (who: Who) => {
  const seen = (await t.call('posts.list', { post: post._id }, { token: who.token })).body.posts[0] as Post;
  const res = await t.app.inject({ url: seen.media[0]!.src! });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
};

const trace = (who: Who, image: Buffer) =>
  postForm(base, '/api/v1/leaks/trace', who.token, {}, [{ name: 'leak.jpg', data: image }]);

describe('paid originals are only served marked', () => {
  it("serves an entitled fan bytes that differ from the stored file and carry that fan's mark", async () => {
    const media = post.media[0]!;
    expect(media.src).toContain(`fan=${fanA.id}`);
    const row = await (t.services.media as MediaService).get(media._id);
    const stored = await t.app.inject({ url: media.src!.replace(/&fan=[^&]+/, '') });
    expect(stored.statusCode).toBe(403); // the fan is part of the signature
    const mine = await fetchAs(fanA);
    expect(row?.webKey).toBeTruthy();
    // biome-ignore lint/complexity/useLiteralKeys: the test reads the service's private watermarker
    const { detection, record } = await t.services.leaks['watermarker'].detect(mine);
    expect(detection.markId).not.toBeNull();
    expect(record?.fanId).toBe(fanA.id);
    expect(record?.mediaId).toBe(media._id);
    // Another fan's copy carries another mark.
    const theirs = await fetchAs(fanB);
    expect(theirs.equals(mine)).toBe(false);
    // biome-ignore lint/complexity/useLiteralKeys: the test reads the service's private watermarker
    expect((await detectMark(theirs, t.services.leaks['watermarker'].key)).markId).not.toBe(detection.markId);
    // Repeated views come from the cache: same bytes.
    expect((await fetchAs(fanA)).equals(mine)).toBe(true);
  });

  it('refuses a marked rendition without a fan in the signed URL', async () => {
    const media = t.services.media as MediaService;
    expect(await media.file(post.media[0]!._id, 'web', null)).toBeNull();
    expect(await media.file(post.media[0]!._id, 'thumb', null)).toBeNull();
  });
});

describe('the leak tracer', () => {
  it("names fan A and the date to the creator, from a halved JPEG of fan A's copy", async () => {
    const mine = await fetchAs(fanA);
    const leak = await sharp(mine).resize(300).jpeg({ quality: 70 }).toBuffer();
    const res = await trace(creator, leak);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      found: true,
      fan: { _id: fanA.id, user: fanA.username },
      media: { _id: post.media[0]!._id },
    });
    expect(res.body.confidence).toBeGreaterThan(95);
    expect(Date.parse(res.body.servedAt as string)).toBeLessThanOrEqual(Date.now());

    const complaint = await t.call(
      'leaks.complain',
      {},
      { token: creator.token, params: { id: res.body._id as string } },
    );
    expect(complaint.status).toBe(200);
    const list = await t.call('admin.complaints', { status: 'pending' }, { token: admin.token });
    const filed = list.body.items.find((c: { _id: string }) => c._id === complaint.body.complaintId);
    expect(filed).toMatchObject({ targetType: 'dmca', targetId: post.media[0]!._id });
    expect(filed?.details).toContain(`@${fanA.username}`);
    // Filing twice answers the same complaint; someone else cannot file it.
    const again = await t.call(
      'leaks.complain',
      {},
      { token: creator.token, params: { id: res.body._id as string } },
    );
    expect(again.body.complaintId).toBe(complaint.body.complaintId);
    const stranger = await t.call(
      'leaks.complain',
      {},
      { token: other.token, params: { id: res.body._id as string } },
    );
    expect(stranger.status).toBe(404);
  });

  it('answers "no fan" for an unmarked copy', async () => {
    const res = await trace(creator, await sharp(PHOTO).jpeg({ quality: 80 }).toBuffer());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ found: false, fan: null, media: null, servedAt: null });
  });

  it("lets staff trace any media, but never another creator's, and fans not at all", async () => {
    const leak = await fetchAs(fanA);
    expect((await trace(admin, leak)).body).toMatchObject({ found: true, fan: { _id: fanA.id } });
    expect((await trace(other, leak)).body).toMatchObject({ found: false, fan: null });
    const fan = await trace(fanB, leak);
    expect(fan.status).toBe(403);
    expect(fan.body.code).toBe('FORBIDDEN');
  });

  it('refuses something that is not an image, in the caller language', async () => {
    const res = await postForm(
      base,
      '/api/v1/leaks/trace',
      creator.token,
      {},
      [{ name: 'x.txt', data: Buffer.from('hello') }],
      {
        lang: 'es',
      },
    );
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({
      code: 'FILE_NOT_SUPPORTED',
      message: 'El archivo x.txt no es compatible',
    });
    const none = await postForm(base, '/api/v1/leaks/trace', creator.token, {}, [], { lang: 'es' });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({
      code: 'LEAK_FILE_REQUIRED',
      message: expect.stringContaining('copia filtrada'),
    });
  });
});

describe('the visible mark', () => {
  it('is switched on by the creator only; copies then show it and still carry the invisible mark', async () => {
    const before = await fetchAs(fanA);
    const refused = await t.call('user.updateProfile', { visibleWatermark: true }, { token: fanA.token });
    expect(refused.status).toBe(403);
    const on = await t.call('user.updateProfile', { visibleWatermark: true }, { token: creator.token });
    expect(on.status).toBe(200);
    expect(on.body.visibleWatermark).toBe(true);
    const after = await fetchAs(fanA);
    expect(after.equals(before)).toBe(false);
    const res = await trace(creator, after);
    expect(res.body).toMatchObject({ found: true, fan: { _id: fanA.id } });
    await t.call('user.updateProfile', { visibleWatermark: false }, { token: creator.token });
  });
});
