import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { liveTickets, messages, messageUnlocks, unlocks } from '../../db/schema.ts';

/** Bought content rows (pay-per-view posts, paid messages). Queries only. */
export class EntitlementRepository {
  constructor(private readonly db: Db) {}

  /** Answers false when the fan had already unlocked the post (nothing to charge). */
  async addUnlock(userId: string, postId: string): Promise<boolean> {
    const rows = await this.db
      .insert(unlocks)
      .values({ userId, postId })
      .onConflictDoNothing()
      .returning({ postId: unlocks.postId });
    return rows.length > 0;
  }

  async removeUnlock(userId: string, postId: string): Promise<void> {
    await this.db.delete(unlocks).where(and(eq(unlocks.userId, userId), eq(unlocks.postId, postId)));
  }

  async addMessageUnlock(userId: string, messageId: string): Promise<boolean> {
    const rows = await this.db
      .insert(messageUnlocks)
      .values({ userId, messageId })
      .onConflictDoNothing()
      .returning({ id: messageUnlocks.messageId });
    return rows.length > 0;
  }

  /** A live's ticket; answers false when the fan already held it (nothing to charge). */
  async addLiveTicket(userId: string, liveId: string): Promise<boolean> {
    const rows = await this.db
      .insert(liveTickets)
      .values({ userId, liveId })
      .onConflictDoNothing()
      .returning({ id: liveTickets.liveId });
    return rows.length > 0;
  }

  async paidMessage(messageId: string) {
    const [row] = await this.db
      .select({ id: messages.id, fromId: messages.fromId, toId: messages.toId, price: messages.price })
      .from(messages)
      .where(eq(messages.id, messageId));
    return row;
  }
}
