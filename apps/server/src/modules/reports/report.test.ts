import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

async function openComplaints(targetId: string): Promise<number> {
  const rows = await t.database.session((exec) =>
    exec(`SELECT count(*)::int AS n FROM complaints WHERE target_id = '${targetId}' AND status = 'pending'`),
  );
  return Number(rows[0]?.n);
}

describe('reports', () => {
  it('keeps one open complaint per reporter and post: a repeat answers the open one', async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const [fan, other] = [await createUser(t), await createUser(t)];
    const post = await createPost(t, creator);
    const report = { type: 'post', id: post, reason: 'fraud' } as const;
    const first = await t.call('report.create', report, { token: fan.token });
    expect(first.status).toBe(200);
    const repeats = await Promise.all(
      Array.from({ length: 20 }, () => t.call('report.create', report, { token: fan.token })),
    );
    expect(repeats.every((r) => r.status === 200 && r.body.id === first.body.id)).toBe(true);
    expect(await openComplaints(post)).toBe(1);
    const fromOther = await t.call('report.create', report, { token: other.token });
    expect(fromOther.body.id).not.toBe(first.body.id);
    expect(await openComplaints(post)).toBe(2);
  });

  it('files a new complaint once the open one is decided', async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const fan = await createUser(t);
    const admin = await createUser(t, { roles: ['user', 'admin'] });
    const post = await createPost(t, creator);
    const report = { type: 'post', id: post, reason: 'fraud' } as const;
    const first = await t.call('report.create', report, { token: fan.token });
    const act = await t.call(
      'admin.complaintAct',
      { action: 'none', response: 'Looked at it' },
      { token: admin.token, params: { id: first.body.id } },
    );
    expect(act.status).toBe(200);
    const again = await t.call('report.create', report, { token: fan.token });
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe(first.body.id);
  });
});
