import { z } from 'zod';
import { defineJob, type JobRegistry } from '../../jobs/job.ts';
import type { ApplicationService } from './application.service.ts';

/** Identity photos are removed a set time after each decision (ADR 0011); hourly, once per cluster. */
export const SWEEP_IDENTITY_DOCUMENTS = defineJob('applications.sweep-documents', z.object({}), {
  cron: '17 * * * *',
  retryDelay: 60,
  unique: true,
});

export function registerApplicationJobs(jobs: JobRegistry, applications: ApplicationService): void {
  jobs.register(SWEEP_IDENTITY_DOCUMENTS, async () => {
    await applications.sweepDocuments();
  });
}
