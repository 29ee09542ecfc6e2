/**
 * Direct messages sent at once are stored a batch per statement (MessageRepository.insert with
 * lib/batcher.ts): each must still be stored, refused or deduplicated on its own, and each answer
 * must count exactly the receiver's unread messages and notifications up to it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { captureStatements } from '../../db/client.ts';
import { MessageRepository, type MessageToStore } from './message.repository.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

const message = (fromId: string, toId: string, extra: Partial<MessageToStore> = {}): MessageToStore => {
  const id = randomUUID();
  return {
    id,
    messageUuid: randomUUID(),
    fromId,
    toId,
    message: 'hello',
    price: 0,
    readAt: null,
    notification: { link: '/?messages=x', actor: 'x', text: 'hello', messageId: id },
    ...extra,
  };
};

describe('direct messages stored in batches', () => {
  it('stores twelve sent at once in fewer statements, each answer counting the receiver’s unread up to it', async () => {
    const receiver = await createUser(t);
    const senders = await Promise.all(Array.from({ length: 12 }, () => createUser(t)));
    const repo = new MessageRepository(t.database.db);
    const { result: stored, statements } = await captureStatements(() =>
      Promise.all(senders.map((s) => repo.insert(message(s.id, receiver.id), []))),
    );
    expect(stored.every((s) => s !== undefined)).toBe(true);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.length).toBeLessThan(12);
    // Whatever the batches, the answers are 1…12 unread messages and notifications, once each.
    expect(stored.map((s) => s?.unread).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(stored.map((s) => s?.notification?.unread).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(stored[0]?.notification?.receiver?.username).toBe(receiver.username);
    const [row] = await t.database.session((exec) =>
      exec(
        `SELECT count(*)::int AS n FROM notifications WHERE user_id = '${receiver.id}' AND kind = 'message'`,
      ),
    );
    expect(row?.n).toBe(12);
  });

  it('refuses a blocked pair and stores a repeated messageUUID once, without failing the rest of the batch', async () => {
    const [receiver, blocked, a, b] = await Promise.all([
      createUser(t),
      createUser(t),
      createUser(t),
      createUser(t),
    ]);
    await t.database.session((exec) =>
      exec(`INSERT INTO user_blocks (blocker_id, blocked_id) VALUES ('${receiver.id}', '${blocked.id}')`),
    );
    const repo = new MessageRepository(t.database.db);
    const twice = message(a.id, receiver.id);
    const batch = [
      message(a.id, receiver.id),
      message(blocked.id, receiver.id),
      twice,
      { ...twice, id: randomUUID() },
      message(b.id, receiver.id, { readAt: new Date(), notification: null }),
    ];
    const stored = await Promise.all([
      repo.insert(message(a.id, b.id), []),
      ...batch.map((m) => repo.insert(m, [])),
    ]);
    const [, first, refused, once, again, read] = stored;
    expect(first?.row.id).toBe(batch[0]?.id);
    expect(refused).toBeUndefined();
    expect(once?.row.id).toBe(twice.id);
    expect(again).toBeUndefined();
    expect(read?.row.readAt).not.toBeNull();
    expect(read?.notification).toBeUndefined();
    const rows = await t.database.session((exec) =>
      exec(`SELECT from_id, read_at IS NOT NULL AS read FROM messages WHERE to_id = '${receiver.id}'`),
    );
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.from_id === blocked.id)).toHaveLength(0);
  });

  it('a batch that fails is stored item by item: only the message to a missing account fails', async () => {
    const [receiver, sender] = await Promise.all([createUser(t), createUser(t)]);
    const repo = new MessageRepository(t.database.db);
    const gone = randomUUID();
    const results = await Promise.allSettled([
      repo.insert(message(sender.id, receiver.id), []),
      repo.insert(message(sender.id, receiver.id), []),
      repo.insert(message(sender.id, gone), []),
      repo.insert(message(sender.id, receiver.id), []),
      repo.insert(message(sender.id, receiver.id), []),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const [row] = await t.database.session((exec) =>
      exec(`SELECT count(*)::int AS n FROM messages WHERE to_id = '${receiver.id}'`),
    );
    expect(row?.n).toBe(4);
  });
});
