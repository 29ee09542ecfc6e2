import type { AdminStatus } from '@fanverse/contract';
import { and, asc, count, desc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { activeSubscriptionSql, livePostSql, subscribedSql } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import {
  comments,
  follows,
  type MediaRow,
  media,
  type PostRow,
  postLikes,
  postMedia,
  postSaves,
  posts,
  profiles,
  subscriptions,
  unlocks,
  users,
} from '../../db/schema.ts';
import { publicUserColumns } from '../users/public-user.columns.ts';

export interface PostListRow extends PostRow {
  author: {
    id: string;
    username: string;
    name: string;
    displayName: string | null;
    avatar: string | null;
    online: boolean;
    lastConnection: Date | null;
    verified: boolean;
  };
  likes: number;
  comments: number;
  liked: boolean;
  saved: boolean;
  unlocked: boolean;
  subscribed: boolean;
}

export interface ListFilter {
  where: SQL | undefined;
  order: 'newest' | 'popular' | 'scheduled';
  page: number;
  limit: number;
}

export type NewPost = typeof posts.$inferInsert;

/** Posts, their media links, likes, saves and entitlements. Queries only. */
export class PostRepository {
  private readonly dialect = new PgDialect();
  constructor(private readonly db: Db) {}

  /**
   * A page of posts with author, counts and the viewer's relation to each. The page's ids are
   * chosen first (filter, order, offset: an index scan on the feed index that reads no other
   * table but users), then only those rows get their author, counts and viewer relations.
   * Fetches one row more than the page to answer `hasMore` without counting the whole feed.
   */
  async list(
    viewerId: string | null,
    filter: ListFilter,
  ): Promise<{ rows: PostListRow[]; hasMore: boolean }> {
    const viewer = viewerId ?? '00000000-0000-0000-0000-000000000000';
    const likesCount = sql<number>`(SELECT count(*)::int FROM ${postLikes} l WHERE l.post_id = ${posts.id})`;
    const order =
      filter.order === 'popular'
        ? [desc(likesCount), desc(posts.createdAt)]
        : filter.order === 'scheduled'
          ? [asc(posts.publishAt)]
          : [desc(posts.createdAt)];
    const pageIds = this.db
      .select({ id: posts.id })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.creatorId))
      .where(and(filter.where, isNull(users.deletedAt)))
      .orderBy(...order)
      .limit(filter.limit + 1)
      .offset((filter.page - 1) * filter.limit);
    const rows = await this.db
      .select({
        post: posts,
        author: publicUserColumns,
        likes: likesCount,
        comments: sql<number>`(SELECT count(*)::int FROM ${comments} c WHERE c.post_id = ${posts.id})`,
        liked: sql<boolean>`EXISTS (SELECT 1 FROM ${postLikes} l WHERE l.post_id = ${posts.id} AND l.user_id = ${viewer})`,
        saved: sql<boolean>`EXISTS (SELECT 1 FROM ${postSaves} s WHERE s.post_id = ${posts.id} AND s.user_id = ${viewer})`,
        unlocked: sql<boolean>`EXISTS (SELECT 1 FROM ${unlocks} u WHERE u.post_id = ${posts.id} AND u.user_id = ${viewer})`,
        subscribed: subscribedSql(viewer, posts.creatorId).mapWith(Boolean),
      })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.creatorId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(inArray(posts.id, pageIds))
      .orderBy(...order);
    return {
      rows: rows.slice(0, filter.limit).map((r) => ({
        ...r.post,
        author: r.author,
        likes: Number(r.likes),
        comments: Number(r.comments),
        liked: Boolean(r.liked),
        saved: Boolean(r.saved),
        unlocked: Boolean(r.unlocked),
        subscribed: Boolean(r.subscribed),
      })),
      hasMore: rows.length > filter.limit,
    };
  }

  /** How many posts a feed filter matches (for `statistics.total`). */
  async count(where: SQL | undefined): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.creatorId))
      .where(and(where, isNull(users.deletedAt)));
    return row?.n ?? 0;
  }

  /** A stable text for a filter (SQL with its parameters), to key cached counts by. */
  filterKey(where: SQL | undefined): string {
    if (!where) return '';
    const q = this.dialect.sqlToQuery(where);
    return `${q.sql}|${JSON.stringify(q.params)}`;
  }

  async findOne(viewerId: string | null, postId: string): Promise<PostListRow | undefined> {
    const { rows } = await this.list(viewerId, {
      where: eq(posts.id, postId),
      order: 'newest',
      page: 1,
      limit: 1,
    });
    return rows[0];
  }

  /** Posts (any state) that contain the given media, with the viewer's relation, for access checks. */
  async postsWithMedia(
    viewerId: string | null,
    mediaIds: string[],
  ): Promise<{ mediaId: string; post: PostListRow }[]> {
    if (!mediaIds.length) return [];
    const links = await this.db
      .select({ postId: postMedia.postId, mediaId: postMedia.mediaId })
      .from(postMedia)
      .where(inArray(postMedia.mediaId, mediaIds));
    const postIds = [...new Set(links.map((l) => l.postId))];
    if (!postIds.length) return [];
    const { rows } = await this.list(viewerId, {
      where: inArray(posts.id, postIds),
      order: 'newest',
      page: 1,
      limit: postIds.length,
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return links.flatMap((l) =>
      byId.has(l.postId) ? [{ mediaId: l.mediaId, post: byId.get(l.postId)! }] : [],
    );
  }

  /** The live post that holds a file, if any. */
  async holding(mediaId: string): Promise<PostRow | undefined> {
    const [row] = await this.db
      .select({ post: posts })
      .from(postMedia)
      .innerJoin(posts, eq(posts.id, postMedia.postId))
      .where(and(eq(postMedia.mediaId, mediaId), eq(posts.status, 'active')))
      .limit(1);
    return row?.post;
  }

  async findRow(postId: string): Promise<PostRow | undefined> {
    const [row] = await this.db.select().from(posts).where(eq(posts.id, postId)).limit(1);
    return row;
  }

  /** Media of the given posts, in position order. */
  async mediaOf(postIds: string[]): Promise<Map<string, MediaRow[]>> {
    const out = new Map<string, MediaRow[]>();
    if (!postIds.length) return out;
    const rows = await this.db
      .select({ postId: postMedia.postId, media })
      .from(postMedia)
      .innerJoin(media, eq(media.id, postMedia.mediaId))
      .where(inArray(postMedia.postId, postIds))
      .orderBy(asc(postMedia.position));
    for (const r of rows) {
      const list = out.get(r.postId) ?? [];
      list.push(r.media);
      out.set(r.postId, list);
    }
    return out;
  }

  async create(row: NewPost, mediaIds: string[]): Promise<PostRow> {
    return this.db.transaction(async (tx) => {
      const [post] = await tx.insert(posts).values(row).returning();
      if (!post) throw new Error('insert returned no row');
      if (mediaIds.length) {
        await tx
          .insert(postMedia)
          .values(mediaIds.map((mediaId, position) => ({ postId: post.id, mediaId, position })));
      }
      return post;
    });
  }

  async update(postId: string, changes: Partial<NewPost>, mediaIds?: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(posts)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(posts.id, postId));
      if (mediaIds) {
        await tx.delete(postMedia).where(eq(postMedia.postId, postId));
        if (mediaIds.length) {
          await tx
            .insert(postMedia)
            .values(mediaIds.map((mediaId, position) => ({ postId, mediaId, position })));
        }
      }
    });
  }

  async setReview(
    postId: string,
    adminStatus: AdminStatus,
    reason: string | null,
    reviewerId: string,
    at: Date,
  ) {
    await this.db
      .update(posts)
      .set({ adminStatus, reviewReason: reason, reviewedBy: reviewerId, reviewedAt: at })
      .where(eq(posts.id, postId));
  }

  /** Moves a post from one stored state to another; false when it was no longer in `from` (idempotent). */
  async moveState(postId: string, from: AdminStatus, to: AdminStatus): Promise<boolean> {
    const rows = await this.db
      .update(posts)
      .set({ adminStatus: to, updatedAt: new Date() })
      .where(and(eq(posts.id, postId), eq(posts.adminStatus, from)))
      .returning({ id: posts.id });
    return rows.length > 0;
  }

  /** Records when an approved post went live, once. */
  async markPublished(postId: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(posts)
      .set({ publishedAt: at })
      .where(and(eq(posts.id, postId), isNull(posts.publishedAt)))
      .returning({ id: posts.id });
    return rows.length > 0;
  }

  /** A creator's live posts scheduled after `now`, soonest first. */
  async scheduled(creatorId: string, now: Date): Promise<PostListRow[]> {
    const { rows } = await this.list(creatorId, {
      where: and(
        eq(posts.creatorId, creatorId),
        livePostSql(),
        gt(posts.publishAt, now),
        sql`${posts.adminStatus} <> 'rejected'`,
      ),
      order: 'scheduled',
      page: 1,
      limit: 100,
    });
    return rows;
  }

  async markDeleted(postId: string): Promise<void> {
    await this.db.update(posts).set({ status: 'deleted', updatedAt: new Date() }).where(eq(posts.id, postId));
  }

  /** Toggles a like; answers whether it is now liked and the new count. */
  async toggleLike(postId: string, userId: string): Promise<{ liked: boolean; likes: number }> {
    return this.db.transaction(async (tx) => {
      const removed = await tx
        .delete(postLikes)
        .where(and(eq(postLikes.postId, postId), eq(postLikes.userId, userId)))
        .returning({ postId: postLikes.postId });
      if (!removed.length) await tx.insert(postLikes).values({ postId, userId }).onConflictDoNothing();
      const [c] = await tx.select({ n: count() }).from(postLikes).where(eq(postLikes.postId, postId));
      return { liked: removed.length === 0, likes: c?.n ?? 0 };
    });
  }

  async toggleSave(postId: string, userId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const removed = await tx
        .delete(postSaves)
        .where(and(eq(postSaves.postId, postId), eq(postSaves.userId, userId)))
        .returning({ postId: postSaves.postId });
      if (!removed.length) await tx.insert(postSaves).values({ postId, userId }).onConflictDoNothing();
      return removed.length === 0;
    });
  }

  async likers(postId: string, page: number, limit: number) {
    const [rows, totals] = await Promise.all([
      this.db
        .select(publicUserColumns)
        .from(postLikes)
        .innerJoin(users, eq(users.id, postLikes.userId))
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(eq(postLikes.postId, postId))
        .orderBy(desc(postLikes.createdAt))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(postLikes).where(eq(postLikes.postId, postId)),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }

  /** Creators the viewer follows or is subscribed to. */
  followedCreatorsSql(viewerId: string): SQL {
    return or(
      sql`${posts.creatorId} IN (SELECT f.creator_id FROM ${follows} f WHERE f.follower_id = ${viewerId})`,
      subscribedSql(viewerId, posts.creatorId),
    )!;
  }

  savedBySql(viewerId: string): SQL {
    return sql`${posts.id} IN (SELECT s.post_id FROM ${postSaves} s WHERE s.user_id = ${viewerId})`;
  }

  unlockedBySql(viewerId: string): SQL {
    return sql`${posts.id} IN (SELECT u.post_id FROM ${unlocks} u WHERE u.user_id = ${viewerId})`;
  }

  hasMediaSql(): SQL {
    return sql`EXISTS (SELECT 1 FROM ${postMedia} pm WHERE pm.post_id = ${posts.id})`;
  }

  recentSql(since: Date): SQL {
    return gt(posts.createdAt, since)!;
  }

  async isSubscribed(fanId: string, creatorId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(
        and(eq(subscriptions.fanId, fanId), eq(subscriptions.creatorId, creatorId), activeSubscriptionSql()),
      )
      .limit(1);
    return rows.length > 0;
  }

  async countByReview(kind: 'post' | 'story'): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(posts)
      .where(and(eq(posts.kind, kind), inArray(posts.adminStatus, ['new', 'pending']), livePostSql()));
    return row?.n ?? 0;
  }
}
