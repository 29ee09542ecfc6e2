import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { JobRegistry } from '../jobs/job.ts';
import { Watermarker } from '../watermark/watermarker.ts';
import { type FfmpegPaths, resolveFfmpeg } from './ffmpeg.ts';
import { HlsDelivery, HlsKeys, HlsSigner } from './hls/index.ts';
import { MarkBackfillRepository } from './mark-backfill.repository.ts';
import { MarkBackfill } from './mark-backfill.ts';
import { type MediaWatcher, registerMediaJobs } from './media.jobs.ts';
import { MediaRepository } from './media.repository.ts';
import { registerMediaRoutes, registerPublicMediaRoutes } from './media.routes.ts';
import { MediaService } from './media.service.ts';
import { UrlSigner } from './signing.ts';
import { createStorage, type Storage } from './storage.ts';
import { VideoEncoder } from './video-encoder.ts';

export interface MediaModuleOptions {
  database: Database;
  config: Config;
  /** Key of signed media URLs, shared by every server copy (lib/secret.ts). */
  appSecret: string;
  /** The app's job backbone; the module registers `media.process` on it. */
  jobs: JobRegistry;
  /** Defaults to the configured driver (S3 when MEDIA_S3_BUCKET is set, else local disk). */
  storage?: Storage;
  now?: () => Date;
  logger?: { error(obj: unknown, msg?: string): void };
}

export interface MediaModule {
  service: MediaService;
  signer: UrlSigner;
  storage: Storage;
  /** Protected HLS delivery (ADR 0021): uploaded videos add their source in app.ts, live streams theirs. */
  hls: HlsDelivery;
  hlsKeys: HlsKeys;
  watermarker: Watermarker;
  /** Re-encodes private videos from before the mark with it (ADR 0041). */
  markBackfill: MarkBackfill;
  /** Another module follows the files it holds while they are processed (see MediaWatcher). */
  watch(watcher: MediaWatcher): void;
  registerRoutes(app: FastifyInstance): void;
}

/** Wires storage, signer, jobs, service and mark backfill of the media pipeline. */
export function createMediaModule(options: MediaModuleOptions): MediaModule {
  const { config, database } = options;
  const storage = options.storage ?? createStorage(config);
  const signer = new UrlSigner(options.appSecret, {
    ttlSeconds: config.media.urlTtlSeconds,
    cdnUrl: config.mediaCdnUrl,
    now: options.now,
  });
  const hlsKeys = new HlsKeys(options.appSecret);
  const hls = new HlsDelivery(
    new HlsSigner(options.appSecret, { ttlSeconds: config.media.hlsUrlTtlSeconds, now: options.now }),
    hlsKeys,
    config.mediaCdnUrl ?? '',
  );
  let ffmpeg: FfmpegPaths | undefined;
  const watermarker = new Watermarker({
    db: database.db,
    secret: options.appSecret,
    cacheDir: path.join(config.dataDir, 'watermarks'),
    cacheBytes: config.media.watermarkCacheBytes,
    siteName: config.publicUrl ? new URL(config.publicUrl).host : 'fanverse.app',
    logger: options.logger,
  });
  const encoder = new VideoEncoder({
    storage,
    ffmpeg: () => {
      ffmpeg ??= resolveFfmpeg(config.media);
      return ffmpeg;
    },
    hlsKeys,
    preset: config.media.videoPreset,
    videoKey: watermarker.videoKey,
  });
  const mediaRepo = new MediaRepository(database.db);
  const service = new MediaService({
    media: mediaRepo,
    storage,
    jobs: options.jobs,
    signer,
    limits: { maxImageBytes: config.media.maxImageBytes, maxVideoBytes: config.media.maxVideoBytes },
    encoder,
    watermarker,
    logger: options.logger,
  });
  const markBackfill = new MarkBackfill({
    repo: new MarkBackfillRepository(database.db),
    media: mediaRepo,
    storage,
    encoder,
    jobs: options.jobs,
    logger: options.logger,
  });
  const watchers: MediaWatcher[] = [];
  registerMediaJobs(options.jobs, service, watchers, markBackfill);
  return {
    service,
    signer,
    storage,
    hls,
    hlsKeys,
    watermarker,
    markBackfill,
    watch: (watcher) => {
      watchers.push(watcher);
    },
    registerRoutes: (app) => {
      registerMediaRoutes(app, service, signer);
      registerPublicMediaRoutes(app, service);
    },
  };
}
