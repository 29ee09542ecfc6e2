import { z } from 'zod';
import { defineJob, type JobRegistry } from '../../jobs/job.ts';
import { type AccountDeletionService, ERASE_FILES } from './account-deletion.service.ts';

/** Payout methods of deleted accounts go once nothing is owed to them (ADR 0011); hourly, once per cluster. */
export const SWEEP_PAYOUT_METHODS = defineJob('users.sweep-payout-methods', z.object({}), {
  cron: '27 * * * *',
  retryDelay: 60,
  unique: true,
});

export function registerUserJobs(jobs: JobRegistry, accountDeletion: AccountDeletionService): void {
  jobs.register(SWEEP_PAYOUT_METHODS, async () => {
    await accountDeletion.sweepPayoutMethods();
  });
  jobs.register(ERASE_FILES, (files) => accountDeletion.removeFiles(files));
}
