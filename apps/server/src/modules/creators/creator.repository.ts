import { and, count, desc, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
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

export interface CreatorRow extends PublicUserRow {
  about: string | null;
  cover: string | null;
  roles: string[];
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

  async counts(creatorId: string) {
    const approved = and(eq(posts.creatorId, creatorId), publishedPostSql(), eq(posts.kind, 'post'));
    const [[p], [m], [l], [s]] = await Promise.all([
      this.db.select({ n: count() }).from(posts).where(approved),
      this.db
        .select({ n: count() })
        .from(postMedia)
        .innerJoin(posts, eq(posts.id, postMedia.postId))
        .where(approved),
      this.db
        .select({ n: count() })
        .from(postLikes)
        .innerJoin(posts, eq(posts.id, postLikes.postId))
        .where(approved),
      this.db
        .select({ n: count() })
        .from(subscriptions)
        .where(and(eq(subscriptions.creatorId, creatorId), activeSubscriptionSql())),
    ]);
    return { posts: p?.n ?? 0, media: m?.n ?? 0, likes: l?.n ?? 0, subscribers: s?.n ?? 0 };
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
    const notFollowed: SQL | undefined = viewerId
      ? and(
          ne(users.id, viewerId),
          sql`${users.id} NOT IN (SELECT f.creator_id FROM ${follows} f WHERE f.follower_id = ${viewerId})`,
        )
      : undefined;
    return this.db
      .select(publicUserColumns)
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(and(isCreatorSql, eq(users.verified, true), activeUser, notFollowed, notBlocked(viewerId)))
      .orderBy(
        desc(sql`(SELECT count(*) FROM ${follows} f2 WHERE f2.creator_id = ${users.id})`),
        users.username,
      )
      .limit(limit);
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
