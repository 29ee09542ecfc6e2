import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, or, sql } from 'drizzle-orm';
import { activeSubscriptionSql, blockedEitherWaySql } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import {
  type MediaRow,
  type MessageRow,
  media,
  messageMedia,
  messages,
  messageUnlocks,
  subscriptions,
} from '../../db/schema.ts';
import {
  type CreatedNotification,
  createdNotification,
  notificationColumns,
  notificationInsertSql,
  notificationResult,
} from '../notifications/notification.repository.ts';
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

/**
 * One statement stores a direct message (placeholders: `NewMessage`'s fields, `id`, `readAt`,
 * `payload`) unless either party blocked the other, and with it:
 * - when the receiver is looking at the chat (`readAt`), the message is stored read and what the
 *   sender sent before is marked read too;
 * - otherwise (`payload`), the receiver's `message` notification (notifications.ts
 *   `notificationInsertSql`);
 * and answers the receiver's unread messages and, with a notification, what pushing it needs. The
 * statement's snapshot holds neither the row it inserts nor the rows it marks, so they are counted
 * in and out by hand. One statement, not two or three: every message sent runs it.
 */
function insertStatement(db: Db | Tx) {
  const p = (name: keyof NewMessage | 'id' | 'readAt' | 'payload') => sql.placeholder(name);
  const created = db.$with('created', { ...getTableColumns(messages) }).as(sql`
      INSERT INTO ${messages} (id, message_uuid, from_id, to_id, message, price, mass_id, read_at)
      SELECT ${p('id')}::uuid, ${p('messageUuid')}, ${p('fromId')}::uuid, ${p('toId')}::uuid, ${p('message')},
             ${p('price')}::int, ${p('massId')}::uuid, ${p('readAt')}::timestamptz
      WHERE NOT ${blockedEitherWaySql(sql`${p('fromId')}::uuid`, sql`${p('toId')}::uuid`)}
      ON CONFLICT (from_id, message_uuid) DO NOTHING
      RETURNING *`);
  const marked = db.$with('marked', { id: sql<string>`id` }).as(sql`
      UPDATE ${messages} SET read_at = ${p('readAt')}::timestamptz
      WHERE ${p('readAt')}::timestamptz IS NOT NULL AND EXISTS (SELECT 1 FROM created)
        AND to_id = ${p('toId')}::uuid AND from_id = ${p('fromId')}::uuid AND read_at IS NULL
      RETURNING id`);
  const notified = db
    .$with('notified', notificationColumns)
    .as(notificationInsertSql(sql`created.to_id`, 'message', sql`${p('payload')}::jsonb`, sql`created`));
  const columns = Object.fromEntries(
    Object.keys(getTableColumns(messages)).map((k) => [k, created[k as keyof typeof created]]),
  ) as { [K in keyof MessageRow]: (typeof created)[K] };
  return db
    .with(created, marked, notified)
    .select({
      ...columns,
      unread: sql<number>`(SELECT count(*)::int FROM ${messages} m WHERE m.to_id = created.to_id AND m.read_at IS NULL)
        - (SELECT count(*)::int FROM marked) + (CASE WHEN created.read_at IS NULL THEN 1 ELSE 0 END)`,
      notification: notificationResult(sql`created.to_id`),
    })
    .from(created)
    .prepare('message_insert');
}

function storedMessage(
  rows: (MessageRow & { unread: number; notification: unknown })[],
): StoredMessage | undefined {
  const [stored] = rows;
  if (!stored) return undefined;
  const { unread, notification, ...row } = stored;
  return { row, unread: Number(unread), notification: createdNotification(notification) };
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
   * Stores the message with its files, unless either party blocked the other, delivered as
   * `delivery` says (read at once, or with its notification), and answers it with the receiver's
   * unread messages and the notification, read in the same statement (`insertStatement`). Answers
   * undefined when nothing was stored: a blocked pair, or this sender already stored that
   * messageUUID (a retry or a concurrent duplicate; the existing row is left untouched).
   */
  async insert(
    input: NewMessage & { id: string },
    mediaIds: string[],
    delivery: Delivery,
  ): Promise<StoredMessage | undefined> {
    const values = {
      ...input,
      massId: input.massId ?? null,
      readAt: delivery.readAt?.toISOString() ?? null,
      payload: delivery.notification && !delivery.readAt ? JSON.stringify(delivery.notification) : null,
    };
    // Text alone is one statement: no transaction (BEGIN and COMMIT are two more round trips).
    if (!mediaIds.length) {
      this.insertOne ??= insertStatement(this.db);
      return storedMessage(await this.insertOne.execute(values));
    }
    return this.db.transaction(async (tx) => {
      const stored = storedMessage(await insertStatement(tx).execute(values));
      if (stored) {
        await tx
          .insert(messageMedia)
          .values(mediaIds.map((mediaId, position) => ({ messageId: stored.row.id, mediaId, position })));
      }
      return stored;
    });
  }

  /** Every message sent asks this: prepared once per connection (no parsing or planning). */
  private insertOne?: ReturnType<typeof insertStatement>;

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
