import { and, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

/** The online flag and last connection of users (never of a deleted account). Queries only. */
export class PresenceRepository {
  constructor(private readonly db: Db) {}

  async online(userIds: string[], at: Date): Promise<void> {
    if (!userIds.length) return;
    await this.db
      .update(users)
      .set({ online: true, lastConnection: at })
      .where(and(inArray(users.id, userIds), isNull(users.deletedAt)));
  }

  /** Offline as of `at`, unless the user connected again after that moment. */
  async offline(userId: string, at: Date): Promise<void> {
    await this.db
      .update(users)
      .set({ online: false, lastConnection: at })
      .where(
        and(
          eq(users.id, userId),
          isNull(users.deletedAt),
          or(isNull(users.lastConnection), lte(users.lastConnection, at)),
        ),
      );
  }
}
