import type { Role } from '@fanverse/contract';
import { and, count, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { activeSubscriptionSql, creatorSql, publishedPostSql } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import {
  follows,
  postLikes,
  postMedia,
  posts,
  profiles,
  subscriptions,
  userBlocks,
  users,
} from '../../db/schema.ts';
import { publicUserColumns } from '../users/public-user.columns.ts';
import type { PublicUserRow } from '../users/public-user.presenter.ts';

const isCreatorSql = creatorSql(users.roles);
const activeUser = and(isNull(users.deletedAt), isNull(users.suspendedAt));
/** Neither the viewer nor the listed user blocked the other. */
const notBlocked = (viewerId: string | null | undefined): SQL | undefined =>
  viewerId
    ? sql`NOT EXISTS (SELECT 1 FROM ${userBlocks} b WHERE (b.blocker_id = ${viewerId} AND b.blocked_id = ${users.id})
        OR (b.blocker_id = ${users.id} AND b.blocked_id = ${viewerId}))`
    : undefined;

const suggestable = and(isCreatorSql, eq(users.verified, true), activeUser);
const followerCount = sql`(SELECT count(*) FROM ${follows} f2 WHERE f2.creator_id = ${users.id})`;
const notFollowedBy = (viewerId: string | null): SQL | undefined =>
  viewerId
    ? and(
        ne(users.id, viewerId),
        sql`${users.id} NOT IN (SELECT f.creator_id FROM ${follows} f WHERE f.follower_id = ${viewerId})`,
      )
    : undefined;

export interface CreatorRow extends PublicUserRow {
  about: string | null;
  cover: string | null;
  roles: Role[];
  subscriptionPriceCents: number | null;
  discountStatus: string;
  discountPercent: number;
  discountDateLimit: Date | null;
}

/** Creators: lookup by handle, counts, search, suggestions and follows. Queries only. */
export class CreatorRepository {
  constructor(private readonly db: Db) {}

  async findByHandle(handle: string): Promise<CreatorRow | undefined> {
    const [row] = await this.db
      .select({
        ...publicUserColumns,
        about: profiles.about,
        cover: profiles.cover,
        roles: users.roles,
        subscriptionPriceCents: profiles.subscriptionPriceCents,
        discountStatus: profiles.discountStatus,
        discountPercent: profiles.discountPercent,
        discountDateLimit: profiles.discountDateLimit,
      })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(and(sql`lower(${users.username}) = ${handle.toLowerCase()}`, activeUser))
      .limit(1);
    if (!row) return undefined;
    return { ...row, discountStatus: row.discountStatus ?? 'off', discountPercent: row.discountPercent ?? 0 };
  }

  /** Published posts (as of `now`, the app's clock), their media and likes, and subscribers. */
  async counts(creatorId: string, now: Date) {
    const approved = and(
      eq(posts.creatorId, creatorId),
      publishedPostSql(posts, now),
      eq(posts.kind, 'post'),
    );
    // One statement: four counts on indexes (the creator's posts, then per post its media and
    // likes by primary key, so neither table is scanned whole; subscribers by creator).
    const perPost = (table: typeof postMedia | typeof postLikes) =>
      sql`(SELECT count(*) FROM ${table} x WHERE x.post_id = ${posts.id})`;
    const [row] = await this.db
      .select({
        posts: sql<number>`(SELECT count(*)::int FROM ${posts} WHERE ${approved})`,
        media: sql<number>`(SELECT coalesce(sum(${perPost(postMedia)}), 0)::int FROM ${posts} WHERE ${approved})`,
        likes: sql<number>`(SELECT coalesce(sum(${perPost(postLikes)}), 0)::int FROM ${posts} WHERE ${approved})`,
        subscribers: sql<number>`(SELECT count(*)::int FROM ${subscriptions} WHERE ${and(
          eq(subscriptions.creatorId, creatorId),
          activeSubscriptionSql(),
        )})`,
      })
      .from(sql`(SELECT 1) AS one`);
    return {
      posts: Number(row?.posts ?? 0),
      media: Number(row?.media ?? 0),
      likes: Number(row?.likes ?? 0),
      subscribers: Number(row?.subscribers ?? 0),
    };
  }

  async isFollowing(followerId: string, creatorId: string): Promise<boolean> {
    const rows = await this.db
      .select({ c: follows.creatorId })
      .from(follows)
      .where(and(eq(follows.followerId, followerId), eq(follows.creatorId, creatorId)))
      .limit(1);
    return rows.length > 0;
  }

  async toggleFollow(followerId: string, creatorId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const removed = await tx
        .delete(follows)
        .where(and(eq(follows.followerId, followerId), eq(follows.creatorId, creatorId)))
        .returning({ c: follows.creatorId });
      if (!removed.length) await tx.insert(follows).values({ followerId, creatorId }).onConflictDoNothing();
      return removed.length === 0;
    });
  }

  async following(followerId: string): Promise<PublicUserRow[]> {
    return this.db
      .select(publicUserColumns)
      .from(follows)
      .innerJoin(users, eq(users.id, follows.creatorId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(follows.followerId, followerId), activeUser))
      .orderBy(desc(follows.createdAt));
  }

  /** Verified creators the viewer does not follow yet, most followed first. */
  async suggestions(viewerId: string | null, limit: number): Promise<PublicUserRow[]> {
    return this.db
      .select(publicUserColumns)
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(and(suggestable, notFollowedBy(viewerId), notBlocked(viewerId)))
      .orderBy(desc(followerCount), users.username)
      .limit(limit);
  }

  /**
   * Which of the given creators may still be suggested to the viewer (verified, active, not
   * followed, no block either way): one indexed statement over a cached ranking.
   */
  async stillSuggestable(viewerId: string, creatorIds: string[]): Promise<Set<string>> {
    if (!creatorIds.length) return new Set();
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, creatorIds), suggestable, notFollowedBy(viewerId), notBlocked(viewerId)));
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Typo-tolerant search on username and display name (pg_trgm word similarity), best match
   * first; an empty word lists creators by popularity.
   */
  async search(
    word: string,
    page: number,
    limit: number,
    viewerId?: string | null,
  ): Promise<{ rows: PublicUserRow[]; total: number }> {
    const w = word.toLowerCase();
    const matches = w
      ? sql`(lower(${users.username}) LIKE ${`%${w}%`} OR lower(coalesce(${profiles.displayName}, '')) LIKE ${`%${w}%`}
          OR word_similarity(${w}, lower(${users.username})) > 0.3
          OR word_similarity(${w}, lower(coalesce(${profiles.displayName}, ${users.name}))) > 0.3)`
      : undefined;
    const score = w
      ? sql`greatest(word_similarity(${w}, lower(${users.username})), word_similarity(${w}, lower(coalesce(${profiles.displayName}, ${users.name}))))`
      : sql`(SELECT count(*) FROM ${follows} f WHERE f.creator_id = ${users.id})`;
    const where = and(isCreatorSql, activeUser, matches, notBlocked(viewerId));
    const [rows, totals] = await Promise.all([
      this.db
        .select(publicUserColumns)
        .from(users)
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(where)
        .orderBy(desc(score), users.username)
        .limit(limit)
        .offset((page - 1) * limit),
      this.db
        .select({ n: count() })
        .from(users)
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(where),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }
}
