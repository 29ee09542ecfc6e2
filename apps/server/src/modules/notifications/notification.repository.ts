import { and, count, desc, eq, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications, users } from '../../db/schema.ts';

export type NotificationRow = typeof notifications.$inferSelect;

/** Notifications. Queries only. */
export class NotificationRepository {
  constructor(private readonly db: Db) {}

  async create(userId: string, kind: string, payload: Record<string, unknown>) {
    const [row] = await this.db.insert(notifications).values({ userId, kind, payload }).returning();
    return row!;
  }

  async languageOf(userId: string): Promise<'en' | 'es'> {
    const [row] = await this.db.select({ language: users.language }).from(users).where(eq(users.id, userId));
    return row?.language === 'es' ? 'es' : 'en';
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
