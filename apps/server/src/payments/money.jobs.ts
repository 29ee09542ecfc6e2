import PgBoss from 'pg-boss';
import type { Database } from '../db/client.ts';
import { pgBossDb } from '../jobs/pg-boss-db.ts';

export const EXPIRE_QUEUE = 'money-expire-subscriptions';
export const PAYOUT_QUEUE = 'money-build-payouts';

export interface MoneyJobHandlers {
  /** Expires subscriptions whose paid period ended without a renewal. */
  expire(): Promise<number>;
  /** Builds this period's payout batch of available earnings (idempotent per batch). */
  payouts(): Promise<number>;
}

interface Logger {
  error(obj: unknown, msg?: string): void;
}

/**
 * The money module's scheduled jobs on pg-boss (the app's own database): subscription expiry every
 * 10 minutes and the payout batch every hour (a batch is keyed by its weekly or 15-day period, so
 * hourly runs create one payout per creator and period).
 */
export class MoneyJobs {
  private readonly boss: PgBoss;
  private started = false;
  private readonly workers: string[] = [];

  constructor(
    database: Database,
    private readonly handlers: MoneyJobHandlers,
    logger?: Logger,
  ) {
    this.boss = new PgBoss({ db: pgBossDb(database), schedule: true, supervise: true });
    this.boss.on('error', (err) => logger?.error({ err }, 'money jobs error'));
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const name of [EXPIRE_QUEUE, PAYOUT_QUEUE])
      await this.boss.createQueue(name, { name, retryLimit: 2, retryDelay: 30, expireInSeconds: 15 * 60 });
    await this.boss.schedule(EXPIRE_QUEUE, '*/10 * * * *');
    await this.boss.schedule(PAYOUT_QUEUE, '7 * * * *');
    this.workers.push(
      await this.boss.work(EXPIRE_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
        await this.handlers.expire();
      }),
      await this.boss.work(PAYOUT_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
        await this.handlers.payouts();
      }),
    );
    this.started = true;
  }

  /** Queues a run now (admin tools, tests). */
  async trigger(queue: typeof EXPIRE_QUEUE | typeof PAYOUT_QUEUE): Promise<void> {
    await this.boss.send(queue, {});
    for (const id of this.workers) this.boss.notifyWorker(id);
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
  }
}
