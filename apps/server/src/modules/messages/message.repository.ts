import { and, asc, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { activeSubscriptionSql, blockedEitherWaySql } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import {
  type MediaRow,
  type MessageRow,
  media,
  messageMedia,
  messages,
  messageUnlocks,
  notifications,
  subscriptions,
  users,
} from '../../db/schema.ts';
import { Batcher } from '../../lib/batcher.ts';
import { type CreatedNotification, createdNotification } from '../notifications/notification.repository.ts';
import type { PublicUserRow } from '../users/public-user.presenter.ts';

export interface NewMessage {
  messageUuid: string;
  fromId: string;
  toId: string;
  message: string;
  price: number;
  massId?: string | null;
}

export interface ContactRow {
  user: PublicUserRow;
  lastMessage: string;
  lastFromId: string;
  date: Date;
  unread: number;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const pairWhere = (a: string, b: string) =>
  or(and(eq(messages.fromId, a), eq(messages.toId, b)), and(eq(messages.fromId, b), eq(messages.toId, a)));

/**
 * How a direct message reaches its receiver, decided before it is stored: read at once (the
 * receiver is looking at the chat: `readAt`), or unread with a notification (`notification`, its
 * payload) written by the same statement.
 */
export interface Delivery {
  readAt: Date | null;
  notification: Record<string, unknown> | null;
}

/** A stored direct message, with what its delivery needs, all read by the statement that stored it. */
export interface StoredMessage {
  row: MessageRow;
  /** The receiver's unread messages, this one included when it is unread. */
  unread: number;
  /** The notification written with it, and what pushing it needs of the receiver. */
  notification?: CreatedNotification;
}

/** A direct message to store, with how it is delivered (`Delivery`). */
export type MessageToStore = NewMessage & { id: string } & Delivery;

/**
 * One statement stores a batch of direct messages (placeholders: one array per column, in the
 * batch's order), each unless either party blocked the other, and with each:
 * - when the receiver is looking at the chat (`readAt`), the message is stored read and what the
 *   sender sent before is marked read too;
 * - otherwise (`payload`), the receiver's `message` notification (the notifications table's row,
 *   written here so that a message is one statement, not two);
 * and answers, per stored message (with its place in the batch, `ord`), the receiver's unread
 * messages and, with a notification, what pushing it needs (notification.repository.ts
 * `createdNotification` reads it). The statement's snapshot holds none of the rows it writes, so
 * those are counted in by hand: for a receiver of several messages of the batch, each answer
 * counts the ones before it. Every message sent runs it, most often for a batch of one.
 */
function insertStatement(db: Db | Tx) {
  const p = (name: string) => sql.placeholder(name);
  const input = db.$with('input', { ord: sql<number>`ord` }).as(sql`
      SELECT * FROM unnest(${p('id')}::uuid[], ${p('messageUuid')}::text[], ${p('fromId')}::uuid[],
        ${p('toId')}::uuid[], ${p('message')}::text[], ${p('price')}::int[], ${p('massId')}::uuid[],
        ${p('readAt')}::timestamptz[], ${p('payload')}::jsonb[])
        WITH ORDINALITY AS v(id, message_uuid, from_id, to_id, message, price, mass_id, read_at, payload, ord)`);
  const created = db.$with('created', { id: sql<string>`id` }).as(sql`
      INSERT INTO ${messages} (id, message_uuid, from_id, to_id, message, price, mass_id, read_at)
      SELECT v.id, v.message_uuid, v.from_id, v.to_id, v.message, v.price, v.mass_id, v.read_at FROM input v
      WHERE NOT ${blockedEitherWaySql(sql`v.from_id`, sql`v.to_id`)}
      ORDER BY v.ord
      ON CONFLICT (from_id, message_uuid) DO NOTHING
      RETURNING *`);
  // What each message read at once marks read: the ids found through the receiver's unread index,
  // pair by pair (a join would let the planner scan the whole table), then updated by id.
  const marked = db.$with('marked', { toId: sql<string>`to_id` }).as(sql`
      UPDATE ${messages} m
      SET read_at = (SELECT v.read_at FROM input v
        WHERE v.to_id = m.to_id AND v.from_id = m.from_id AND v.read_at IS NOT NULL LIMIT 1)
      WHERE m.id = ANY(ARRAY(
        SELECT x.id FROM input v JOIN created c ON c.id = v.id
        CROSS JOIN LATERAL (SELECT m2.id FROM ${messages} m2
          WHERE m2.to_id = v.to_id AND m2.read_at IS NULL AND m2.from_id = v.from_id OFFSET 0) x
        WHERE v.read_at IS NOT NULL))
      RETURNING m.to_id`);
  const notified = db.$with('notified', { id: sql<string>`id` }).as(sql`
      INSERT INTO ${notifications} (user_id, kind, payload)
      SELECT c.to_id, 'message', v.payload FROM created c JOIN input v ON v.id = c.id
      WHERE v.payload IS NOT NULL
      ORDER BY v.ord
      RETURNING id, user_id, created_at, (payload->>'messageId')::uuid AS message_id`);
  // A receiver's messages of this batch, in its order: what each answer adds to the counts.
  const before = sql.raw('OVER (PARTITION BY c.to_id ORDER BY v.ord)');
  const result = db
    .$with('result', {
      id: sql<string>`id`.as('id'),
      messageUuid: sql<string>`message_uuid`.as('message_uuid'),
      fromId: sql<string>`from_id`.as('from_id'),
      toId: sql<string>`to_id`.as('to_id'),
      message: sql<string>`message`.as('message'),
      price: sql<number>`price`.as('price'),
      massId: sql<string | null>`mass_id`.as('mass_id'),
      readAt: sql`read_at`.mapWith(messages.readAt).as('read_at'),
      createdAt: sql`created_at`.mapWith(messages.createdAt).as('created_at'),
      ord: sql<number>`ord`.as('ord'),
      unread: sql<number>`unread`.as('unread'),
      notification: sql<unknown>`notification`.as('notification'),
    })
    .as(sql`
      SELECT w.id, w.message_uuid, w.from_id, w.to_id, w.message, w.price, w.mass_id, w.read_at,
        w.created_at, w.ord,
        (SELECT count(*)::int FROM ${messages} m WHERE m.to_id = w.to_id AND m.read_at IS NULL)
          - (SELECT count(*)::int FROM marked k WHERE k.to_id = w.to_id) + w.unread_before AS unread,
        CASE WHEN w.notification_id IS NOT NULL THEN (SELECT json_build_object('id', w.notification_id,
            'createdAt', w.notified_at, 'language', u.language, 'username', u.username, 'roles', u.roles,
            'verified', u.verified,
            'unread', (SELECT count(*)::int FROM ${notifications} n WHERE n.user_id = w.to_id AND n.read_at IS NULL)
              + w.notified_before)
          FROM (SELECT 1) one LEFT JOIN ${users} u ON u.id = w.to_id AND u.deleted_at IS NULL) END AS notification
      FROM (
        SELECT c.*, v.ord, nd.id AS notification_id, nd.created_at AS notified_at,
          (count(*) FILTER (WHERE c.read_at IS NULL) ${before})::int AS unread_before,
          (count(nd.id) ${before})::int AS notified_before
        FROM created c
        JOIN input v ON v.id = c.id
        LEFT JOIN notified nd ON nd.message_id = c.id
      ) w`);
  return db.with(input, created, marked, notified, result).select().from(result).prepare('message_insert');
}

/** The batch's parameters: one array per column. */
function columnsOf(batch: readonly MessageToStore[]) {
  return {
    id: batch.map((m) => m.id),
    messageUuid: batch.map((m) => m.messageUuid),
    fromId: batch.map((m) => m.fromId),
    toId: batch.map((m) => m.toId),
    message: batch.map((m) => m.message),
    price: batch.map((m) => m.price),
    massId: batch.map((m) => m.massId ?? null),
    readAt: batch.map((m) => m.readAt?.toISOString() ?? null),
    payload: batch.map((m) => (m.notification && !m.readAt ? JSON.stringify(m.notification) : null)),
  };
}

/** The statement's answers in the batch's order (undefined: that message was not stored). */
function storedMessages(
  batch: readonly MessageToStore[],
  rows: (MessageRow & { ord: number; unread: number; notification: unknown })[],
): (StoredMessage | undefined)[] {
  const out: (StoredMessage | undefined)[] = batch.map(() => undefined);
  for (const { ord, unread, notification, ...row } of rows) {
    out[Number(ord) - 1] = { row, unread: Number(unread), notification: createdNotification(notification) };
  }
  return out;
}

/** Direct messages, their files, unlocks and the contacts list. Queries only. */
export class MessageRepository {
  constructor(private readonly db: Db) {}

  async findByUuid(fromId: string, messageUuid: string): Promise<MessageRow | undefined> {
    const [row] = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.fromId, fromId), eq(messages.messageUuid, messageUuid)))
      .limit(1);
    return row;
  }

  /**
   * Stores a message with its files, unless either party blocked the other, delivered as it says
   * (read at once, or with its notification), and answers it with the receiver's unread messages
   * and the notification, read by the same statement (`insertStatement`). Answers undefined when
   * nothing was stored: a blocked pair, or this sender already stored that messageUUID (a retry or
   * a concurrent duplicate; the existing row is left untouched). Messages without files sent while
   * others are being stored go together in one statement (`Batcher`).
   */
  async insert(message: MessageToStore, mediaIds: string[]): Promise<StoredMessage | undefined> {
    if (!mediaIds.length) return this.batches.add(message);
    return this.db.transaction(async (tx) => {
      const [stored] = storedMessages([message], await insertStatement(tx).execute(columnsOf([message])));
      if (stored) {
        await tx
          .insert(messageMedia)
          .values(mediaIds.map((mediaId, position) => ({ messageId: stored.row.id, mediaId, position })));
      }
      return stored;
    });
  }

  /**
   * Text messages being sent, stored a batch per statement (prepared once per connection), one
   * batch at a time: on one server copy no two of these statements run at once, so each answer's
   * counts hold every message stored before it. (Two copies storing messages for the same receiver
   * in the same instant can each miss the other's: a count is then one short until the next one.)
   */
  private readonly batches = new Batcher<MessageToStore, StoredMessage | undefined>({
    run: async (batch) => {
      this.insertBatch ??= insertStatement(this.db);
      return storedMessages(batch, await this.insertBatch.execute(columnsOf(batch)));
    },
    maxBatch: 100,
    maxInFlight: 1,
  });
  private insertBatch?: ReturnType<typeof insertStatement>;

  /** One copy per receiver, all sharing the same files; duplicates (same UUIDs) are skipped. */
  async insertMany(inputs: NewMessage[], mediaIds: string[]): Promise<MessageRow[]> {
    if (!inputs.length) return [];
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .insert(messages)
        .values(inputs)
        .onConflictDoNothing({ target: [messages.fromId, messages.messageUuid] })
        .returning();
      if (rows.length && mediaIds.length) {
        await tx
          .insert(messageMedia)
          .values(
            rows.flatMap((r) =>
              mediaIds.map((mediaId, position) => ({ messageId: r.id, mediaId, position })),
            ),
          );
      }
      return rows;
    });
  }

  /** Messages that hold the given file. */
  async withMedia(mediaId: string): Promise<MessageRow[]> {
    const rows = await this.db
      .select({ m: messages })
      .from(messageMedia)
      .innerJoin(messages, eq(messages.id, messageMedia.messageId))
      .where(eq(messageMedia.mediaId, mediaId));
    return rows.map((r) => r.m);
  }

  /** Messages that hold the given file and that the user sent or received. */
  async withMediaFor(userId: string, mediaId: string): Promise<MessageRow[]> {
    const rows = await this.db
      .select({ m: messages })
      .from(messageMedia)
      .innerJoin(messages, eq(messages.id, messageMedia.messageId))
      .where(
        and(eq(messageMedia.mediaId, mediaId), or(eq(messages.fromId, userId), eq(messages.toId, userId))),
      );
    return rows.map((r) => r.m);
  }

  async mediaOf(messageIds: string[]): Promise<Map<string, MediaRow[]>> {
    const out = new Map<string, MediaRow[]>();
    if (!messageIds.length) return out;
    const rows = await this.db
      .select({ messageId: messageMedia.messageId, media })
      .from(messageMedia)
      .innerJoin(media, eq(media.id, messageMedia.mediaId))
      .where(inArray(messageMedia.messageId, messageIds))
      .orderBy(asc(messageMedia.position));
    for (const r of rows) {
      const list = out.get(r.messageId) ?? [];
      list.push(r.media);
      out.set(r.messageId, list);
    }
    return out;
  }

  /** Which of these messages the user unlocked. */
  async unlockedBy(userId: string, messageIds: string[]): Promise<Set<string>> {
    if (!messageIds.length) return new Set();
    const rows = await this.db
      .select({ id: messageUnlocks.messageId })
      .from(messageUnlocks)
      .where(and(eq(messageUnlocks.userId, userId), inArray(messageUnlocks.messageId, messageIds)));
    return new Set(rows.map((r) => r.id));
  }

  async addUnlock(userId: string, messageId: string): Promise<void> {
    await this.db.insert(messageUnlocks).values({ userId, messageId }).onConflictDoNothing();
  }

  async findById(id: string): Promise<MessageRow | undefined> {
    const [row] = await this.db.select().from(messages).where(eq(messages.id, id)).limit(1);
    return row;
  }

  /** A page of the conversation, newest first (page 1 = the newest). */
  async page(
    a: string,
    b: string,
    page: number,
    limit: number,
  ): Promise<{ rows: MessageRow[]; total: number }> {
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(messages)
        .where(pairWhere(a, b))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(messages).where(pairWhere(a, b)),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }

  /**
   * Marks what `from` sent to `reader` read; answers how many changed and the reader's unread
   * messages left, read in the same statement.
   */
  async markRead(reader: string, from: string, at: Date): Promise<{ changed: number; unread: number }> {
    const marked = this.db.$with('marked').as(
      this.db
        .update(messages)
        .set({ readAt: at })
        .where(and(eq(messages.toId, reader), eq(messages.fromId, from), isNull(messages.readAt)))
        .returning({ id: messages.id }),
    );
    const [row] = await this.db
      .with(marked)
      .select({
        changed: sql<number>`(SELECT count(*)::int FROM marked)`,
        // The statement's snapshot still holds the rows it marks as unread: they are taken off.
        unread: sql<number>`(SELECT count(*)::int FROM ${messages} m WHERE m.to_id = ${reader} AND m.read_at IS NULL)
          - (SELECT count(*)::int FROM marked)`,
      })
      .from(sql`(SELECT 1) AS one`);
    return { changed: Number(row?.changed ?? 0), unread: Number(row?.unread ?? 0) };
  }

  async unreadTotal(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.toId, userId), isNull(messages.readAt)));
    return row?.n ?? 0;
  }

  /** One row per person the user talked with, newest conversation first; `q` matches handle or name. */
  async contacts(userId: string, q: string, page: number, limit: number) {
    const word = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const result = await this.db.execute(sql`
      WITH mine AS (
        SELECT CASE WHEN m.from_id = ${userId} THEN m.to_id ELSE m.from_id END AS other_id,
               m.id, m.message, m.from_id, m.created_at
        FROM messages m WHERE m.from_id = ${userId} OR m.to_id = ${userId}
      ), last AS (
        SELECT DISTINCT ON (other_id) other_id, message, from_id, created_at
        FROM mine ORDER BY other_id, created_at DESC, id DESC
      ), unread AS (
        SELECT from_id AS other_id, count(*)::int AS n FROM messages
        WHERE to_id = ${userId} AND read_at IS NULL GROUP BY from_id
      )
      SELECT u.id, u.username, u.name, p.display_name AS "displayName", p.avatar, u.online,
             u.last_connection AS "lastConnection", u.verified, last.message AS "lastMessage",
             last.from_id AS "lastFromId", last.created_at AS "date", coalesce(unread.n, 0)::int AS unread,
             count(*) OVER ()::int AS total
      FROM last
      JOIN users u ON u.id = last.other_id
      LEFT JOIN profiles p ON p.user_id = u.id
      LEFT JOIN unread ON unread.other_id = last.other_id
      WHERE u.deleted_at IS NULL
        AND (${q} = '' OR lower(u.username) LIKE ${word}
             OR lower(coalesce(p.display_name, u.name)) LIKE ${word})
      ORDER BY last.created_at DESC, u.id
      LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
    const raw = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    const rows: ContactRow[] = raw.map((r) => ({
      user: {
        id: String(r.id),
        username: String(r.username),
        name: String(r.name),
        displayName: (r.displayName as string | null) ?? null,
        avatar: (r.avatar as string | null) ?? null,
        online: r.online === true,
        lastConnection: r.lastConnection ? new Date(r.lastConnection as string) : null,
        verified: r.verified === true,
      },
      lastMessage: String(r.lastMessage ?? ''),
      lastFromId: String(r.lastFromId),
      date: new Date(r.date as string),
      unread: Number(r.unread ?? 0),
    }));
    return { rows, total: raw.length ? Number(raw[0]!.total) : 0 };
  }

  /** Fans with an active subscription to the creator, without blocks either way. */
  async activeSubscribers(creatorId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: subscriptions.fanId })
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.creatorId, creatorId),
          activeSubscriptionSql(),
          sql`NOT ${blockedEitherWaySql(creatorId, subscriptions.fanId)}`,
        ),
      );
    return rows.map((r) => r.id);
  }
}
