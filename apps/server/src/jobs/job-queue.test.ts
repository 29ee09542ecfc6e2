import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase } from '../../test/harness.ts';
import type { Database } from '../db/client.ts';
import { defineJob } from './job.ts';
import { JobQueue } from './job-queue.ts';
import { jobTransaction } from './pg-boss-db.ts';

const ECHO = defineJob('test.echo', z.object({ n: z.number().int() }));
const FLAKY = defineJob('test.flaky', z.object({ id: z.string() }), { retryLimit: 2, retryDelay: 0 });
const KEYED = defineJob('test.keyed', z.object({ n: z.number() }), { unique: true });
const UNREGISTERED = defineJob('test.nobody', z.object({}));

let database: Database;
let queue: JobQueue;
const seen: number[] = [];
const attempts = new Map<string, number>();

beforeAll(async () => {
  database = await createTestDatabase();
  // No workers: everything below runs through drain(), deterministically.
  queue = new JobQueue(database, { work: false, cron: false });
  queue.register(ECHO, async ({ n }) => {
    seen.push(n);
  });
  queue.register(KEYED, async ({ n }) => {
    seen.push(n);
  });
  queue.register(FLAKY, async ({ id }) => {
    const n = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, n);
    if (n < 3) throw new Error(`attempt ${n} fails`);
  });
  await queue.start();
});
afterAll(async () => {
  await queue?.stop();
  await database?.close();
});

describe('the job backbone', () => {
  it('runs each sent job once through its registered handler', async () => {
    await queue.send(ECHO, { n: 1 });
    await queue.send(ECHO, { n: 2 });
    await queue.drain();
    expect(seen.sort()).toEqual([1, 2]);
    await queue.drain();
    expect(seen).toHaveLength(2);
  });

  it('refuses a payload that does not match the schema, and jobs nobody registered', async () => {
    await expect(queue.send(ECHO, { n: 'x' as unknown as number })).rejects.toThrow();
    await expect(queue.send(UNREGISTERED, {})).rejects.toThrow(/not registered/);
    expect(() => queue.register(ECHO, async () => undefined)).toThrow(/after the queue started/);
  });

  it('retries a failing job up to its retry limit', async () => {
    await queue.send(FLAKY, { id: 'a' });
    await queue.drain();
    expect(attempts.get('a')).toBe(3);
  });

  it('keeps one queued job per singleton key', async () => {
    seen.length = 0;
    await queue.send(KEYED, { n: 7 }, { singletonKey: 'k' });
    await queue.send(KEYED, { n: 8 }, { singletonKey: 'k' });
    await queue.send(KEYED, { n: 9 }, { singletonKey: 'other' });
    await queue.drain();
    expect(seen.sort()).toEqual([7, 9]);
  });

  it('queues a job inside a transaction: it exists only if the transaction commits', async () => {
    seen.length = 0;
    const { db } = database;
    await db.transaction(async (tx) => {
      await queue.send(KEYED, { n: 20 }, { singletonKey: 'tx-commit', within: jobTransaction(tx) });
    });
    await db
      .transaction(async (tx) => {
        await queue.send(KEYED, { n: 21 }, { singletonKey: 'tx-rollback', within: jobTransaction(tx) });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await queue.drain();
    expect(seen).toEqual([20]);
  });

  it('leaves a job for later until its start time', async () => {
    seen.length = 0;
    await queue.send(ECHO, { n: 10 }, { startAfter: new Date(Date.now() + 3_600_000) });
    await queue.drain();
    expect(seen).toEqual([]);
  });
});

describe('stopping', () => {
  it('returns only once the last job is recorded as done, so the database can close right after', async () => {
    // pg-boss records a finished job without awaiting the query; stop() must still wait for it,
    // or closing the pool right after fails that query ("Cannot use a pool after calling end").
    const db = await createTestDatabase();
    const workers = new JobQueue(db, { work: true, cron: false });
    let ran!: () => void;
    const done = new Promise<void>((resolve) => {
      ran = resolve;
    });
    workers.register(ECHO, async () => {
      ran();
    });
    await workers.start();
    await workers.send(ECHO, { n: 1 });
    await done;
    await workers.stop();
    const rows = await db.session((exec) => exec(`SELECT state FROM pgboss.job WHERE name = 'test.echo'`));
    expect(rows.map((r) => r.state)).toEqual(['completed']);
    await db.close();
  });
});
