import { z } from 'zod';
import { defineJob, type JobRegistry } from '../jobs/job.ts';

/** Expires subscriptions whose paid period ended without a renewal; every 10 minutes. */
export const EXPIRE_SUBSCRIPTIONS = defineJob('money.expire-subscriptions', z.object({}), {
  cron: '*/10 * * * *',
  retryDelay: 30,
  unique: true,
});
/**
 * Builds this period's payout batch of available earnings; hourly. A batch is keyed by its weekly
 * or 15-day period, so hourly runs create one payout per creator and period.
 */
export const BUILD_PAYOUTS = defineJob('money.build-payouts', z.object({}), {
  cron: '7 * * * *',
  retryDelay: 30,
  unique: true,
});

export interface MoneyJobHandlers {
  expire(): Promise<number>;
  payouts(): Promise<number>;
}

/** The money module's scheduled jobs on the backbone (once per cluster). */
export function registerMoneyJobs(jobs: JobRegistry, handlers: MoneyJobHandlers): void {
  jobs.register(EXPIRE_SUBSCRIPTIONS, async () => {
    await handlers.expire();
  });
  jobs.register(BUILD_PAYOUTS, async () => {
    await handlers.payouts();
  });
}
