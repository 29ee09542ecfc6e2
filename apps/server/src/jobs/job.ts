import type { z } from 'zod';

/** How pg-boss runs one kind of job; every field has a default in the queue. */
export interface JobOptions {
  /** Attempts after the first failure (default 2). */
  retryLimit?: number;
  /** Seconds before a retry (default 5). */
  retryDelay?: number;
  /** Each retry waits about twice as long as the one before (from `retryDelay`, with jitter). */
  retryBackoff?: boolean;
  /**
   * Seconds a job may stay active before pg-boss counts it as abandoned (a crashed worker) and
   * retries it (default 15 minutes). Handlers are idempotent, so a retry redoes only what is missing.
   */
  expireInSeconds?: number;
  /** Cron expression (UTC): the job runs on this schedule, once per cluster. */
  cron?: string;
  /**
   * At most one job per `singletonKey` waiting and one running (pg-boss "stately" policy); sending
   * again while one waits adds nothing. Jobs sent without a key share the empty key.
   */
  unique?: boolean;
}

/** A job kind: its queue name, the schema of its payload and how it runs. */
export interface JobSpec<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly schema: S;
  readonly options: JobOptions;
}

export type JobPayload<J extends JobSpec> = z.output<J['schema']>;

/** Declares a job kind. Names are `module.action`, e.g. `media.process`. */
export function defineJob<S extends z.ZodType>(
  name: string,
  schema: S,
  options: JobOptions = {},
): JobSpec<S> {
  if (!/^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/.test(name)) throw new Error(`Bad job name: ${name}`);
  return { name, schema, options };
}

export interface SendOptions {
  /** For `unique` jobs: while a job with this key waits, sending another adds nothing. */
  singletonKey?: string;
  /** Not before this time. */
  startAfter?: Date;
  /**
   * Queue the job inside this database transaction (a repository's, `jobTransaction(tx)`): it exists
   * only if the transaction commits, together with the rows it works on.
   */
  within?: JobTransaction;
}

/** Runs pg-boss's statements on an open transaction's connection (pg-boss's `db` shape). */
export interface JobTransaction {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** What services use to queue work; the queue validates the payload against the job's schema. */
export interface JobSender {
  send<S extends z.ZodType>(job: JobSpec<S>, data: z.input<S>, options?: SendOptions): Promise<void>;
}

export type JobHandler<S extends z.ZodType> = (data: z.output<S>) => Promise<void>;

/** Where modules register the handlers of their jobs (each in its own `*.jobs.ts`). */
export interface JobRegistry extends JobSender {
  register<S extends z.ZodType>(job: JobSpec<S>, handler: JobHandler<S>): void;
}
