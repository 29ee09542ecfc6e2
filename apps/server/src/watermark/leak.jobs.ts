import { z } from 'zod';
import { defineJob, type JobRegistry } from '../jobs/job.ts';
import type { LeakService } from './leak.service.ts';

/**
 * Reads one uploaded leaked copy (ADR 0026, 0041): queued with its `pending` trace in one
 * transaction; a re-run finds the trace finished and only removes the stored copy again.
 */
export const LEAK_TRACE = defineJob('leaks.trace', z.object({ traceId: z.string().uuid() }), {
  retryLimit: 2,
  retryDelay: 5,
  // A 5-minute copy decodes and registers in well under a minute; past this the worker is dead.
  expireInSeconds: 10 * 60,
  unique: true,
});

export function registerLeakJobs(jobs: JobRegistry, leaks: LeakService): void {
  jobs.register(LEAK_TRACE, ({ traceId }) => leaks.run(traceId));
}
