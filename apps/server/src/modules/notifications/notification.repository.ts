import { and, count, desc, eq, getTableColumns, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications, users } from '../../db/schema.ts';

export type NotificationRow = typeof notifications.$inferSelect;

/** Notifications. Queries only. */
export class NotificationRepository {
  constructor(private readonly db: Db) {}

  /**
   * The new notification with its receiver's language (to word it; one statement, not two: a
   * message sends one of these per receiver); undefined when one with the same `onceKey` already
   * went to this user.
   */
  async create(userId: string, kind: string, payload: Record<string, unknown>, onceKey?: string) {
    const [row] = await this.db
      .insert(notifications)
      .values({ userId, kind, payload, onceKey: onceKey ?? null })
      .onConflictDoNothing({ target: [notifications.userId, notifications.onceKey] })
      .returning({
        ...getTableColumns(notifications),
        language: sql<
          string | null
        >`(SELECT ${users.language} FROM ${users} WHERE ${users.id} = ${notifications.userId})`,
      });
    return row && { ...row, language: row.language === 'es' ? ('es' as const) : ('en' as const) };
  }

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
