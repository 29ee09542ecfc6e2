import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { BUILD_PAYOUTS, EXPIRE_SUBSCRIPTIONS } from './money.jobs.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.stop();
});

describe('money jobs on the backbone', () => {
  it('runs the expiry and payout jobs from their queues', async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'] });
    const fan = await createUser(t);
    await subscribe(t, fan.id, creator.id, -1);
    await t.jobs.send(EXPIRE_SUBSCRIPTIONS, {});
    await t.jobs.send(BUILD_PAYOUTS, {});
    await t.jobs.drain();
    const [row] = await t.database.session((exec) =>
      exec(`SELECT status FROM subscriptions WHERE fan_id = '${fan.id}'`),
    );
    expect(row?.status).toBe('expired');
  }, 60_000);
});
