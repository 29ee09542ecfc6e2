/**
 * Who a handle names (users/handles.ts, ADR 0047): a direct message asks the database for its
 * receiver once, then answers from memory; a rename, a suspension or a deletion — however it is
 * written — is seen by the very next message, on this copy and on another.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp, twoCopies } from '../../../test/harness.ts';
import { captureStatements } from '../../db/client.ts';

/** The receiver lookup of a send (UserRepository.personByHandle). */
const isLookup = (sql: string) => sql.includes('lower("users"."username") =') && !sql.includes('"profiles"');
const sql = (t: TestApp, text: string) => t.database.session((exec) => exec(text));

/** Sends `to` a message from `from`: its status, error code and receiver lookups. */
async function send(t: TestApp, from: { token: string }, to: string) {
  const { result, statements } = await captureStatements(() =>
    t.call('message.send', { to, message: 'hello', messageUUID: randomUUID() }, { token: from.token }),
  );
  return {
    status: result.status,
    code: result.body.code as string | undefined,
    lookups: statements.filter((s) => isLookup(s.sql)).length,
  };
}

describe('handles of direct messages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('looks the receiver up once, then from memory, whatever the case or @ of the handle', async () => {
    const [from, to] = [await createUser(t), await createUser(t)];
    expect(await send(t, from, to.username)).toMatchObject({ status: 200, lookups: 1 });
    expect(await send(t, from, `@${to.username.toUpperCase()}`)).toMatchObject({ status: 200, lookups: 0 });
  });

  it('sees a rename, a suspension and a deletion written by plain SQL at once', async () => {
    const cases = [
      (id: string) => `UPDATE users SET username = 'gone${id.slice(0, 8)}' WHERE id = '${id}'`,
      (id: string) => `UPDATE users SET suspended_at = now() WHERE id = '${id}'`,
      (id: string) => `UPDATE users SET deleted_at = now() WHERE id = '${id}'`,
    ];
    for (const change of cases) {
      const [from, to] = [await createUser(t), await createUser(t)];
      expect(await send(t, from, to.username)).toMatchObject({ status: 200 });
      await sql(t, change(to.id));
      expect(await send(t, from, to.username), change('…')).toMatchObject({ status: 404, lookups: 1 });
    }
  });

  it('finds a handle taken after it was asked for in vain', async () => {
    const from = await createUser(t);
    const handle = `later${randomUUID().slice(0, 8)}`;
    expect(await send(t, from, handle)).toMatchObject({ status: 404 });
    const to = await createUser(t, { username: handle });
    expect((await send(t, from, handle)).status).toBe(200);
    expect(to.username).toBe(handle);
  });

  it('gives a renamed handle to its new owner', async () => {
    const [from, first, second] = [await createUser(t), await createUser(t), await createUser(t)];
    const handle = first.username;
    expect(await send(t, from, handle)).toMatchObject({ status: 200 });
    await sql(t, `UPDATE users SET username = 'old${first.id.slice(0, 8)}' WHERE id = '${first.id}'`);
    await sql(t, `UPDATE users SET username = '${handle}' WHERE id = '${second.id}'`);
    expect(await send(t, from, handle)).toMatchObject({ status: 200, lookups: 1 });
    const inbox = await t.call('message.contacts', {}, { token: second.token });
    expect(JSON.stringify(inbox.body)).toContain(from.username);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('handles across server copies (PostgreSQL)', () => {
  const copies = twoCopies();

  it('a suspension written through one copy is seen by the other at once', async () => {
    const { one, two } = copies;
    const [from, to] = [await createUser(one), await createUser(one)];
    expect(await send(two, from, to.username)).toMatchObject({ status: 200 });
    expect(await send(two, from, to.username)).toMatchObject({ status: 200, lookups: 0 });
    await sql(one, `UPDATE users SET suspended_at = now() WHERE id = '${to.id}'`);
    // The announcement reaches copy two on its own listening connections.
    let outcome = await send(two, from, to.username);
    for (let i = 0; i < 50 && outcome.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      outcome = await send(two, from, to.username);
    }
    expect(outcome).toMatchObject({ status: 404 });
  });
});
