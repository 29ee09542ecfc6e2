import type { Language, Role } from '@fanverse/contract';
import { and, count, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications, users } from '../../db/schema.ts';

export type NotificationRow = typeof notifications.$inferSelect;

/** What pushing a new notification needs, read by the statement that stored it. */
export interface CreatedNotification {
  id: string;
  createdAt: Date;
  /** The receiver's language, to word it. */
  language: Language;
  /** The receiver as their counters need them; undefined once the account is gone. */
  receiver: { username: string; roles: Role[]; verified: boolean } | undefined;
  /** The receiver's unread notifications, this one included. */
  unread: number;
}

const languageOf = (language: unknown): Language => (language === 'es' ? 'es' : 'en');

/**
 * Reads back a notification that another statement stored with the change it tells of (a direct
 * message: MessageRepository's `insertStatement`), given as JSON: id, createdAt, language,
 * username, roles, verified, unread. Undefined when none was stored.
 */
export function createdNotification(value: unknown): CreatedNotification | undefined {
  if (!value) return undefined;
  const v = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
  return {
    id: String(v.id),
    createdAt: new Date(String(v.createdAt)),
    language: languageOf(v.language),
    receiver:
      typeof v.username === 'string' && Array.isArray(v.roles)
        ? { username: v.username, roles: v.roles as Role[], verified: v.verified === true }
        : undefined,
    unread: Number(v.unread),
  };
}

/**
 * Stores a notification (placeholders: userId, kind, payload as JSON text, onceKey) and answers it
 * with its receiver's language, identity (null fields once the account is gone) and unread
 * notifications: the statement's snapshot does not hold the row it inserts, so that one is added.
 */
function createStatement(db: Db) {
  const created = db.$with('created').as(
    db
      .insert(notifications)
      .values({
        userId: sql.placeholder('userId'),
        kind: sql.placeholder('kind'),
        payload: sql`${sql.placeholder('payload')}::jsonb`,
        onceKey: sql.placeholder('onceKey'),
      })
      .onConflictDoNothing({ target: [notifications.userId, notifications.onceKey] })
      .returning(),
  );
  return db
    .with(created)
    .select({
      id: created.id,
      userId: created.userId,
      kind: created.kind,
      payload: created.payload,
      readAt: created.readAt,
      onceKey: created.onceKey,
      createdAt: created.createdAt,
      language: users.language,
      username: users.username,
      roles: users.roles,
      verified: users.verified,
      unread: sql<number>`(SELECT count(*)::int FROM ${notifications} n WHERE n.user_id = ${created.userId} AND n.read_at IS NULL) + 1`,
    })
    .from(created)
    .leftJoin(users, and(eq(users.id, created.userId), isNull(users.deletedAt)))
    .prepare('notification_create');
}

/** Notifications. Queries only. */
export class NotificationRepository {
  constructor(private readonly db: Db) {}

  /**
   * The new notification with what pushing it needs of its receiver: their language (to word it),
   * their identity (undefined once the account is gone) and their unread notifications, this one
   * included. One statement, not four: a message sends one of these per receiver. Undefined when
   * one with the same `onceKey` already went to this user.
   */
  async create(userId: string, kind: string, payload: Record<string, unknown>, onceKey?: string) {
    this.createOne ??= createStatement(this.db);
    const [row] = await this.createOne.execute({
      userId,
      kind,
      payload: JSON.stringify(payload),
      onceKey: onceKey ?? null,
    });
    if (!row) return undefined;
    const { language, username, roles, verified, unread, ...notification } = row;
    return {
      ...notification,
      language: languageOf(language),
      receiver:
        username && roles ? { username, roles: roles as Role[], verified: verified === true } : undefined,
      unread: Number(unread),
    } satisfies NotificationRow & CreatedNotification;
  }

  /** Every notification (one per message received) asks this: prepared once per connection. */
  private createOne?: ReturnType<typeof createStatement>;

  /** Newest first. */
  async list(
    userId: string,
    page: number,
    limit: number,
  ): Promise<{ rows: NotificationRow[]; total: number }> {
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(notifications).where(eq(notifications.userId, userId)),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }

  async unread(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    return row?.n ?? 0;
  }

  /** Marks as read every unread notification created up to `upTo`; answers how many changed. */
  async markRead(userId: string, upTo: Date, at: Date): Promise<number> {
    const rows = await this.db
      .update(notifications)
      .set({ readAt: at })
      .where(
        and(
          eq(notifications.userId, userId),
          isNull(notifications.readAt),
          lte(notifications.createdAt, upTo),
        ),
      )
      .returning({ id: notifications.id });
    return rows.length;
  }
}
