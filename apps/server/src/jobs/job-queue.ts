import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Database } from '../db/client.ts';
import type { JobHandler, JobRegistry, JobSpec, SendOptions } from './job.ts';
import { pgBossDb, type TrackedDb } from './pg-boss-db.ts';

export interface JobQueueOptions {
  /** Run workers in this process (every copy does by default; pg-boss hands each job to one). */
  work: boolean;
  /** Run the cron clock in this process; pg-boss sends each scheduled job once per cluster. */
  cron: boolean;
  /** Caps every job's expiry: an abandoned job (its worker was killed) is retried after this many seconds. */
  expireCapSeconds?: number;
  logger?: { error(obj: unknown, msg?: string): void };
}

interface Entry {
  job: JobSpec;
  handler: JobHandler<z.ZodType>;
}

const DEFAULTS = { retryLimit: 2, retryDelay: 5, expireInSeconds: 15 * 60 };

/**
 * The app's one job backbone: a single pg-boss instance over the app's own database with a typed
 * registry (job name → payload schema → handler). Modules register their jobs in their own
 * `*.jobs.ts`; services queue work through `send` (the `JobSender` port) and never hold a promise
 * of their own. Every copy of the server runs workers; cron jobs are sent once per cluster.
 */
export class JobQueue implements JobRegistry {
  private readonly boss: PgBoss;
  private readonly sql: TrackedDb;
  private readonly entries = new Map<string, Entry>();
  private readonly workers = new Map<string, string>();
  private started: Promise<void> | undefined;
  private stopped = false;
  /** Handlers running in this process's workers. */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly database: Database,
    private readonly options: JobQueueOptions,
  ) {
    const cap = options.expireCapSeconds;
    this.sql = pgBossDb(database);
    this.boss = new PgBoss({
      db: this.sql,
      schedule: options.cron,
      supervise: true,
      ...(cap ? { maintenanceIntervalSeconds: Math.max(1, Math.min(120, cap)) } : {}),
    });
    this.boss.on('error', (err) => options.logger?.error({ err }, 'job queue error'));
  }

  register<S extends z.ZodType>(job: JobSpec<S>, handler: JobHandler<S>): void {
    if (this.started) throw new Error(`Job ${job.name} registered after the queue started`);
    if (this.entries.has(job.name)) throw new Error(`Job ${job.name} registered twice`);
    this.entries.set(job.name, { job, handler: handler as JobHandler<z.ZodType> });
  }

  /** Creates the queues, recovers jobs a killed process left active, schedules crons, starts workers. */
  start(): Promise<void> {
    this.started ??= this.boot();
    return this.started;
  }

  private async boot(): Promise<void> {
    await this.boss.start();
    if (this.database.kind === 'pglite') {
      // PGlite is one process's own database: a job still active at start-up lost its worker.
      await this.sql.executeSql(
        `UPDATE pgboss.job SET state = 'retry', start_after = now() WHERE state = 'active'`,
        [],
      );
    }
    for (const { job } of this.entries.values()) {
      const o = { ...DEFAULTS, ...job.options };
      const expire = this.options.expireCapSeconds
        ? Math.min(o.expireInSeconds, this.options.expireCapSeconds)
        : o.expireInSeconds;
      await this.boss.createQueue(job.name, {
        name: job.name,
        policy: job.options.unique ? 'stately' : 'standard',
        retryLimit: o.retryLimit,
        retryDelay: o.retryDelay,
        ...(o.retryBackoff ? { retryBackoff: true } : {}),
        expireInSeconds: expire,
      });
      if (job.options.cron && this.options.cron) await this.boss.schedule(job.name, job.options.cron, {});
    }
    if (this.options.cron) {
      // A schedule whose job is gone or no longer cron (renamed queues of older versions) stops.
      for (const s of await this.boss.getSchedules())
        if (!this.entries.get(s.name)?.job.options.cron) await this.boss.unschedule(s.name);
    }
    if (!this.options.work || this.stopped) return;
    for (const entry of this.entries.values()) {
      const id = await this.boss.work<unknown>(
        entry.job.name,
        { pollingIntervalSeconds: 2, batchSize: 1 },
        async ([job]) => {
          if (!job) return;
          const run = this.run(entry, job.data);
          this.running.add(run);
          try {
            await run;
          } finally {
            this.running.delete(run);
          }
        },
      );
      this.workers.set(entry.job.name, id);
    }
  }

  async send<S extends z.ZodType>(
    job: JobSpec<S>,
    data: z.input<S>,
    options: SendOptions = {},
  ): Promise<void> {
    const entry = this.entries.get(job.name);
    if (!entry) throw new Error(`Job ${job.name} is not registered`);
    const payload = job.schema.parse(data) as object;
    await this.start();
    await this.boss.send(job.name, payload, {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      ...(options.within ? { db: options.within as PgBoss.Db } : {}),
    });
    // A worker of this process takes the job at once instead of at its next poll (one sent inside a
    // transaction is seen once it commits: at once on PGlite, whose fetch waits for the transaction,
    // at the next poll otherwise).
    const worker = this.workers.get(job.name);
    if (worker && !options.startAfter) this.boss.notifyWorker(worker);
  }

  /**
   * Runs every job that is due until none is due or running (jobs in this process's workers are
   * waited for). Start-up seeding and tests use it to wait for background work deterministically.
   */
  async drain(): Promise<void> {
    await this.start();
    const names = [...this.entries.keys()];
    for (;;) {
      let ran = 0;
      for (const name of names) {
        const jobs = await this.boss.fetch<unknown>(name, { batchSize: 20 });
        for (const job of jobs) {
          ran += 1;
          try {
            await this.run(this.entries.get(name)!, job.data);
            await this.boss.complete(name, job.id);
          } catch (err) {
            await this.boss.fail(name, job.id, { message: err instanceof Error ? err.message : String(err) });
          }
        }
      }
      if (ran) continue;
      const { rows } = await this.sql.executeSql(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = ANY($1::text[])
           AND (state = 'active' OR (state IN ('created', 'retry') AND start_after <= now()))`,
        [names],
      );
      if (!Number((rows[0] as { n: number } | undefined)?.n)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async run(entry: Entry, data: unknown): Promise<void> {
    await entry.handler(entry.job.schema.parse(data ?? {}));
  }

  /** Stops the workers and waits (bounded) for running jobs; the database stays open. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (!this.started) return;
    await this.started.catch(() => undefined);
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
    // pg-boss's stop waits for neither a fetch in flight (its job then runs) nor the statements
    // that record finished jobs; the database must stay usable until both are over.
    for (;;) {
      await Promise.allSettled([...this.running]);
      await this.sql.settled();
      await new Promise((resolve) => setImmediate(resolve));
      if (!this.running.size && !this.sql.busy()) return;
    }
  }
}
