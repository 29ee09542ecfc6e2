import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/harness.ts';
import { type Config, loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { AppError } from '../http/app-error.ts';
import { registerErrorHandler } from '../http/error-handler.ts';
import { deleteTempFiles, readMultipart } from '../http/multipart.ts';
import { JobQueue } from '../jobs/job-queue.ts';
import { UserRepository } from '../modules/users/user.repository.ts';
import { resolveFfmpeg } from './ffmpeg.ts';
import { createMediaModule, type MediaModule } from './media.module.ts';
import type { MediaRow } from './media.repository.ts';
import type { MediaPurpose } from './media.service.ts';

let database: Database;
let config: Config;
let media: MediaModule;
let jobs: JobQueue;
/** Progress the worker reported per file (a module following the file, as posts do). */
const progressOf = new Map<string, number[]>();
let app: FastifyInstance;
let ownerId: string;
/** A fan the pictures are signed for (their mark). */
let fanId: string;
let now = new Date();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-media-test-'));
// Uploads of this file land in a temp folder of its own (os.tmpdir() follows TMPDIR), so counting
// leftovers is not disturbed by test files running at the same time in other workers.
const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-media-uploads-'));
const previousTmpdir = process.env.TMPDIR;

beforeAll(async () => {
  database = await createTestDatabase();
  config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: path.join(tmp, 'data'),
    LOG_LEVEL: 'silent',
    APP_SECRET: randomBytes(24).toString('hex'),
    MEDIA_MAX_IMAGE_MB: '1',
    MEDIA_MAX_VIDEO_MB: '2',
    MEDIA_URL_TTL_SECONDS: '600',
  });
  jobs = new JobQueue(database, { work: true, cron: false });
  media = createMediaModule({
    database,
    config,
    appSecret: config.appSecret as string,
    jobs,
    now: () => now,
  });
  media.watch(async (row) => ({
    progress: (percent) => progressOf.set(row.id, [...(progressOf.get(row.id) ?? []), percent]),
    done: async () => undefined,
  }));
  await jobs.start();
  process.env.TMPDIR = uploadsDir;

  app = Fastify({ logger: false });
  registerErrorHandler(app);
  const { registerMultipart } = await import('../http/multipart.ts');
  await registerMultipart(app, config);
  media.registerRoutes(app);
  // The shape of an upload route: read the form, ingest each file, always drop the temp files.
  app.post('/upload', async (req) => {
    const body = await readMultipart(req, config.media);
    try {
      const rows: MediaRow[] = [];
      for (const file of body.files) {
        const purpose = (body.fields.purpose as MediaPurpose | undefined) ?? 'post';
        rows.push(await media.service.ingest({ ownerId, purpose, file }));
      }
      await media.service.startProcessing(rows.map((r) => r.id));
      return { ids: rows.map((r) => r.id), fields: body.fields };
    } finally {
      await deleteTempFiles(body.files);
    }
  });
  await app.ready();

  const user = await new UserRepository(database.db).create({
    username: `media${randomBytes(4).toString('hex')}`,
    email: `media-${randomBytes(4).toString('hex')}@example.com`,
    name: 'Media Owner',
    passwordHash: 'x',
    birthdate: '1990-01-01',
    roles: ['user', 'creator'],
    verified: true,
    language: 'en',
    referralCode: randomBytes(5).toString('hex'),
    referredBy: null,
  });
  ownerId = user.id;
  const fan = await new UserRepository(database.db).create({
    username: `fan${randomBytes(4).toString('hex')}`,
    email: `fan-${randomBytes(4).toString('hex')}@example.com`,
    name: 'A Fan',
    passwordHash: 'x',
    birthdate: '1990-01-01',
    roles: ['user', 'fan'],
    verified: true,
    language: 'en',
    referralCode: randomBytes(5).toString('hex'),
    referredBy: null,
  });
  fanId = fan.id;
});

afterAll(async () => {
  await app?.close();
  await jobs?.stop();
  await database?.close();
  if (previousTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmpdir;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(uploadsDir, { recursive: true, force: true });
});

type Part =
  | { name: string; value: string }
  | { name: string; filename: string; content: Buffer; type?: string };

function multipart(parts: Part[]) {
  const boundary = `----fanverse${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      'value' in p
        ? `Content-Disposition: form-data; name="${p.name}"\r\n\r\n`
        : `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`;
    chunks.push(
      Buffer.from(`--${boundary}\r\n${head}`),
      'value' in p ? Buffer.from(p.value) : p.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(parts: Part[], lang: 'en' | 'es' = 'en') {
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url: '/upload', payload, headers: { ...headers, ilang: lang } });
}

async function uploadOne(
  filename: string,
  content: Buffer,
  purpose: MediaPurpose = 'post',
): Promise<MediaRow> {
  const res = await upload([
    { name: 'purpose', value: purpose },
    { name: 'files', filename, content },
  ]);
  expect(res.statusCode, res.body).toBe(200);
  const [id] = res.json().ids as string[];
  const [row] = await processed([id!]);
  return row!;
}

/** The rows once the backbone ran every due job. */
async function processed(ids: string[]): Promise<MediaRow[]> {
  await jobs.drain();
  return media.service.getMany(ids);
}

async function stored(key: string | null): Promise<Buffer> {
  if (!key) throw new Error('no key');
  return buffer(await media.storage.stream(key));
}

/** A JPEG carrying EXIF with a GPS position and a camera maker. */
async function jpegWithGps(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'SecretCam', Copyright: 'someone' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '40/1 26/1 4600/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '3/1 42/1 0/1',
      },
    })
    .toBuffer();
}

let tinyVideo: Buffer;
function makeVideo(): Buffer {
  tinyVideo ??= (() => {
    const out = path.join(tmp, 'tiny.mp4');
    const { ffmpeg } = resolveFfmpeg(config.media);
    execFileSync(ffmpeg, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=2:size=64x48:rate=10',
      '-metadata',
      'title=SecretTitle',
      '-metadata',
      'location=+40.4168-003.7038/',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      out,
    ]);
    return fs.readFileSync(out);
  })();
  return tinyVideo;
}

describe('image pipeline', () => {
  it('makes web, thumbnail and blurred versions and strips EXIF and GPS', async () => {
    const original = await jpegWithGps(2400, 1200);
    const meta = await sharp(original).metadata();
    expect(meta.exif?.toString('latin1')).toContain('SecretCam'); // the fixture really carries metadata

    const res = await upload([{ name: 'files', filename: 'beach.jpg', content: original }]);
    const ids = res.json().ids as string[];
    const [row] = await processed(ids);
    const progress = progressOf.get(ids[0]!) ?? [];
    expect(row).toMatchObject({
      status: 'ready',
      kind: 'image',
      mime: 'image/jpeg',
      width: 2400,
      height: 1200,
    });
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const sizes = { web: 2048, thumb: 480, blur: 48 };
    for (const [name, key] of [
      ['web', row!.webKey],
      ['thumb', row!.thumbKey],
      ['blur', row!.blurKey],
    ] as const) {
      const bytes = await stored(key);
      const out = await sharp(bytes).metadata();
      expect(out.format).toBe('webp');
      expect(Math.max(out.width!, out.height!)).toBe(sizes[name]);
      expect(out.exif).toBeUndefined();
      expect(out.xmp).toBeUndefined();
      expect(bytes.toString('latin1')).not.toMatch(/SecretCam|GPS/);
    }
  });

  it('applies the EXIF orientation before dropping it', async () => {
    const rotated = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#00f' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const row = await uploadOne('portrait.jpeg', rotated);
    expect(row).toMatchObject({ status: 'ready', width: 20, height: 40 });
    const web = await sharp(await stored(row.webKey)).metadata();
    expect([web.width, web.height, web.orientation]).toEqual([20, 40, undefined]);
  });

  it('processes a png named .jpg as a png', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#0f0f' } })
      .png()
      .toBuffer();
    const row = await uploadOne('really-a-png.jpg', png);
    expect(row).toMatchObject({ status: 'ready', mime: 'image/png' });
  });

  it('refuses a corrupt image at upload, naming it, and keeps working', async () => {
    const corrupt = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(200)]);
    const res = await upload([{ name: 'files', filename: 'broken.png', content: corrupt }]);
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('The file broken.png is not supported');
    const next = await uploadOne(
      'fine.png',
      await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    expect(next.status).toBe('ready');
  });
});

describe('video pipeline', () => {
  it('marks a video that cannot be processed failed with an error and keeps working', async () => {
    const corrupt = Buffer.concat([
      Buffer.from('0000001866747970', 'hex'),
      Buffer.from('isom'),
      randomBytes(400),
    ]);
    const row = await uploadOne('broken.mp4', corrupt);
    expect(row.status).toBe('failed');
    expect(row.error).toBeTruthy();
  });

  it('probes streams and duration and makes a poster, thumbnail and blur from a frame', async () => {
    const row = await uploadOne('clip.mov', makeVideo());
    expect(row).toMatchObject({ status: 'ready', kind: 'video', mime: 'video/mp4', width: 64, height: 48 });
    const info = row.info as { streams: unknown[]; format: { duration: number } };
    expect(info.streams).toContainEqual({ codec_type: 'video', codec_name: 'h264', width: 64, height: 48 });
    expect(info.format.duration).toBeGreaterThan(1.5);
    expect(info.format.duration).toBeLessThan(2.5);
    const poster = await sharp(await stored(row.posterKey)).metadata();
    expect([poster.format, poster.width, poster.height]).toEqual(['webp', 64, 48]);
    expect(row.thumbKey && row.blurKey).toBeTruthy();
  });

  it('keeps a copy without metadata (title, location) to play, and never serves the original', async () => {
    const original = makeVideo();
    expect(original.toString('latin1')).toContain('SecretTitle'); // the fixture really carries metadata
    const row = await uploadOne('holiday.mp4', original);
    const clean = await stored(row.webKey);
    expect(clean.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(clean.toString('latin1')).not.toMatch(/SecretTitle|\+40\.4168/);
    // A marked video (ADR 0041, 0043): no fan gets its MP4 on any surface; its owner does.
    expect(media.service.present(row, true, fanId).src).toBeNull();
    expect(media.service.present(row, true, row.ownerId).src).toContain(`/${row.id}/web?`);
    expect((await app.inject({ url: media.signer.url(row.id, 'original') })).statusCode).toBe(404);
  });

  it('refuses a video as an avatar', async () => {
    const res = await upload([
      { name: 'purpose', value: 'avatar' },
      { name: 'files', filename: 'me.mp4', content: makeVideo() },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ code: 'FILE_NOT_SUPPORTED', message: 'The file me.mp4 is not supported' });
  });
});

describe('presentation and signed URLs', () => {
  let image: MediaRow;
  let video: MediaRow;
  beforeAll(async () => {
    image = await uploadOne('pic.jpg', await jpegWithGps(300, 200));
    video = await uploadOne('movie.mp4', makeVideo());
  });

  it('gives viewers with access signed URLs of the web version, thumbnail and poster', () => {
    const img = media.service.present(image, true, fanId);
    expect(img).toMatchObject({ _id: image.id, type: 'image', status: 'ready', locked: false, width: 300 });
    expect(img.src).toMatch(
      new RegExp(`^/api/v1/media/${image.id}/web\\?exp=\\d+&fan=${fanId}&sig=[0-9a-f]{64}$`),
    );
    expect(img.location).toBe(img.src);
    expect(img.thumb).toContain('/thumb?');
    expect(img.poster).toBeNull();

    expect(media.service.present(video, true, fanId).src).toBeNull();
    const vid = media.service.present(video, true, video.ownerId);
    expect(vid.src).toContain(`/${video.id}/web?`);
    expect(vid.poster).toContain('/poster?');
    expect(vid.mediaPoster).toBe(vid.poster);
    expect(vid.info?.format.duration).toBeGreaterThan(1);
  });

  it('gives viewers without access only the blurred preview, never another URL', () => {
    for (const row of [image, video]) {
      const locked = media.service.present(row, false, null);
      expect(locked).toMatchObject({
        src: null,
        thumb: null,
        location: null,
        poster: null,
        mediaPoster: null,
        locked: true,
      });
      expect(locked.blur).toContain(`/${row.id}/blur?`);
      expect(JSON.stringify(locked)).not.toMatch(
        /\/(original|web|thumb|poster)\?|media\/[0-9a-f-]+\/[0-9a-f-]+\//,
      );
    }
  });

  it('never exposes storage keys', () => {
    const json = JSON.stringify([
      media.service.present(image, true, fanId),
      media.service.present(video, true, fanId),
    ]);
    expect(json).not.toContain(image.originalKey);
    expect(json).not.toContain(ownerId);
  });

  it('serves a signed URL with its content type and a private cache lifetime', async () => {
    const url = media.service.present(image, true, fanId).src!;
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(Number(/max-age=(\d+)/.exec(String(res.headers['cache-control']))![1])).toBeGreaterThanOrEqual(
      600,
    );
    // The fan's marked copy (ADR 0026), never the stored rendition itself.
    expect(res.rawPayload.equals(await stored(image.webKey))).toBe(false);
  });

  it('refuses an expired URL with 403', async () => {
    const url = media.service.present(image, true, fanId).src!;
    const issued = now;
    now = new Date(issued.getTime() + 2 * 3600 * 1000);
    try {
      const res = await app.inject({ url, headers: { ilang: 'es' } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'No tienes permiso para hacer esto.' });
    } finally {
      now = issued;
    }
  });

  it('refuses a tampered signature, expiry or variant with 403', async () => {
    const url = media.service.present(image, true, fanId).src!;
    const flipped = url.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`);
    const later = url.replace(/exp=(\d+)/, (_m, e: string) => `exp=${Number(e) + 3600}`);
    const otherVariant = media.service.present(image, false, null).blur!.replace('/blur?', '/web?');
    for (const bad of [flipped, later, otherVariant, url.replace(/&sig=.*/, '')]) {
      expect((await app.inject({ url: bad })).statusCode, bad).toBe(403);
    }
  });

  it('answers 404 for an unknown media id or variant, and never serves an image original', async () => {
    expect((await app.inject({ url: media.signer.url(randomUUID(), 'web') })).statusCode).toBe(404);
    expect((await app.inject({ url: media.signer.url(image.id, 'original') })).statusCode).toBe(404);
    expect((await app.inject({ url: media.signer.url(image.id, 'poster') })).statusCode).toBe(404);
    expect((await app.inject({ url: `/api/v1/media/${image.id}/exif?exp=1&sig=00` })).statusCode).toBe(404);
  });

  it('serves byte ranges of a video', async () => {
    const url = media.service.present(video, true, video.ownerId).src!;
    const whole = await stored(video.webKey);
    const first = await app.inject({ url, headers: { range: 'bytes=0-9' } });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-9/${whole.length}`);
    expect(first.headers['content-type']).toBe('video/mp4');
    expect(first.rawPayload.equals(whole.subarray(0, 10))).toBe(true);

    const tail = await app.inject({ url, headers: { range: 'bytes=-5' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(whole.subarray(whole.length - 5))).toBe(true);

    const open = await app.inject({ url, headers: { range: `bytes=${whole.length - 3}-` } });
    expect(open.rawPayload.length).toBe(3);

    const beyond = await app.inject({ url, headers: { range: `bytes=${whole.length}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${whole.length}`);
  });

  it('makes absolute URLs on the CDN domain when MEDIA_CDN_URL is set', () => {
    const cdn = createMediaModule({
      database,
      config: { ...config, mediaCdnUrl: 'https://cdn.example.com/' },
      appSecret: config.appSecret as string,
      jobs: new JobQueue(database, { work: false, cron: false }),
      now: () => now,
    });
    const shown = cdn.service.present(image, true, fanId);
    expect(shown.src).toMatch(new RegExp(`^https://cdn\\.example\\.com/api/v1/media/${image.id}/web\\?exp=`));
  });

  it('removes the files and the row', async () => {
    const row = await uploadOne('gone.jpg', await jpegWithGps(20, 20));
    const keys = [row.originalKey, row.webKey, row.thumbKey, row.blurKey];
    const url = media.service.present(row, true, fanId).src!;
    await media.service.remove(row.id);
    for (const key of keys) expect(await media.storage.exists(key!)).toBe(false);
    expect(await media.service.get(row.id)).toBeUndefined();
    expect((await app.inject({ url })).statusCode).toBe(404);
  });
});

describe('upload errors', () => {
  const uploadsLeft = () => fs.readdirSync(uploadsDir).filter((f) => f.startsWith('fanverse-upload-')).length;

  it('answers FILE_TOO_LARGE naming the file and the limit of its type, in en and es', async () => {
    const before = uploadsLeft();
    const big = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(1024 * 1024 + 10)]);
    const en = await upload([{ name: 'files', filename: 'huge.png', content: big }]);
    expect(en.statusCode).toBe(413);
    expect(en.json()).toEqual({
      code: 'FILE_TOO_LARGE',
      message: 'The file huge.png is too large, Max size 1 MB',
    });
    const es = await upload([{ name: 'files', filename: 'huge.png', content: big }], 'es');
    expect(es.json().message).toBe('El archivo huge.png es demasiado grande, tamaño máximo 1 MB');
    expect(uploadsLeft()).toBe(before);
  });

  it('allows a file of that size when it is a video (the video limit applies)', async () => {
    const video = makeVideo();
    const padded = Buffer.concat([video, Buffer.alloc(1024 * 1024 + 10 - video.length)]);
    const res = await upload([{ name: 'files', filename: 'long.mp4', content: padded }]);
    expect(res.statusCode, res.body).toBe(200);
    await processed(res.json().ids);
  });

  it('answers FILE_NOT_SUPPORTED naming the file, in en and es', async () => {
    const parts = [{ name: 'files', filename: 'notes.pdf', content: Buffer.from('%PDF-1.7 ...') }];
    expect((await upload(parts)).json()).toEqual({
      code: 'FILE_NOT_SUPPORTED',
      message: 'The file notes.pdf is not supported',
    });
    expect((await upload(parts, 'es')).json().message).toBe('El archivo notes.pdf no es compatible');
  });

  it('refuses a fake .jpg naming the file (spec §8), in en and es', async () => {
    const parts = [{ name: 'files', filename: 'photo.jpg', content: Buffer.from('<?php echo 1; ?>') }];
    const en = await upload(parts);
    expect(en.statusCode).toBe(415);
    expect(en.json()).toEqual({ code: 'FILE_NOT_SUPPORTED', message: 'The file photo.jpg is not supported' });
    expect((await upload(parts, 'es')).json().message).toBe('El archivo photo.jpg no es compatible');
  });

  it('refuses a file that only starts like a JPEG, before any thumbnail is made', async () => {
    const before = uploadsLeft();
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('garbage'.repeat(200))]);
    const res = await upload([{ name: 'files', filename: 'holiday.jpg', content: fake }]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      code: 'FILE_NOT_SUPPORTED',
      message: 'The file holiday.jpg is not supported',
    });
    expect(uploadsLeft()).toBe(before);
  });

  it('removes the files already saved when a later file of the request is refused', async () => {
    const before = uploadsLeft();
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const res = await upload([
      { name: 'files', filename: 'ok.png', content: png },
      { name: 'files', filename: 'bad.exe', content: Buffer.from('MZ....') },
    ]);
    expect(res.json().code).toBe('FILE_NOT_SUPPORTED');
    expect(uploadsLeft()).toBe(before);
  });

  it('reads text fields, repeated ones as a list', async () => {
    const res = await upload([
      { name: 'message', value: 'hola' },
      { name: 'keepMedia', value: 'a' },
      { name: 'keepMedia', value: 'b' },
    ]);
    expect(res.json()).toEqual({ ids: [], fields: { message: 'hola', keepMedia: ['a', 'b'] } });
  });

  it('checks content and size again when a file is ingested without the HTTP reader', async () => {
    const file = path.join(tmp, 'direct.jpg');
    fs.writeFileSync(file, 'not an image');
    const err = await media.service
      .ingest({
        ownerId,
        purpose: 'post',
        file: { field: 'f', filename: 'direct.jpg', mimetype: 'image/jpeg', path: file, size: 12 },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('FILE_NOT_SUPPORTED');
  });
});
