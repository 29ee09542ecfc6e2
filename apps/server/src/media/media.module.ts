import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { type FfmpegPaths, resolveFfmpeg } from './ffmpeg.ts';
import { PgBossMediaJobs } from './media.jobs.ts';
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
  /** Defaults to the configured driver (S3 when MEDIA_S3_BUCKET is set, else local disk). */
  storage?: Storage;
  now?: () => Date;
  logger?: { error(obj: unknown, msg?: string): void };
}

export interface MediaModule {
  service: MediaService;
  signer: UrlSigner;
  storage: Storage;
  /** Starts this process's processing worker (pg-boss on the app database). */
  start(): Promise<void>;
  /** Stops the worker; waits a bounded time for a running job. */
  stop(): Promise<void>;
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
  const jobs = new PgBossMediaJobs(database, options.logger);
  let ffmpeg: FfmpegPaths | undefined;
  const service = new MediaService({
    media: new MediaRepository(database.db),
    storage,
    jobs,
    signer,
    limits: { maxImageBytes: config.media.maxImageBytes, maxVideoBytes: config.media.maxVideoBytes },
    ffmpeg: () => {
      ffmpeg ??= resolveFfmpeg(config.media);
      return ffmpeg;
    },
    logger: options.logger,
  });
  return {
    service,
    signer,
    storage,
    start: () => jobs.start((id) => service.process(id)),
    stop: () => jobs.stop(),
    registerRoutes: (app) => {
      registerMediaRoutes(app, service, signer);
      registerPublicMediaRoutes(app, service);
    },
  };
}
