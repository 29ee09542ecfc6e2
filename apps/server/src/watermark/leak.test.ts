import fs from 'node:fs';
import path from 'node:path';
import type { LeakTrace, Post } from '@fanverse/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { postForm } from '../../test/media-fixtures.ts';
import { openSocket, record, settle, type TestSocket, until } from '../../test/sockets.ts';
import { leakTraces } from '../db/schema.ts';
import { MemoryRateLimiter } from '../lib/rate-limiter.ts';
import type { MediaService } from '../media/media.service.ts';
import { leakCopyKey } from './leak.service.ts';
import { detectMark } from './mark.ts';

/**
 * Through the real app: a subscriber's picture of a paid post is that fan's marked copy, never the
 * stored rendition; the creator's leak tracer names the fan; others can't trace it. The tracer runs
 * as the `leaks.trace` job: workers are off here, so a trace stays pending until `jobs.drain()`.
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
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ JOBS_WORKERS: 'false' });
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
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.stop();
});

// biome-ignore lint/complexity/useLiteralKeys: the test reads the tracer's private watermarker
const watermarker = () => t.services.leaks['deps'].tracer['watermarker'];

const fetchAs = async (who: Who) => {
  const seen = (await t.call('posts.list', { post: post._id }, { token: who.token })).body.posts[0] as Post;
  const res = await t.app.inject({ url: seen.media[0]!.src! });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
};

const upload = (who: Who, data: Buffer, name = 'leak.jpg') =>
  postForm(base, '/api/v1/leaks/trace', who.token, {}, [{ name, data }]);
const get = (who: Who, id: string) => t.call('leaks.get', undefined, { token: who.token, params: { id } });
/** The stored copy waiting for its job (private storage on disk in tests). */
const storedCopy = (id: string) => path.join(t.config.dataDir, 'private', leakCopyKey(id));

/** Uploads a copy, lets the job run, and answers the trace as its requester then reads it. */
async function trace(who: Who, image: Buffer) {
  const res = await upload(who, image);
  if (res.status !== 200) return res;
  await t.jobs.drain();
  return get(who, res.body._id as string);
}

describe('paid originals are only served marked', () => {
  it("serves an entitled fan bytes that differ from the stored file and carry that fan's mark", async () => {
    const media = post.media[0]!;
    expect(media.src).toContain(`fan=${fanA.id}`);
    const row = await (t.services.media as MediaService).get(media._id);
    const stored = await t.app.inject({ url: media.src!.replace(/&fan=[^&]+/, '') });
    expect(stored.statusCode).toBe(403); // the fan is part of the signature
    const mine = await fetchAs(fanA);
    expect(row?.webKey).toBeTruthy();
    const { detection, record } = await watermarker().detect(mine);
    expect(detection.markId).not.toBeNull();
    expect(record?.fanId).toBe(fanA.id);
    expect(record?.mediaId).toBe(media._id);
    // Another fan's copy carries another mark.
    const theirs = await fetchAs(fanB);
    expect(theirs.equals(mine)).toBe(false);
    expect((await detectMark(theirs, watermarker().key)).markId).not.toBe(detection.markId);
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
  it("answers at once with a pending trace; the job names fan A to the creator, once, from a halved JPEG of fan A's copy", async () => {
    const socket = await openSocket(base, creator.token, sockets);
    const events = record(socket, 'leakTrace');
    const leak = await sharp(await fetchAs(fanA))
      .resize(300)
      .jpeg({ quality: 70 })
      .toBuffer();
    const res = await upload(creator, leak, 'found.jpg');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: 'pending',
      kind: 'image',
      fileName: 'found.jpg',
      found: null,
      confidence: null,
      fan: null,
      error: null,
    });
    const id = res.body._id as string;
    expect(fs.existsSync(storedCopy(id))).toBe(true);
    expect((await get(creator, id)).body.status).toBe('pending');

    await t.jobs.drain();
    await until(() => events.length > 0);
    const done = await get(creator, id);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: 'done',
      found: true,
      fan: { _id: fanA.id, user: fanA.username },
      media: { _id: post.media[0]!._id },
      error: null,
    });
    expect(done.body.confidence).toBeGreaterThan(95);
    expect(Date.parse(done.body.servedAt as string)).toBeLessThanOrEqual(Date.now());
    expect(events).toEqual([{ trace: done.body }]);
    expect(fs.existsSync(storedCopy(id))).toBe(false);

    // Run again (a retry after a crash that followed the write): no second result, no second event.
    await t.services.leaks.run(id);
    await settle();
    expect(events).toHaveLength(1);
    expect((await get(creator, id)).body).toEqual(done.body);

    const complaint = await t.call('leaks.complain', {}, { token: creator.token, params: { id } });
    expect(complaint.status).toBe(200);
    const list = await t.call('admin.complaints', { status: 'pending' }, { token: admin.token });
    const filed = list.body.items.find((c: { _id: string }) => c._id === complaint.body.complaintId);
    expect(filed).toMatchObject({ targetType: 'dmca', targetId: post.media[0]!._id });
    expect(filed?.details).toContain(`@${fanA.username}`);
    // Filing twice answers the same complaint; someone else cannot file it.
    const again = await t.call('leaks.complain', {}, { token: creator.token, params: { id } });
    expect(again.body.complaintId).toBe(complaint.body.complaintId);
    expect((await get(creator, id)).body.complaintId).toBe(complaint.body.complaintId);
    const stranger = await t.call('leaks.complain', {}, { token: other.token, params: { id } });
    expect(stranger.status).toBe(404);
  });

  it('lets the requester and staff follow a trace, not another creator (404) nor a fan (403); no complaint before it is done', async () => {
    const res = await upload(creator, await fetchAs(fanB));
    const id = res.body._id as string;
    expect((await get(other, id)).status).toBe(404);
    const fan = await get(fanB, id);
    expect(fan.status).toBe(403);
    expect(fan.body.code).toBe('FORBIDDEN');
    expect((await get(admin, id)).body).toMatchObject({ _id: id, status: 'pending' });
    const early = await t.call('leaks.complain', {}, { token: creator.token, params: { id } });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('LEAK_COMPLAINT_NEEDS_FAN');
    await t.jobs.drain();
    expect((await get(admin, id)).body).toMatchObject({ status: 'done', fan: { _id: fanB.id } });
  });

  it('answers "no fan" for an unmarked copy, and files no complaint with it', async () => {
    const res = await trace(creator, await sharp(PHOTO).jpeg({ quality: 80 }).toBuffer());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'done',
      found: false,
      confidence: 0,
      fan: null,
      media: null,
      servedAt: null,
    });
    const complaint = await t.call(
      'leaks.complain',
      {},
      { token: creator.token, params: { id: res.body._id as string } },
    );
    expect(complaint.status).toBe(409);
    expect(complaint.body.code).toBe('LEAK_COMPLAINT_NEEDS_FAN');
  });

  it("lets staff trace any media, but never another creator's, and fans not at all", async () => {
    const leak = await fetchAs(fanA);
    expect((await trace(admin, leak)).body).toMatchObject({ found: true, fan: { _id: fanA.id } });
    expect((await trace(other, leak)).body).toMatchObject({ status: 'done', found: false, fan: null });
    const fan = await upload(fanB, leak);
    expect(fan.status).toBe(403);
    expect(fan.body.code).toBe('FORBIDDEN');
  });

  it("lists the requester's recent traces, newest first, and nobody else's", async () => {
    const mine = await t.call('leaks.list', undefined, { token: creator.token });
    expect(mine.status).toBe(200);
    const traces = mine.body.traces as LeakTrace[];
    expect(traces.length).toBeGreaterThanOrEqual(3);
    const dates = traces.map((x) => Date.parse(x.createdAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const theirs = (await t.call('leaks.list', undefined, { token: other.token })).body.traces as LeakTrace[];
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.some((x) => traces.some((y) => y._id === x._id))).toBe(false);
    expect((await t.call('leaks.list', undefined, { token: fanA.token })).status).toBe(403);
  });

  it('refuses, in the caller language, something that is neither a picture nor a video, no file, or two', async () => {
    const res = await postForm(
      base,
      '/api/v1/leaks/trace',
      creator.token,
      {},
      [{ name: 'x.txt', data: Buffer.from('hello') }],
      { lang: 'es' },
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
    const two = await postForm(base, '/api/v1/leaks/trace', creator.token, {}, [
      { name: 'a.jpg', data: PHOTO },
      { name: 'b.jpg', data: PHOTO },
    ]);
    expect(two.status).toBe(400);
    expect(two.body.code).toBe('LEAK_FILE_REQUIRED');
  });
});

describe('the leak trace job', () => {
  it('fails a trace whose stored copy was lost, with a code the page words, and tells the requester once', async () => {
    const socket = await openSocket(base, other.token, sockets);
    const events = record(socket, 'leakTrace');
    const res = await upload(other, PHOTO);
    const id = res.body._id as string;
    fs.rmSync(storedCopy(id));
    await t.jobs.drain();
    await until(() => events.length > 0);
    const failed = await get(other, id);
    expect(failed.body).toMatchObject({ status: 'failed', error: 'failed', found: null, fan: null });
    expect(events).toEqual([{ trace: failed.body }]);
    await t.services.leaks.run(id);
    await settle();
    expect(events).toHaveLength(1);
  });

  it('records a trace whose runs kept dying (out of memory) as failed instead of leaving it running', async () => {
    const res = await upload(other, PHOTO);
    const id = res.body._id as string;
    // Two runs started and never finished: the worker died during each.
    await t.database.db
      .update(leakTraces)
      .set({ status: 'running', attempts: 2 })
      .where(eq(leakTraces.id, id));
    await t.jobs.drain();
    expect((await get(other, id)).body).toMatchObject({ status: 'failed', error: 'failed' });
    expect(fs.existsSync(storedCopy(id))).toBe(false);
  });

  it('writes one result and sends one event when two runs of a trace overlap (a job presumed dead)', async () => {
    const socket = await openSocket(base, creator.token, sockets);
    const events = record(socket, 'leakTrace');
    const res = await upload(creator, await fetchAs(fanA));
    const id = res.body._id as string;
    await Promise.all([t.services.leaks.run(id), t.services.leaks.run(id)]);
    await t.jobs.drain();
    await until(() => events.length > 0);
    await settle();
    expect(events.map((e) => e.trace._id)).toEqual([id]);
    expect((await get(creator, id)).body).toMatchObject({ status: 'done', fan: { _id: fanA.id } });
  });
});

describe('a restart', () => {
  it('does not lose a trace: one taken by a server that stops before running it is finished by the next', async () => {
    const first = await createTestApp({ JOBS_WORKERS: 'false' }, { limiter: new MemoryRateLimiter() });
    const firstBase = await first.app.listen({ port: 0, host: '127.0.0.1' });
    const who = await createUser(first, { roles: ['user', 'creator'], verified: true });
    const res = await postForm(firstBase, '/api/v1/leaks/trace', who.token, {}, [
      { name: 'x.jpg', data: PHOTO },
    ]);
    expect(res.body).toMatchObject({ status: 'pending' });
    await first.close(); // the server goes away; its database stays
    const next = await createTestApp({}, { database: first.database });
    try {
      await next.jobs.drain();
      const done = await next.call('leaks.get', undefined, {
        token: who.token,
        params: { id: res.body._id as string },
      });
      expect(done.body).toMatchObject({ status: 'done', found: false });
    } finally {
      await next.stop();
    }
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
    expect(res.body).toMatchObject({ status: 'done', found: true, fan: { _id: fanA.id } });
    await t.call('user.updateProfile', { visibleWatermark: false }, { token: creator.token });
  });
});
