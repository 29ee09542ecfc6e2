import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { JobRegistry } from '../jobs/job.ts';
import { Watermarker } from '../watermark/watermarker.ts';
import { type FfmpegPaths, resolveFfmpeg } from './ffmpeg.ts';
import { HlsDelivery, HlsKeys, HlsSigner } from './hls/index.ts';
import { type MediaWatcher, registerMediaJobs } from './media.jobs.ts';
import { MediaRepository } from './media.repository.ts';
import { registerMediaRoutes, registerPublicMediaRoutes } from './media.routes.ts';
import { MediaService } from './media.service.ts';
import { UrlSigner } from './signing.ts';
import { createStorage, type Storage } from './storage.ts';

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
  /** Another module follows the files it holds while they are processed (see MediaWatcher). */
  watch(watcher: MediaWatcher): void;
  registerRoutes(app: FastifyInstance): void;
}

/** Wires storage, signer, jobs and service of the media pipeline. */
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
  const service = new MediaService({
    media: new MediaRepository(database.db),
    storage,
    jobs: options.jobs,
    signer,
    limits: { maxImageBytes: config.media.maxImageBytes, maxVideoBytes: config.media.maxVideoBytes },
    ffmpeg: () => {
      ffmpeg ??= resolveFfmpeg(config.media);
      return ffmpeg;
    },
    hlsKeys,
    videoPreset: config.media.videoPreset,
    watermarker,
    logger: options.logger,
  });
  const watchers: MediaWatcher[] = [];
  registerMediaJobs(options.jobs, service, watchers);
  return {
    service,
    signer,
    storage,
    hls,
    hlsKeys,
    watermarker,
    watch: (watcher) => {
      watchers.push(watcher);
    },
    registerRoutes: (app) => {
      registerMediaRoutes(app, service, signer);
      registerPublicMediaRoutes(app, service);
    },
  };
}
