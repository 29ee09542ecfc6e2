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

/**
 * Finds active subscriptions that renew within 7 days and have had no notice for this period, and
 * queues one notice each; hourly.
 */
export const RENEWAL_NOTICES = defineJob('billing.renewal-notices', z.object({}), {
  cron: '17 * * * *',
  retryDelay: 60,
  unique: true,
});
/** Mails one renewal notice (date, amount, one-click cancel link) in the fan's language. */
export const RENEWAL_NOTICE = defineJob(
  'billing.renewal-notice',
  z.object({ subscription: z.string().uuid(), periodEnd: z.string() }),
  { retryDelay: 60, retryLimit: 5, unique: true },
);
/** Mails the receipt of one charge (a sale in the ledger, by its idempotency key). */
export const BILLING_RECEIPT = defineJob('billing.receipt', z.object({ key: z.string().min(1).max(200) }), {
  retryDelay: 60,
  retryLimit: 5,
  unique: true,
});

/** Sends the creator's welcome message to a new subscriber (once per purchase). */
export const WELCOME_MESSAGE = defineJob(
  'offers.welcome',
  z.object({
    fanId: z.string().uuid(),
    creatorId: z.string().uuid(),
    purchaseId: z.string().min(1).max(200),
  }),
  { retryDelay: 30, retryLimit: 5, unique: true },
);

export interface MoneyJobHandlers {
  expire(): Promise<number>;
  payouts(): Promise<number>;
  renewalNotices(): Promise<number>;
  renewalNotice(subscriptionId: string, periodEnd: Date): Promise<void>;
  receipt(key: string): Promise<void>;
  welcome(job: { fanId: string; creatorId: string; purchaseId: string }): Promise<void>;
}

/** The money module's scheduled jobs on the backbone (once per cluster). */
export function registerMoneyJobs(jobs: JobRegistry, handlers: MoneyJobHandlers): void {
  jobs.register(EXPIRE_SUBSCRIPTIONS, async () => {
    await handlers.expire();
  });
  jobs.register(BUILD_PAYOUTS, async () => {
    await handlers.payouts();
  });
  jobs.register(RENEWAL_NOTICES, async () => {
    await handlers.renewalNotices();
  });
  jobs.register(RENEWAL_NOTICE, (d) => handlers.renewalNotice(d.subscription, new Date(d.periodEnd)));
  jobs.register(BILLING_RECEIPT, (d) => handlers.receipt(d.key));
  jobs.register(WELCOME_MESSAGE, (d) => handlers.welcome(d));
}
