import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { subscribedSql } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import {
  follows,
  type LiveMarkGrid,
  ledgerTransactions,
  liveMessages,
  liveModerations,
  liveStreamKeys,
  lives,
  liveTickets,
  profiles,
  subscriptions,
  users,
} from '../../db/schema.ts';
import { publicUserColumns } from '../users/public-user.columns.ts';
import type { PublicUserRow } from '../users/public-user.presenter.ts';
import { rowsOf } from '../wallet/ledger.repository.ts';

export type LiveRow = typeof lives.$inferSelect;
export type LiveWithCreator = LiveRow & { creator: PublicUserRow; earnedCredits: number };
export type NewLive = Pick<
  typeof lives.$inferInsert,
  'creatorId' | 'title' | 'audience' | 'ticketPrice' | 'goalCredits' | 'goalLabel' | 'source' | 'mark'
>;

/** Ledger keys of what is spent during a live name it: `live:<liveId>:<kind>:<unique>` (liveSpendKey). */
export const liveSpendKey = (liveId: string, kind: string, unique: string) =>
  `live:${liveId}:${kind}:${unique}`;

/** Credits spent on a live (tickets, tips, gifts): the goal bar. */
const earnedSql = sql<number>`coalesce((SELECT -sum(${ledgerTransactions.credits})::int FROM ${ledgerTransactions}
  WHERE ${ledgerTransactions.creatorId} = ${lives.creatorId} AND ${ledgerTransactions.category} = 'live'
    AND ${ledgerTransactions.idempotencyKey} LIKE 'live:' || ${lives.id}::text || ':%'), 0)`;

/** Lives, their tickets, chat and moderation, and stream keys. Queries only. */
export class LiveRepository {
  constructor(private readonly db: Db) {}

  private selectLives() {
    return this.db
      .select({ live: lives, creator: publicUserColumns, earnedCredits: earnedSql })
      .from(lives)
      .innerJoin(users, eq(users.id, lives.creatorId))
      .leftJoin(profiles, eq(profiles.userId, users.id));
  }

  /** Inserts the live; undefined when the creator already has one in progress. */
  async create(values: NewLive): Promise<LiveRow | undefined> {
    const [row] = await this.db.insert(lives).values(values).onConflictDoNothing().returning();
    return row;
  }

  async find(id: string): Promise<LiveWithCreator | undefined> {
    const [row] = await this.selectLives().where(eq(lives.id, id));
    return row && { ...row.live, creator: row.creator, earnedCredits: row.earnedCredits };
  }

  /** The live's mark grid (ADR 0045): null when unmarked (the external engine's), undefined when no such live. */
  async markGrid(id: string): Promise<LiveMarkGrid | null | undefined> {
    const [row] = await this.db.select({ mark: lives.mark }).from(lives).where(eq(lives.id, id));
    return row?.mark;
  }

  async current(creatorId: string): Promise<LiveRow | undefined> {
    const [row] = await this.db
      .select()
      .from(lives)
      .where(and(eq(lives.creatorId, creatorId), eq(lives.status, 'live')));
    return row;
  }

  /** Lives in progress; for a fan only those of creators they follow or subscribe to. */
  async inProgress(viewerId: string | null): Promise<LiveWithCreator[]> {
    const mine = viewerId
      ? or(
          eq(lives.creatorId, viewerId),
          sql`EXISTS (SELECT 1 FROM ${follows} WHERE ${follows.followerId} = ${viewerId} AND ${follows.creatorId} = ${lives.creatorId})`,
          subscribedSql(viewerId, lives.creatorId),
        )
      : undefined;
    const rows = await this.selectLives()
      .where(and(eq(lives.status, 'live'), mine))
      .orderBy(desc(lives.startedAt))
      .limit(100);
    return rows.map((r) => ({ ...r.live, creator: r.creator, earnedCredits: r.earnedCredits }));
  }

  /** Ends the live if it is in progress; answers the row when this call ended it. */
  async end(id: string, endedBy: string, at: Date): Promise<LiveRow | undefined> {
    const [row] = await this.db
      .update(lives)
      .set({ status: 'ended', endedAt: at, endedBy })
      .where(and(eq(lives.id, id), eq(lives.status, 'live')))
      .returning();
    return row;
  }

  async recordViewers(id: string, viewers: number): Promise<void> {
    await this.db
      .update(lives)
      .set({ peakViewers: sql`greatest(${lives.peakViewers}, ${viewers})` })
      .where(eq(lives.id, id));
  }

  async setReplay(id: string, postId: string): Promise<boolean> {
    const rows = await this.db
      .update(lives)
      .set({ replayPostId: postId })
      .where(and(eq(lives.id, id), isNull(lives.replayPostId)))
      .returning({ id: lives.id });
    return rows.length > 0;
  }

  /** What the entitlement rule needs to know about a viewer of a creator's live. */
  async viewerFacts(liveId: string, creatorId: string, userId: string, now: Date) {
    const [row] = await this.db
      .execute<{ subscribed: boolean; ticket: boolean; banned: boolean; muted: boolean }>(sql`
      SELECT ${subscribedSql(userId, creatorId, now)} AS subscribed,
        EXISTS (SELECT 1 FROM ${liveTickets} WHERE ${liveTickets.liveId} = ${liveId} AND ${liveTickets.userId} = ${userId}) AS ticket,
        EXISTS (SELECT 1 FROM ${liveModerations} WHERE ${liveModerations.liveId} = ${liveId}
          AND ${liveModerations.userId} = ${userId} AND ${liveModerations.kind} = 'ban') AS banned,
        EXISTS (SELECT 1 FROM ${liveModerations} WHERE ${liveModerations.liveId} = ${liveId}
          AND ${liveModerations.userId} = ${userId} AND ${liveModerations.kind} = 'mute') AS muted`)
      .then((r) => rowsOf<{ subscribed: boolean; ticket: boolean; banned: boolean; muted: boolean }>(r));
    return row ?? { subscribed: false, ticket: false, banned: false, muted: false };
  }

  async addMessage(liveId: string, userId: string, text: string) {
    const [row] = await this.db.insert(liveMessages).values({ liveId, userId, text }).returning();
    return row as typeof liveMessages.$inferSelect;
  }

  async removeMessage(liveId: string, messageId: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(liveMessages)
      .set({ removedAt: at })
      .where(
        and(eq(liveMessages.id, messageId), eq(liveMessages.liveId, liveId), isNull(liveMessages.removedAt)),
      )
      .returning({ id: liveMessages.id });
    return rows.length > 0;
  }

  async recentMessages(liveId: string, limit = 50) {
    const rows = await this.db
      .select({ message: liveMessages, user: publicUserColumns })
      .from(liveMessages)
      .innerJoin(users, eq(users.id, liveMessages.userId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(liveMessages.liveId, liveId), isNull(liveMessages.removedAt)))
      .orderBy(desc(liveMessages.createdAt))
      .limit(limit);
    return rows.reverse();
  }

  async moderate(liveId: string, userId: string, kind: 'mute' | 'ban', on: boolean): Promise<void> {
    if (on) await this.db.insert(liveModerations).values({ liveId, userId, kind }).onConflictDoNothing();
    else
      await this.db
        .delete(liveModerations)
        .where(
          and(
            eq(liveModerations.liveId, liveId),
            eq(liveModerations.userId, userId),
            eq(liveModerations.kind, kind),
          ),
        );
  }

  /** Followers and active subscribers of a creator (who hear that they went live). */
  async audienceOf(creatorId: string): Promise<string[]> {
    const rows = await this.db.execute<{ id: string }>(sql`
      SELECT ${follows.followerId} AS id FROM ${follows} WHERE ${follows.creatorId} = ${creatorId}
      UNION
      SELECT ${subscriptions.fanId} FROM ${subscriptions} WHERE ${subscriptions.creatorId} = ${creatorId}
        AND ${subscriptions.status} IN ('active', 'cancelled') AND ${subscriptions.currentPeriodEnd} > now()`);
    return rowsOf<{ id: string }>(rows)
      .map((r) => r.id)
      .filter((id) => id !== creatorId);
  }

  async usersLive(creatorIds: string[]): Promise<Set<string>> {
    if (!creatorIds.length) return new Set();
    const rows = await this.db
      .select({ id: lives.creatorId })
      .from(lives)
      .where(and(eq(lives.status, 'live'), inArray(lives.creatorId, creatorIds)));
    return new Set(rows.map((r) => r.id));
  }

  async setStreamKey(creatorId: string, keyHash: string): Promise<void> {
    await this.db
      .insert(liveStreamKeys)
      .values({ creatorId, keyHash })
      .onConflictDoUpdate({ target: liveStreamKeys.creatorId, set: { keyHash, createdAt: new Date() } });
  }

  async hasStreamKey(creatorId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: liveStreamKeys.creatorId })
      .from(liveStreamKeys)
      .where(eq(liveStreamKeys.creatorId, creatorId));
    return rows.length > 0;
  }

  async revokeStreamKey(creatorId: string): Promise<void> {
    await this.db.delete(liveStreamKeys).where(eq(liveStreamKeys.creatorId, creatorId));
  }

  async creatorOfKey(keyHash: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ id: liveStreamKeys.creatorId })
      .from(liveStreamKeys)
      .where(eq(liveStreamKeys.keyHash, keyHash));
    return row?.id;
  }
}
