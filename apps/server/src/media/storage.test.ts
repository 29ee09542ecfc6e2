import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LocalStorage, type S3Fetch, S3Storage } from './storage.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-storage-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('LocalStorage', () => {
  const storage = new LocalStorage(root);

  it('puts a buffer or a file, reads it whole or by range, and deletes it', async () => {
    await storage.put('media/u1/m1/thumb.webp', Buffer.from('0123456789'), 'image/webp');
    const src = path.join(root, 'src.bin');
    fs.writeFileSync(src, 'abcdef');
    await storage.put('media/u1/m1/original.mp4', src, 'video/mp4');

    expect(await storage.stat('media/u1/m1/thumb.webp')).toEqual({ size: 10, contentType: 'image/webp' });
    expect(await storage.stat('media/u1/m1/original.mp4')).toEqual({ size: 6, contentType: 'video/mp4' });
    expect(await text(await storage.stream('media/u1/m1/thumb.webp'))).toBe('0123456789');
    expect(await text(await storage.stream('media/u1/m1/thumb.webp', { start: 2, end: 4 }))).toBe('234');

    await storage.delete('media/u1/m1/thumb.webp');
    expect(await storage.exists('media/u1/m1/thumb.webp')).toBe(false);
    expect(await storage.exists('media/u1/m1/original.mp4')).toBe(true);
  });

  it('answers null for a missing key', async () => {
    expect(await storage.stat('media/none/x.webp')).toBeNull();
  });

  it.each(['../escape.txt', 'media/../../escape', '/etc/passwd', 'media//x', 'media/./x', 'a\\b'])(
    'refuses the key %s that could leave the root',
    async (key) => {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/unsafe|escapes/);
      expect(fs.existsSync(path.join(root, '..', 'escape.txt'))).toBe(false);
    },
  );
});

/** An in-memory S3 that records the calls the driver makes. */
function fakeS3() {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const calls: string[] = [];
  const send: S3Fetch = async (url, init) => {
    calls.push(`${init.method} ${url}`);
    const key = new URL(url).pathname;
    const obj = objects.get(key);
    switch (init.method) {
      case 'PUT':
        objects.set(key, { body: init.body ?? Buffer.alloc(0), type: init.headers?.['content-type'] ?? '' });
        return new Response(null, { status: 200 });
      case 'HEAD':
        return obj
          ? new Response(null, {
              status: 200,
              headers: { 'content-length': String(obj.body.length), 'content-type': obj.type },
            })
          : new Response(null, { status: 404 });
      case 'GET': {
        if (!obj) return new Response('NoSuchKey', { status: 404 });
        const m = /^bytes=(\d+)-(\d+)$/.exec(init.headers?.range ?? '');
        if (m) return new Response(obj.body.subarray(Number(m[1]), Number(m[2]) + 1), { status: 206 });
        return new Response(obj.body, { status: 200 });
      }
      case 'DELETE':
        objects.delete(key);
        return new Response(null, { status: 204 });
      default:
        return new Response(null, { status: 405 });
    }
  };
  return { send, objects, calls };
}

describe('S3Storage', () => {
  const options = {
    bucket: 'fan-media',
    region: 'eu-west-1',
    endpoint: 'http://s3.test:9000/',
    accessKey: 'a',
    secretKey: 'b',
  };

  it('stores, stats, streams ranges and deletes through path-style bucket URLs', async () => {
    const s3 = fakeS3();
    const storage = new S3Storage(options, s3.send);
    await storage.put('media/u1/m1/web.webp', Buffer.from('hello world'), 'image/webp');
    expect(s3.calls[0]).toBe('PUT http://s3.test:9000/fan-media/media/u1/m1/web.webp');
    expect(s3.objects.get('/fan-media/media/u1/m1/web.webp')?.type).toBe('image/webp');

    expect(await storage.stat('media/u1/m1/web.webp')).toEqual({ size: 11, contentType: 'image/webp' });
    expect(await text(await storage.stream('media/u1/m1/web.webp'))).toBe('hello world');
    expect(await text(await storage.stream('media/u1/m1/web.webp', { start: 6, end: 10 }))).toBe('world');

    await storage.delete('media/u1/m1/web.webp');
    expect(await storage.exists('media/u1/m1/web.webp')).toBe(false);
  });

  it('downloads an object to a local file (processing works on local copies)', async () => {
    const s3 = fakeS3();
    const storage = new S3Storage(options, s3.send);
    await storage.put('media/u1/m2/original.mp4', Buffer.from('video-bytes'), 'video/mp4');
    const to = path.join(root, 'downloaded.mp4');
    await storage.download('media/u1/m2/original.mp4', to);
    expect(fs.readFileSync(to, 'utf8')).toBe('video-bytes');
  });

  it('fails loudly when the bucket answers an error', async () => {
    const storage = new S3Storage(options, async () => new Response('denied', { status: 403 }));
    await expect(storage.put('media/x/y.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(/403/);
  });

  it('refuses unsafe keys before any request', async () => {
    const s3 = fakeS3();
    const storage = new S3Storage(options, s3.send);
    await expect(storage.stat('../other-bucket/x')).rejects.toThrow(/unsafe/);
    expect(s3.calls).toEqual([]);
  });

  it('signs requests with AWS SigV4 by default', async () => {
    const seen: Request[] = [];
    vi.stubGlobal('fetch', async (req: Request) => {
      seen.push(req);
      return new Response(null, { status: 200 });
    });
    try {
      await new S3Storage(options).put('media/u1/m3/blur.webp', Buffer.from('x'), 'image/webp');
    } finally {
      vi.unstubAllGlobals();
    }
    expect(seen[0]?.url).toBe('http://s3.test:9000/fan-media/media/u1/m3/blur.webp');
    expect(seen[0]?.headers.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=a\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/,
    );
  });
});
