import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startS3, type TestS3 } from '../../test/s3.ts';
import {
  LocalStorage,
  type S3Fetch,
  type S3Options,
  S3Storage,
  type Storage,
  StorageUnavailableError,
} from './storage.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-storage-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** What every driver must do, run against local disk and against a real S3-compatible server. */
function conformance(name: string, make: () => Storage) {
  describe(`${name}: the Storage contract`, () => {
    it('puts a buffer or a file, reads it whole or by range, downloads and deletes it', async () => {
      const storage = make();
      await storage.put('media/u1/m1/thumb.webp', Buffer.from('0123456789'), 'image/webp');
      const src = path.join(root, `src-${name}.bin`);
      fs.writeFileSync(src, 'abcdef');
      await storage.put('media/u1/m1/original.mp4', src, 'video/mp4');

      expect(await storage.stat('media/u1/m1/thumb.webp')).toEqual({ size: 10, contentType: 'image/webp' });
      expect(await storage.stat('media/u1/m1/original.mp4')).toEqual({ size: 6, contentType: 'video/mp4' });
      expect(await text(await storage.stream('media/u1/m1/thumb.webp'))).toBe('0123456789');
      expect(await text(await storage.stream('media/u1/m1/thumb.webp', { start: 2, end: 4 }))).toBe('234');
      const to = path.join(root, `downloaded-${name}.mp4`);
      await storage.download('media/u1/m1/original.mp4', to);
      expect(fs.readFileSync(to, 'utf8')).toBe('abcdef');

      await storage.delete('media/u1/m1/thumb.webp');
      expect(await storage.exists('media/u1/m1/thumb.webp')).toBe(false);
      expect(await storage.exists('media/u1/m1/original.mp4')).toBe(true);
      await storage.delete('media/u1/m1/thumb.webp'); // deleting twice is fine
    });

    it('stores a file larger than one read chunk byte for byte', async () => {
      const storage = make();
      const big = randomBytes(3 * 1024 * 1024 + 17);
      const src = path.join(root, `big-${name}.bin`);
      fs.writeFileSync(src, big);
      await storage.put('media/u2/m1/original.mp4', src, 'video/mp4');
      expect((await storage.stat('media/u2/m1/original.mp4'))?.size).toBe(big.length);
      expect((await buffer(await storage.stream('media/u2/m1/original.mp4'))).equals(big)).toBe(true);
    });

    it('answers null for a missing key', async () => {
      expect(await make().stat('media/none/x.webp')).toBeNull();
    });

    it.each(['../escape.txt', 'media/../../escape', '/etc/passwd', 'media//x', 'media/./x', 'a\\b'])(
      'refuses the key %s that could leave the root',
      async (key) => {
        await expect(make().put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/unsafe|escapes/);
        expect(fs.existsSync(path.join(root, '..', 'escape.txt'))).toBe(false);
      },
    );
  });
}

conformance('LocalStorage', () => new LocalStorage(path.join(root, 'local')));

/** Local disk has folders, which S3 has not: a delete drops the folder it empties. */
describe('LocalStorage folders', () => {
  it('stores every put that races deletes of the same folders (one run removing what another writes)', async () => {
    const storage = new LocalStorage(path.join(root, 'racing'));
    // An encoding's layout: a playlist per rendition beside its A and B segment folders.
    const layout = (run: string) =>
      ['240p', '360p'].flatMap((r) => [
        `media/u3/m1/v/k1/hls/${r}/index.m3u8`,
        ...['a', 'b'].flatMap((ab) => [0, 1, 2].map((i) => `media/u3/m1/v/k1/hls/${r}/${ab}/${run}_${i}.ts`)),
      ]);
    for (let round = 0; round < 60; round++) {
      const doomed = layout(`old${round}`);
      for (const k of doomed) await storage.put(k, Buffer.from('old'), 'video/mp2t');
      const fresh = layout(`new${round}`).filter((k) => !k.endsWith('.m3u8'));
      // One run stores file after file while another deletes its files, dropping each folder it empties.
      const store = async () => {
        for (const k of fresh) await storage.put(k, Buffer.from(k), 'video/mp2t');
      };
      await Promise.all([store(), Promise.all(doomed.map((k) => storage.delete(k)))]);
      for (const k of fresh) expect(await storage.exists(k), k).toBe(true);
      await Promise.all(fresh.map((k) => storage.delete(k)));
    }
  });
});

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3?.close());
const onS3rver = (overrides: Partial<S3Options> = {}) =>
  new S3Storage({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    pathStyle: true,
    ...overrides,
  });
conformance('S3Storage on s3rver', () => onS3rver());

describe('S3Storage on s3rver', () => {
  it('keeps the objects in the bucket, not on local disk', async () => {
    await onS3rver().put('media/u3/m1/web.webp', Buffer.from('in the bucket'), 'image/webp');
    expect(await s3.keys()).toContain('media/u3/m1/web.webp');
  });

  it('fails loudly on a bucket that does not exist or an unknown access key', async () => {
    await expect(
      onS3rver({ bucket: 'no-such-bucket' }).put('media/x/y.webp', Buffer.from('x'), 'image/webp'),
    ).rejects.toThrow(/answered 404/);
    await expect(
      onS3rver({ accessKey: 'someone-else' }).put('media/x/y.webp', Buffer.from('x'), 'image/webp'),
    ).rejects.toThrow(/answered 403/);
  });
});

/** Records the calls the driver makes; answers every request with 200. */
function fakeS3() {
  const calls: string[] = [];
  const send: S3Fetch = async (url, init) => {
    calls.push(`${init.method} ${url}`);
    return new Response(null, { status: 200 });
  };
  return { send, calls };
}

function s3Options() {
  return {
    bucket: 'fan-media',
    region: 'eu-west-1',
    endpoint: 'http://s3.test:9000/' as string | undefined,
    accessKey: 'a',
    secretKey: 'b',
    pathStyle: true,
  };
}

describe('S3Storage requests', () => {
  const options = s3Options();

  it('names objects path-style on self-hosted servers and virtual-hosted on AWS', async () => {
    const s3 = fakeS3();
    await new S3Storage(options, s3.send).put('media/u1/m1/web.webp', Buffer.from('x'), 'image/webp');
    await new S3Storage({ ...options, endpoint: undefined, pathStyle: false }, s3.send).stat(
      'media/u1/m1/web.webp',
    );
    await new S3Storage({ ...options, endpoint: 'https://r2.example.com', pathStyle: false }, s3.send).stat(
      'media/u1/m1/web.webp',
    );
    expect(s3.calls).toEqual([
      'PUT http://s3.test:9000/fan-media/media/u1/m1/web.webp',
      'HEAD https://fan-media.s3.eu-west-1.amazonaws.com/media/u1/m1/web.webp',
      'HEAD https://fan-media.r2.example.com/media/u1/m1/web.webp',
    ]);
  });

  it('fails loudly when the bucket answers an error', async () => {
    const storage = new S3Storage(options, async () => new Response('denied', { status: 403 }));
    await expect(storage.put('media/x/y.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(/403/);
  });

  it('tells an unreachable or overloaded bucket (retry later) from a refusal', async () => {
    const down = new S3Storage(options, async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9000') });
    });
    await expect(down.stat('media/x/y.webp')).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(down.stat('media/x/y.webp')).rejects.toThrow(/ECONNREFUSED/);
    for (const status of [500, 503, 429]) {
      const busy = new S3Storage(options, async () => new Response(null, { status }));
      await expect(busy.stat('media/x/y.webp')).rejects.toBeInstanceOf(StorageUnavailableError);
    }
    const refused = new S3Storage(options, async () => new Response(null, { status: 403 }));
    await expect(refused.stat('media/x/y.webp')).rejects.not.toBeInstanceOf(StorageUnavailableError);
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

  it('streams a file with its length (S3 refuses chunked uploads) instead of reading it whole', async () => {
    const src = path.join(root, 'stream.bin');
    fs.writeFileSync(src, randomBytes(100_000));
    const seen: Request[] = [];
    vi.stubGlobal('fetch', async (req: Request) => {
      seen.push(req);
      await req.arrayBuffer();
      return new Response(null, { status: 200 });
    });
    try {
      await new S3Storage(options).put('media/u1/m4/original.mp4', src, 'video/mp4');
    } finally {
      vi.unstubAllGlobals();
    }
    expect(seen[0]?.headers.get('content-length')).toBe('100000');
    expect(seen[0]?.headers.get('x-amz-content-sha256')).toBe('UNSIGNED-PAYLOAD');
  });
});
