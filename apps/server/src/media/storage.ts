import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AwsClient } from 'aws4fetch';
import type { Config } from '../config.ts';

export interface StoredObject {
  size: number;
  contentType: string;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/** Where media files live. Keys are server-side names only: they never reach a client. */
export interface Storage {
  put(key: string, source: string | Buffer, contentType: string): Promise<void>;
  /** Null when the key does not exist. */
  stat(key: string): Promise<StoredObject | null>;
  /** A stream of the object (or of a byte range of it). */
  stream(key: string, range?: ByteRange): Promise<Readable>;
  /** Reads the whole object into a temporary local file path given by the caller. */
  download(key: string, to: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mpg: 'video/mpeg',
  mp4: 'video/mp4',
  avi: 'video/x-msvideo',
  mov: 'video/quicktime',
  wmv: 'video/x-ms-wmv',
  flv: 'video/x-flv',
  '3gp': 'video/3gpp',
  '3g2': 'video/3gpp2',
  mkv: 'video/x-matroska',
  webm: 'video/webm',
  ogv: 'video/ogg',
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  vtt: 'text/vtt',
};

/** Content type of a key by its extension (keys are named by the server from the detected type). */
export function contentTypeOfKey(key: string): string {
  return CONTENT_TYPES[path.extname(key).slice(1).toLowerCase()] ?? 'application/octet-stream';
}

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9._-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)*$/;

/** Refuses keys that could leave the storage root (.., absolute paths, odd characters). */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').some((s) => s === '..' || s === '.')) {
    throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  }
}

/**
 * The storage service did not answer, or answered that it cannot serve right now (5xx, 429): the
 * request may succeed later. Answered as 503 STORAGE_UNAVAILABLE with Retry-After.
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}

/** How often a local put makes its folder again when a racing delete removed it. */
const PUT_ATTEMPTS = 5;

/** ENOENT for the destination's folder, not for a source file that does not exist. */
function isFolderGone(err: unknown, source: string | Buffer): boolean {
  const e = err as NodeJS.ErrnoException;
  return e?.code === 'ENOENT' && !(typeof source === 'string' && e.path === source);
}

/** Files on local disk under one root (MEDIA_DIR). */
export class LocalStorage implements Storage {
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private file(key: string): string {
    assertSafeKey(key);
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error('storage key escapes the root');
    return file;
  }

  /** The content type follows from the key's extension (keys are named from the detected type). */
  async put(key: string, source: string | Buffer, _contentType?: string): Promise<void> {
    const file = this.file(key);
    const tmp = `${file}.${process.pid}.${Date.now()}.part`;
    // A delete drops the folder it empties (as S3 has no folders to keep): one racing this put can
    // remove the folder between its creation and the write. The folder is then made again.
    for (let attempt = 1; ; attempt++) {
      try {
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        if (typeof source === 'string') await fs.promises.copyFile(source, tmp);
        else await fs.promises.writeFile(tmp, source);
        break;
      } catch (err) {
        if (attempt >= PUT_ATTEMPTS || !isFolderGone(err, source)) throw err;
      }
    }
    await fs.promises.rename(tmp, file);
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const s = await fs.promises.stat(this.file(key));
      return s.isFile() ? { size: s.size, contentType: contentTypeOfKey(key) } : null;
    } catch {
      return null;
    }
  }

  async stream(key: string, range?: ByteRange): Promise<Readable> {
    return fs.createReadStream(this.file(key), range ? { start: range.start, end: range.end } : {});
  }

  async download(key: string, to: string): Promise<void> {
    await fs.promises.copyFile(this.file(key), to);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await fs.promises.rm(file, { force: true });
    // Drop the media folder once it is empty; a non-empty one stays.
    await fs.promises.rmdir(path.dirname(file)).catch(() => undefined);
  }
}

/** The few S3 calls the driver needs; `fetch`-shaped so tests can pass a fake. */
export type S3Fetch = (
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Buffer | ReadableStream<Uint8Array> },
) => Promise<Response>;

export interface S3Options {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  accessKey: string | undefined;
  secretKey: string | undefined;
  /**
   * `https://endpoint/bucket/key` (MinIO, s3rver, most self-hosted servers) instead of
   * `https://bucket.endpoint/key` (AWS's virtual-hosted style).
   */
  pathStyle: boolean;
}

/** An S3-compatible bucket (AWS, MinIO, R2 …), signed with SigV4. */
export class S3Storage implements Storage {
  private readonly base: string;

  constructor(
    options: S3Options,
    private readonly send: S3Fetch = signedFetch(options),
  ) {
    const endpoint = new URL(options.endpoint ?? `https://s3.${options.region}.amazonaws.com`);
    const prefix = endpoint.pathname.replace(/\/+$/, '');
    const bucket = encodeURIComponent(options.bucket);
    this.base = options.pathStyle
      ? `${endpoint.origin}${prefix}/${bucket}`
      : `${endpoint.protocol}//${bucket}.${endpoint.host}${prefix}`;
  }

  private url(key: string): string {
    assertSafeKey(key);
    return `${this.base}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  private async call(key: string, init: Parameters<S3Fetch>[1], ok: number[] = [200]): Promise<Response> {
    let res: Response;
    try {
      res = await this.send(this.url(key), init);
    } catch (err) {
      const reason = (err as Error).cause ?? err;
      throw new StorageUnavailableError(`S3 ${init.method} ${key} failed: ${String(reason)}`, { cause: err });
    }
    if (!ok.includes(res.status)) {
      await res.body?.cancel().catch(() => undefined);
      const message = `S3 ${init.method} ${key} answered ${res.status}`;
      throw res.status >= 500 || res.status === 429
        ? new StorageUnavailableError(message)
        : new Error(message);
    }
    return res;
  }

  /** A file is streamed from disk (videos reach a gigabyte), with its length, never read whole. */
  async put(key: string, source: string | Buffer, contentType: string): Promise<void> {
    const length = typeof source === 'string' ? (await fs.promises.stat(source)).size : source.length;
    const body =
      typeof source === 'string'
        ? (Readable.toWeb(fs.createReadStream(source)) as ReadableStream<Uint8Array>)
        : source;
    const res = await this.call(key, {
      method: 'PUT',
      headers: { 'content-type': contentType, 'content-length': String(length) },
      body,
    });
    await res.body?.cancel().catch(() => undefined);
  }

  async stat(key: string): Promise<StoredObject | null> {
    const res = await this.call(key, { method: 'HEAD' }, [200, 404]);
    if (res.status === 404) return null;
    return {
      size: Number(res.headers.get('content-length') ?? 0),
      contentType: res.headers.get('content-type') ?? contentTypeOfKey(key),
    };
  }

  async stream(key: string, range?: ByteRange): Promise<Readable> {
    const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {};
    const res = await this.call(key, { method: 'GET', headers }, [200, 206]);
    if (!res.body) return Readable.from([]);
    return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  }

  async download(key: string, to: string): Promise<void> {
    await pipeline(await this.stream(key), fs.createWriteStream(to));
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    const res = await this.call(key, { method: 'DELETE' }, [200, 204, 404]);
    await res.body?.cancel().catch(() => undefined);
  }
}

/**
 * SigV4-signed fetch. Streamed bodies (files) are sent once: a stream cannot be replayed, so only
 * buffered requests are retried on a 5xx / 429 (twice, with aws4fetch's backoff).
 */
function signedFetch(options: S3Options): S3Fetch {
  const client = (retries: number) =>
    new AwsClient({
      accessKeyId: options.accessKey ?? '',
      secretAccessKey: options.secretKey ?? '',
      region: options.region,
      service: 's3',
      retries,
    });
  const retrying = client(2);
  const once = client(0);
  return (url, init) =>
    (init.body instanceof ReadableStream ? once : retrying).fetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body as RequestInit['body'],
    });
}

/** The configured driver: S3 when MEDIA_S3_BUCKET is set, otherwise local disk under MEDIA_DIR. */
export function createStorage(config: Pick<Config, 'media' | 'mediaDir'>): Storage {
  return config.media.s3 ? new S3Storage(config.media.s3) : new LocalStorage(config.mediaDir);
}

/**
 * Storage for identity photos: the private bucket (keys under identity/, never given a URL) when
 * S3 is configured, otherwise a folder under DATA_DIR apart from public media.
 */
export function createPrivateStorage(config: Pick<Config, 'media' | 'dataDir'>): Storage {
  return config.media.s3
    ? new S3Storage(config.media.s3)
    : new LocalStorage(path.join(config.dataDir, 'private'));
}
