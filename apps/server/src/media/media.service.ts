import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { CaptionLanguage, Media } from '@fanverse/contract';
import { canAttachVaultFile, EVERYONE, isVaultFile, mustMark, type Viewer } from '../access/index.ts';
import { AppError } from '../http/app-error.ts';
import type { UploadedFile } from '../http/multipart.ts';
import type { JobSender } from '../jobs/job.ts';
import type { Watermarker } from '../watermark/watermarker.ts';
import { type CaptionsTrack, captionsFileName, captionsOf, validateCaptions } from './captions.ts';
import { detectUpload, fileTooLarge, maxBytesFor, SNIFF_BYTES } from './detect.ts';
import { MEDIA_PROCESS } from './media.jobs.ts';
import { presentMedia } from './media.presenter.ts';
import { type MediaRepository, type MediaRow, storageKeys } from './media.repository.ts';
import { decodesAsImage, processImage, type Rendition } from './processors.ts';
import type { UrlSigner, Variant } from './signing.ts';
import type { ByteRange, Storage } from './storage.ts';
import { inFolder, isMarkedVideo, videoManifest } from './video.ts';
import type { VideoEncoder } from './video-encoder.ts';

export const MEDIA_PURPOSES = ['post', 'story', 'message', 'avatar', 'cover', 'gallery'] as const;
export type MediaPurpose = (typeof MEDIA_PURPOSES)[number];
const IMAGE_ONLY: readonly MediaPurpose[] = ['avatar', 'cover'];

/** An ingested upload; `reused` when the owner had stored the same bytes before (ADR 0032). */
export type IngestedMedia = MediaRow & { reused: boolean };

/** percent grows from 0 to 100; message is a short key: 'processing' | 'ready' | 'failed'. */
export type ProgressFn = (percent: number, message: string) => void;

export interface MediaServiceDeps {
  media: MediaRepository;
  storage: Storage;
  /** The job backbone: processing runs as `media.process` jobs. */
  jobs: JobSender;
  signer: UrlSigner;
  limits: { maxImageBytes: number; maxVideoBytes: number };
  /** Encodes videos into (marked) encrypted HLS and stores their files. */
  encoder: VideoEncoder;
  /** Per-fan marked copies of private pictures (ADR 0026). */
  watermarker: Watermarker;
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
  async ingest(input: {
    ownerId: string;
    purpose: MediaPurpose;
    file: UploadedFile;
    previewSeconds?: number;
  }): Promise<IngestedMedia> {
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

    // A vault file the owner already stored (and that did not fail) is reused, never stored twice.
    const contentHash = isVaultFile(input) ? await sha256Of(file.path) : null;
    if (contentHash) {
      const stored = await this.deps.media.byHash(input.ownerId, contentHash);
      if (stored) return { ...stored, reused: true };
    }
    const id = randomUUID();
    const originalKey = `${keyPrefix(input.ownerId, id)}/original.${type.ext}`;
    await this.deps.storage.put(originalKey, file.path, type.mime);
    let row: MediaRow | undefined;
    try {
      row = await this.deps.media.createUnlessStored({
        id,
        ownerId: input.ownerId,
        kind: type.kind,
        purpose: input.purpose,
        status: 'processing',
        name: file.filename.slice(0, 255),
        mime: type.mime,
        size,
        originalKey,
        contentHash,
        previewSeconds: type.kind === 'video' ? (input.previewSeconds ?? 0) : 0,
      });
    } catch (err) {
      await this.deps.storage.delete(originalKey).catch(() => undefined);
      throw err;
    }
    if (row) return { ...row, reused: false };
    // The same bytes were stored by a concurrent upload between the look-up and the insert.
    await this.deps.storage.delete(originalKey).catch(() => undefined);
    const stored = contentHash ? await this.deps.media.byHash(input.ownerId, contentHash) : undefined;
    if (!stored) throw new Error('media insert conflicted without a stored row');
    return { ...stored, reused: true };
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
        const out = await this.deps.encoder.transcode(row, local, dir, {
          onStep: (p) => progress(p, 'processing'),
        });
        // Every file is stored before the row says `ready`: a crash here leaves it `processing`,
        // and the job's retry (or the restarted server's) encodes it again from the original.
        await this.deps.encoder.store(prefix, out);
        const webKey = out.mp4 ? `${prefix}/web.mp4` : null;
        if (out.mp4 && webKey) await this.deps.storage.put(webKey, out.mp4, 'video/mp4');
        progress(95, 'processing');
        const [posterKey, thumbKey, blurKey] = await Promise.all([
          put('poster', out.poster),
          put('thumb', out.thumb),
          put('blur', out.blur),
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
        // The hash is released: uploading the same file again tries again instead of reusing this.
        .update(row.id, { status: 'failed', error: message.slice(0, 500), contentHash: null })
        .catch((e) => this.deps.logger?.error({ err: e, mediaId }, 'could not mark media failed'));
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
    progress(100, status);
  }

  /**
   * The contract shape; without access only the blurred preview is addressable. Pictures that must
   * be marked are signed for `viewerId` (and absent without one); no URL is valid past `until`.
   */
  present(row: MediaRow, access: boolean, viewerId: string | null, until: Date | null = null): Media {
    return presentMedia(row, access, this.deps.signer, viewerId, until);
  }

  async attachable(viewer: Viewer, mediaIds: readonly string[]): Promise<MediaRow[]> {
    const ids = [...new Set(mediaIds)];
    const rows = new Map((await this.deps.media.getMany(ids)).map((r) => [r.id, r]));
    return ids.map((id) => {
      const row = rows.get(id);
      if (!row || !canAttachVaultFile(viewer, row)) throw new AppError('NOT_FOUND');
      return row;
    });
  }

  async get(mediaId: string): Promise<MediaRow | undefined> {
    return this.deps.media.get(mediaId);
  }

  async getMany(mediaIds: string[]): Promise<MediaRow[]> {
    return this.deps.media.getMany(mediaIds);
  }

  /**
   * A variant to serve, or null when the media or that variant doesn't exist. Renditions that must
   * be marked (access/media.ts) come only as `fanId`'s marked copy: never without a fan.
   */
  async file(mediaId: string, variant: Variant, fanId: string | null = null): Promise<MediaFile | null> {
    const row = await this.deps.media.get(mediaId);
    if (!row) return null;
    const key = variantKey(row, variant);
    if (!key) return null;
    // A marked video's unmarked MP4 and original go only to whom they were signed for: its owner,
    // a surface without the HLS player (stories, messages: ADR 0041), visitors of a video free to
    // everyone (ADR 0038). Never without a viewer.
    if (isMarkedVideo(row) && (variant === 'web' || variant === 'original') && !fanId)
      throw new AppError('VIDEO_STREAM_ONLY');
    // Pictures of content free to everyone, signed for visitors, are served unmarked (ADR 0038).
    if (mustMark(row, variant) && fanId !== EVERYONE) {
      if (!fanId || row.status !== 'ready') return null;
      const storage = this.deps.storage;
      const data = await this.deps.watermarker.marked(
        { mediaId: row.id, ownerId: row.ownerId, variant, read: () => readAll(storage, key) },
        fanId,
      );
      return {
        size: data.length,
        contentType: 'image/webp',
        open: async (range) => Readable.from([range ? data.subarray(range.start, range.end + 1) : data]),
      };
    }
    const stat = await this.deps.storage.stat(key);
    if (!stat) return null;
    return { ...stat, open: (range) => this.deps.storage.stream(key, range) };
  }

  /**
   * A generated file of a ready video by its name in the current encoding (`hls/480p/seg_00001.ts`),
   * or null. Names come from the HLS routes' strict patterns, never straight from a client.
   */
  async videoFile(mediaId: string, name: string): Promise<(MediaFile & { row: MediaRow }) | null> {
    const row = await this.deps.media.get(mediaId);
    const manifest = row?.kind === 'video' && row.status === 'ready' ? videoManifest(row.info) : null;
    if (!row || !manifest) return null;
    const key = `${mediaPrefix(row)}/${inFolder(manifest, name)}`;
    const stat = await this.deps.storage.stat(key);
    if (!stat) return null;
    return { ...stat, row, open: (range) => this.deps.storage.stream(key, range) };
  }

  /**
   * Adds or replaces one language's captions track of the owner's video (ADR 0037): validated by
   * the WebVTT parser, stored as `captions/<language>.vtt` beside the original. Only the owner:
   * anyone else (and any non-video) gets NOT_FOUND. Returns the video's tracks after the change.
   */
  async setCaptions(
    ownerId: string,
    mediaId: string,
    track: { language: CaptionLanguage; name: string; text: string },
  ): Promise<CaptionsTrack[]> {
    const row = await this.ownVideo(ownerId, mediaId);
    const bytes = validateCaptions(track.name, track.text);
    await this.deps.storage.put(
      `${mediaPrefix(row)}/${captionsFileName(track.language)}`,
      bytes,
      'text/vtt; charset=utf-8',
    );
    const captions = [
      ...captionsOf(row.captions).filter((t) => t.language !== track.language),
      { language: track.language, name: track.name.slice(0, 255), size: bytes.length },
    ];
    await this.deps.media.update(row.id, { captions });
    return captions;
  }

  /** Removes one language's captions track of the owner's video (NOT_FOUND for anyone else). */
  async removeCaptions(
    ownerId: string,
    mediaId: string,
    language: CaptionLanguage,
  ): Promise<CaptionsTrack[]> {
    const row = await this.ownVideo(ownerId, mediaId);
    const captions = captionsOf(row.captions).filter((t) => t.language !== language);
    await this.deps.media.update(row.id, { captions });
    await this.deps.storage.delete(`${mediaPrefix(row)}/${captionsFileName(language)}`);
    return captions;
  }

  /** A video's stored captions track, or null. Callers check entitlement (HLS delivery). */
  async captionsFile(mediaId: string, language: CaptionLanguage): Promise<MediaFile | null> {
    const row = await this.deps.media.get(mediaId);
    if (row?.kind !== 'video' || !captionsOf(row.captions).some((t) => t.language === language)) return null;
    const key = `${mediaPrefix(row)}/${captionsFileName(language)}`;
    const stat = await this.deps.storage.stat(key);
    if (!stat) return null;
    return {
      ...stat,
      contentType: 'text/vtt; charset=utf-8',
      open: (range) => this.deps.storage.stream(key, range),
    };
  }

  private async ownVideo(ownerId: string, mediaId: string): Promise<MediaRow> {
    const row = await this.deps.media.get(mediaId);
    if (row?.kind !== 'video' || row.ownerId !== ownerId || row.status === 'failed')
      throw new AppError('NOT_FOUND');
    return row;
  }

  /** Deletes the files and the row. */
  async remove(mediaId: string): Promise<void> {
    const row = await this.deps.media.get(mediaId);
    if (!row) return;
    await this.removeStored(row);
    await this.deps.media.delete(mediaId);
  }

  /** Deletes the stored files and marked copies of a row (the caller deletes the row). */
  async removeStored(row: MediaRow): Promise<void> {
    await Promise.all(storageKeys(row).map((k) => this.deps.storage.delete(k)));
    await this.deps.watermarker.forget(row.id);
  }

  /**
   * Deletes stored files whose rows are already gone (account deletion), and the marked copies of
   * those media. Every key is tried; a failure is counted, never thrown, so one missing or stuck
   * object does not keep the rest. A missing file counts as deleted.
   */
  async removeFiles(
    keys: readonly string[],
    mediaIds: readonly string[] = [],
  ): Promise<{ deleted: number; failed: number }> {
    const results = await Promise.allSettled([
      ...[...new Set(keys)].map((k) => this.deps.storage.delete(k)),
      ...[...new Set(mediaIds)].map((id) => this.deps.watermarker.forget(id)),
    ]);
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
      // Only videos from before the HLS pipeline that have no metadata-free copy either.
      return row.kind === 'video' && row.webKey === null && !videoManifest(row.info) ? row.originalKey : null;
    case 'sprite': {
      const manifest = videoManifest(row.info);
      return manifest?.sprite ? `${mediaPrefix(row)}/${inFolder(manifest, 'sprite.jpg')}` : null;
    }
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

/** Where a row's generated files live. */
export function mediaPrefix(row: Pick<MediaRow, 'ownerId' | 'id'>): string {
  return keyPrefix(row.ownerId, row.id);
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
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

async function readAll(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.stream(key)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
