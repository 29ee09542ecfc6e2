import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Media } from '@fanverse/contract';
import { AppError } from '../http/app-error.ts';
import type { UploadedFile } from '../http/multipart.ts';
import type { JobSender } from '../jobs/job.ts';
import { detectUpload, fileTooLarge, maxBytesFor, SNIFF_BYTES } from './detect.ts';
import type { FfmpegPaths } from './ffmpeg.ts';
import { MEDIA_PROCESS } from './media.jobs.ts';
import { presentMedia } from './media.presenter.ts';
import { type MediaRepository, type MediaRow, storageKeys } from './media.repository.ts';
import { decodesAsImage, processImage, processVideo, type Rendition } from './processors.ts';
import type { UrlSigner, Variant } from './signing.ts';
import type { ByteRange, Storage } from './storage.ts';

export const MEDIA_PURPOSES = ['post', 'story', 'message', 'avatar', 'cover', 'gallery'] as const;
export type MediaPurpose = (typeof MEDIA_PURPOSES)[number];
const IMAGE_ONLY: readonly MediaPurpose[] = ['avatar', 'cover'];

/** percent grows from 0 to 100; message is a short key: 'processing' | 'ready' | 'failed'. */
export type ProgressFn = (percent: number, message: string) => void;

export interface MediaServiceDeps {
  media: MediaRepository;
  storage: Storage;
  /** The job backbone: processing runs as `media.process` jobs. */
  jobs: JobSender;
  signer: UrlSigner;
  limits: { maxImageBytes: number; maxVideoBytes: number };
  /** Resolved on first use, so a server without video uploads never needs the binaries. */
  ffmpeg: () => FfmpegPaths;
  logger?: { error(obj: unknown, msg?: string): void };
}

/** A stored variant ready to stream; the storage key stays inside the server. */
export interface MediaFile {
  size: number;
  contentType: string;
  open(range?: ByteRange): Promise<Readable>;
}

/** Uploads, their processing jobs, signed presentation and removal. */
export class MediaService {
  constructor(private readonly deps: MediaServiceDeps) {}

  /**
   * Validates an upload by content and size and stores the original as `processing`. The caller
   * queues the processing (`startProcessing`) once the post or message that holds it is stored, so
   * the worker can tell who follows the file.
   */
  async ingest(input: { ownerId: string; purpose: MediaPurpose; file: UploadedFile }): Promise<MediaRow> {
    const { file } = input;
    const type = detectUpload(await readHead(file.path), file.filename);
    if (IMAGE_ONLY.includes(input.purpose) && type.kind !== 'image') {
      throw new AppError('FILE_NOT_SUPPORTED', { name: file.filename });
    }
    const { size } = await fs.promises.stat(file.path);
    const max = maxBytesFor(type.kind, this.deps.limits);
    if (size > max) throw fileTooLarge(file.filename, max);
    if (type.kind === 'image' && !(await decodesAsImage(file.path))) {
      throw new AppError('FILE_NOT_SUPPORTED', { name: file.filename });
    }

    const id = randomUUID();
    const originalKey = `${keyPrefix(input.ownerId, id)}/original.${type.ext}`;
    await this.deps.storage.put(originalKey, file.path, type.mime);
    let row: MediaRow;
    try {
      row = await this.deps.media.create({
        id,
        ownerId: input.ownerId,
        kind: type.kind,
        purpose: input.purpose,
        status: 'processing',
        name: file.filename.slice(0, 255),
        mime: type.mime,
        size,
        originalKey,
      });
    } catch (err) {
      await this.deps.storage.delete(originalKey).catch(() => undefined);
      throw err;
    }
    return row;
  }

  /** Queues one `media.process` job per file (one job per file even if sent twice). */
  async startProcessing(mediaIds: readonly string[]): Promise<void> {
    for (const mediaId of mediaIds)
      await this.deps.jobs.send(MEDIA_PROCESS, { mediaId }, { singletonKey: mediaId });
  }

  /** Processes one file in the caller's request (a small image the caller waits for, e.g. an avatar). */
  async processNow(mediaId: string): Promise<MediaRow | undefined> {
    await this.process(mediaId);
    return this.deps.media.get(mediaId);
  }

  /** The job handler: renditions, size and info, then `ready`; any failure marks the row `failed`. */
  async process(mediaId: string, onProgress?: ProgressFn): Promise<void> {
    const row = await this.deps.media.get(mediaId);
    if (row?.status !== 'processing') return;
    let last = 0;
    const progress = (percent: number, message: string) => {
      if (percent <= last && percent !== 100) return;
      last = percent;
      onProgress?.(percent, message);
    };
    progress(5, 'processing');
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fanverse-media-'));
    let status: 'ready' | 'failed' = 'failed';
    try {
      const local = path.join(dir, path.basename(row.originalKey));
      await this.deps.storage.download(row.originalKey, local);
      progress(20, 'processing');
      const prefix = keyPrefix(row.ownerId, row.id);
      const put = async (name: string, r: Rendition) => {
        const key = `${prefix}/${name}.${r.ext}`;
        await this.deps.storage.put(key, r.data, r.contentType);
        return key;
      };
      if (row.kind === 'image') {
        const out = await processImage(local, { animated: row.mime === 'image/gif' });
        progress(70, 'processing');
        const [webKey, thumbKey, blurKey] = await Promise.all([
          put('web', out.web),
          put('thumb', out.thumb),
          put('blur', out.blur),
        ]);
        await this.deps.media.update(row.id, {
          status: 'ready',
          webKey,
          thumbKey,
          blurKey,
          width: out.width,
          height: out.height,
          error: null,
        });
      } else {
        const out = await processVideo(this.deps.ffmpeg(), local, dir, (p) => progress(p, 'processing'));
        progress(70, 'processing');
        const webKey = out.clean ? `${prefix}/web${path.extname(row.originalKey)}` : null;
        const [posterKey, thumbKey, blurKey] = await Promise.all([
          put('poster', out.poster),
          put('thumb', out.thumb),
          put('blur', out.blur),
          out.clean && webKey ? this.deps.storage.put(webKey, out.clean, row.mime) : undefined,
        ]);
        await this.deps.media.update(row.id, {
          status: 'ready',
          webKey,
          posterKey,
          thumbKey,
          blurKey,
          width: out.width,
          height: out.height,
          info: out.info,
          error: null,
        });
      }
      status = 'ready';
    } catch (err) {
      this.deps.logger?.error({ err, mediaId }, 'media processing failed');
      const message = err instanceof Error ? err.message : String(err);
      await this.deps.media
        .update(row.id, { status: 'failed', error: message.slice(0, 500) })
        .catch((e) => this.deps.logger?.error({ err: e, mediaId }, 'could not mark media failed'));
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
    progress(100, status);
  }

  /** The contract shape; without access only the blurred preview is addressable. */
  present(row: MediaRow, access: boolean): Media {
    return presentMedia(row, access, this.deps.signer);
  }

  async get(mediaId: string): Promise<MediaRow | undefined> {
    return this.deps.media.get(mediaId);
  }

  async getMany(mediaIds: string[]): Promise<MediaRow[]> {
    return this.deps.media.getMany(mediaIds);
  }

  /** A variant to serve, or null when the media or that variant doesn't exist. */
  async file(mediaId: string, variant: Variant): Promise<MediaFile | null> {
    const row = await this.deps.media.get(mediaId);
    if (!row) return null;
    const key = variantKey(row, variant);
    if (!key) return null;
    const stat = await this.deps.storage.stat(key);
    if (!stat) return null;
    return { ...stat, open: (range) => this.deps.storage.stream(key, range) };
  }

  /** Deletes the files and the row. */
  async remove(mediaId: string): Promise<void> {
    const row = await this.deps.media.get(mediaId);
    if (!row) return;
    await Promise.all(storageKeys(row).map((k) => this.deps.storage.delete(k)));
    await this.deps.media.delete(mediaId);
  }

  /**
   * Deletes stored files whose rows are already gone (account deletion). Every key is tried; a
   * failure is counted, never thrown, so one missing or stuck object does not keep the rest.
   */
  async removeFiles(keys: readonly string[]): Promise<{ deleted: number; failed: number }> {
    const results = await Promise.allSettled([...new Set(keys)].map((k) => this.deps.storage.delete(k)));
    const failed = results.filter((r) => r.status === 'rejected').length;
    return { deleted: results.length - failed, failed };
  }
}

/**
 * The storage key of a variant. Originals keep the uploader's metadata (EXIF, GPS): an image
 * original is never served, a video original only when no metadata-free copy could be made.
 */
export function variantKey(row: MediaRow, variant: Variant): string | null {
  switch (variant) {
    case 'original':
      return row.kind === 'video' && row.webKey === null ? row.originalKey : null;
    case 'web':
      return row.webKey;
    case 'thumb':
      return row.thumbKey;
    case 'blur':
      return row.blurKey;
    case 'poster':
      return row.posterKey;
  }
}

function keyPrefix(ownerId: string, mediaId: string): string {
  return `media/${ownerId}/${mediaId}`;
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
