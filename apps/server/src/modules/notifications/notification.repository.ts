import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications, users } from '../../db/schema.ts';

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
}
