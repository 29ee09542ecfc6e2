import PgBoss from 'pg-boss';
import type { Database } from '../db/client.ts';
import { pgBossDb } from '../jobs/pg-boss-db.ts';

export const MEDIA_QUEUE = 'media-process';

/** What the media service needs from the job system. */
export interface MediaJobs {
  enqueue(mediaId: string): Promise<void>;
}

interface Logger {
  error(obj: unknown, msg?: string): void;
}

/**
 * pg-boss on the app's own database. On PGlite (one in-process connection) pg-boss runs through a
 * `db.executeSql` adapter on the same client; on PostgreSQL it shares the app's pool.
 */
export class PgBossMediaJobs implements MediaJobs {
  private readonly boss: PgBoss;
  private started: Promise<void> | undefined;
  private workerId: string | undefined;
  private stopped = false;

  constructor(database: Database, logger?: Logger) {
    this.boss = new PgBoss({ db: pgBossDb(database), schedule: false, supervise: true });
    this.boss.on('error', (err) => logger?.error({ err }, 'media jobs error'));
  }

  private ensureStarted(): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      await this.boss.createQueue(MEDIA_QUEUE, {
        name: MEDIA_QUEUE,
        retryLimit: 2,
        retryDelay: 5,
        expireInSeconds: 30 * 60,
      });
    })();
    return this.started;
  }

  async enqueue(mediaId: string): Promise<void> {
    await this.ensureStarted();
    await this.boss.send(MEDIA_QUEUE, { mediaId }, { singletonKey: mediaId });
    // A worker in this process picks the job at once instead of at its next poll.
    if (this.workerId) this.boss.notifyWorker(this.workerId);
  }

  /** Starts the worker of this process; `handler` must not throw for a bad file (it marks the row). */
  async start(handler: (mediaId: string) => Promise<void>): Promise<void> {
    await this.ensureStarted();
    if (this.workerId || this.stopped) return;
    this.workerId = await this.boss.work<{ mediaId: string }>(
      MEDIA_QUEUE,
      { pollingIntervalSeconds: 2, batchSize: 1 },
      async ([job]) => {
        if (job) await handler(job.data.mediaId);
      },
    );
  }

  /** Stops polling and waits (bounded) for a running job to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (!this.started) return;
    await this.started.catch(() => undefined);
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
  }
}
