import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

describe('POST /contact', () => {
  it('stores a request for admins', async () => {
    const res = await t.call('contact.send', {
      name: 'Ana',
      email: 'ana@example.com',
      subject: 'Hello',
      message: 'A question about billing',
      kind: 'billing',
    });
    expect(res.status).toBe(200);
    const rows = await t.database.session((exec) =>
      exec(`SELECT kind, status FROM contact_requests WHERE id = '${res.body.id}'`),
    );
    expect(rows[0]).toEqual({ kind: 'billing', status: 'new' });
  });

  it('names the missing fields', async () => {
    const res = await t.call('contact.send', { name: '', email: 'nope' }, { lang: 'es' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields ?? {}).sort()).toEqual(['email', 'message', 'name', 'subject']);
  });
});
