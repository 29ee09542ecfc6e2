import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { EXPIRE_QUEUE, MoneyJobs, PAYOUT_QUEUE } from './money.jobs.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.stop();
});

describe('money jobs on pg-boss', () => {
  it('runs the expiry and payout jobs from their queues', async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'] });
    const fan = await createUser(t);
    await subscribe(t, fan.id, creator.id, -1);
    let expireDone: () => void = () => {};
    let payoutsDone: () => void = () => {};
    const expired = new Promise<void>((resolve) => {
      expireDone = resolve;
    });
    const paid = new Promise<void>((resolve) => {
      payoutsDone = resolve;
    });
    const jobs = new MoneyJobs(t.database, {
      expire: async () => {
        const n = await t.services.subscriptions.expireDue();
        expireDone();
        return n;
      },
      payouts: async () => {
        const n = await t.services.earnings.runPayouts();
        payoutsDone();
        return n;
      },
    });
    await jobs.start();
    try {
      await jobs.trigger(EXPIRE_QUEUE);
      await jobs.trigger(PAYOUT_QUEUE);
      await Promise.all([expired, paid]);
    } finally {
      await jobs.stop();
    }
    const [row] = await t.database.session((exec) =>
      exec(`SELECT status FROM subscriptions WHERE fan_id = '${fan.id}'`),
    );
    expect(row?.status).toBe('expired');
  }, 60_000);
});
