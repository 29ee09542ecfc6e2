import { z } from 'zod';
import { defineJob, type JobRegistry } from '../jobs/job.ts';
import type { MarkBackfill } from './mark-backfill.ts';
import type { MediaRow } from './media.repository.ts';
import type { MediaService } from './media.service.ts';

/** Renditions of one upload; a retry after a crash starts that file again (its row is still `processing`). */
export const MEDIA_PROCESS = defineJob('media.process', z.object({ mediaId: z.string().uuid() }), {
  retryLimit: 2,
  retryDelay: 5,
  expireInSeconds: 30 * 60,
  unique: true,
});

/**
 * Re-encodes one private video from before the mark with it (the mark backfill, ADR 0041). Keyed
 * by the media id: a video is queued once however many copies scan. Each copy's worker runs one at
 * a time, its ffmpeg at the lowest CPU priority, so uploads (`media.process`) go first. A crashed
 * run is retried; the backfill is idempotent.
 */
export const MEDIA_REMARK = defineJob('media.remark', z.object({ mediaId: z.string().uuid() }), {
  retryLimit: 2,
  retryDelay: 300,
  expireInSeconds: 3 * 60 * 60,
  unique: true,
});

/** Queues the next few videos the mark backfill re-encodes; every 10 minutes, once per cluster. */
export const MEDIA_REMARK_SCAN = defineJob('media.remark-scan', z.object({}), {
  cron: '*/10 * * * *',
  retryDelay: 60,
  unique: true,
});

/** What a module that shows a file's progress does while the worker processes it. */
export interface MediaFollower {
  /** Called with percents that only grow (0–100); must not throw. */
  progress(percent: number, message: string): void;
  /** Called once the file is `ready` or `failed` (also when a retry finds it already finished). */
  done(row: MediaRow): Promise<void>;
}

/**
 * Modules interested in a file (the post or message it belongs to) return a follower for it, or
 * nothing. Followers run in the worker that processes the file, whichever copy of the server that
 * is; they publish through the realtime publisher, which reaches the user's sockets on every copy.
 */
export type MediaWatcher = (row: MediaRow) => Promise<MediaFollower | undefined>;

export function registerMediaJobs(
  jobs: JobRegistry,
  service: MediaService,
  watchers: readonly MediaWatcher[],
  backfill: MarkBackfill,
) {
  jobs.register(MEDIA_PROCESS, async ({ mediaId }) => {
    const row = await service.get(mediaId);
    if (!row) return;
    const followers = (await Promise.all(watchers.map((w) => w(row)))).filter((f) => f !== undefined);
    await service.process(mediaId, (percent, message) => {
      for (const f of followers) f.progress(percent, message);
    });
    const done = await service.get(mediaId);
    if (done) for (const f of followers) await f.done(done);
  });
  jobs.register(MEDIA_REMARK, ({ mediaId }) => backfill.remark(mediaId));
  jobs.register(MEDIA_REMARK_SCAN, async () => {
    await backfill.queueNext();
  });
}
