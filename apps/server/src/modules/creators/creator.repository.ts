import type { DIRECTORY_SORTS, Role, SubscriptionStatus } from '@fanverse/contract';
import { and, count, desc, eq, inArray, isNull, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import {
  activeSubscriptionSql,
  blockedEitherWaySql,
  creatorSql,
  directoryListedSql,
  fanAccountSql,
  livePostSql,
  publishedPostSql,
} from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import { sameTurnReads } from '../../db/same-turn.ts';
import {
  creatorTags,
  follows,
  postLikes,
  postMedia,
  posts,
  profiles,
  searchTerms,
  subscriptions,
  unlocks,
  userBlocks,
  users,
} from '../../db/schema.ts';
import { deletionVariants, escapeLike, personTerms } from '../search/spelling.ts';
import { publicUserColumns } from '../users/public-user.columns.ts';
import type { PublicUserRow } from '../users/public-user.presenter.ts';
import { rowsOf } from '../wallet/ledger.repository.ts';

const isCreatorSql = creatorSql(users.roles);
type DirectorySort = (typeof DIRECTORY_SORTS)[number];
/** Most people a search ranks (the best SEARCH_CANDIDATES matches by followers). */
const SEARCH_CANDIDATES = 400;
const activeUser = and(isNull(users.deletedAt), isNull(users.suspendedAt));
/** Neither the viewer nor the listed user blocked the other. */
const notBlocked = (viewerId: SQLWrapper | string | null | undefined): SQL | undefined =>
  viewerId ? sql`NOT ${blockedEitherWaySql(viewerId, users.id)}` : undefined;

const suggestable = and(isCreatorSql, eq(users.verified, true), activeUser);
const followerCount = sql`(SELECT count(*) FROM ${follows} f2 WHERE f2.creator_id = ${users.id})`;
const notFollowedBy = (viewerId: SQLWrapper | string | null): SQL | undefined =>
  viewerId
    ? and(
        ne(users.id, viewerId),
        sql`${users.id} NOT IN (SELECT f.creator_id FROM ${follows} f WHERE f.follower_id = ${viewerId})`,
      )
    : undefined;

/** The viewer of a prepared statement (a placeholder filled on each run). */
const viewerParam = sql`${sql.placeholder('viewer')}::uuid`;

/**
 * Statements every creator feed or home feed runs, prepared once per connection (no building,
 * parsing or planning per request).
 */
function prepareHot(db: Db) {
  return {
    byHandles: db
      .select({
        // The key the statement matched on, so rows go back to the handles asked for by
        // PostgreSQL's own lower-casing, not JavaScript's.
        key: sql<string>`lower(${users.username})`,
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
      // Handles asked for in the same turn of the event loop, lower-cased (`users_username_lower_idx`).
      .where(and(sql`lower(${users.username}) = ANY(${sql.placeholder('handles')}::text[])`, activeUser))
      .prepare('creators_by_handle'),
    relations: db
      .select({
        follows: sql<
          string[]
        >`ARRAY(SELECT f.creator_id FROM ${follows} f WHERE f.follower_id = ${viewerParam})`,
        blocks: sql<
          string[]
        >`ARRAY(SELECT b.blocked_id FROM ${userBlocks} b WHERE b.blocker_id = ${viewerParam}
          UNION SELECT b.blocker_id FROM ${userBlocks} b WHERE b.blocked_id = ${viewerParam})`,
        // The subscriptions granting access now; when a period ends is judged when asked.
        subscriptions: sql<
          { creatorId: string; status: SubscriptionStatus; currentPeriodEnd: string }[]
        >`COALESCE((
          SELECT json_agg(json_build_object('creatorId', ${subscriptions.creatorId}, 'status', ${subscriptions.status},
            'currentPeriodEnd', ${subscriptions.currentPeriodEnd}))
          FROM ${subscriptions} WHERE ${subscriptions.fanId} = ${viewerParam} AND ${activeSubscriptionSql()}), '[]')`,
      })
      .from(sql`(SELECT 1) AS one`)
      .prepare('viewer_relations'),
  };
}

/** The people a viewer follows and subscribes to, and those blocked either way with them. */
export interface ViewerRelations {
  follows: Set<string>;
  blocks: Set<string>;
  /** By creator: the subscriptions that may still grant access (`isActiveSubscription` decides). */
  subscriptions: Map<string, { status: SubscriptionStatus; currentPeriodEnd: Date }>;
}

export interface CreatorRow extends PublicUserRow {
  about: string | null;
  cover: string | null;
  roles: Role[];
  subscriptionPriceCents: number | null;
  discountStatus: string;
  discountPercent: number;
  discountDateLimit: Date | null;
}

/** Who a people directory lists: creators (of a category), fans or both; optionally only those online. */
export interface DirectoryFilter {
  people: 'creators' | 'fans' | 'all';
  tag?: string;
  online?: boolean;
}

export function directoryWho(filter: DirectoryFilter): SQL {
  const people =
    filter.people === 'creators'
      ? isCreatorSql
      : filter.people === 'fans'
        ? fanAccountSql(users.roles)
        : directoryListedSql(users.roles);
  return sql.join(
    [
      people,
      filter.tag
        ? sql`EXISTS (SELECT 1 FROM ${creatorTags} ct WHERE ct.user_id = ${users.id} AND ct.tag = ${filter.tag})`
        : undefined,
      filter.online ? sql`${users.online}` : undefined,
    ].filter((part): part is SQL => !!part),
    sql` AND `,
  );
}

/** Creators: lookup by handle, counts, search, suggestions and follows. Queries only. */
export class CreatorRepository {
  private prepared?: ReturnType<typeof prepareHot>;
  constructor(private readonly db: Db) {}

  private get hot() {
    this.prepared ??= prepareHot(this.db);
    return this.prepared;
  }

  /** Lookups by handle asked for in the same turn of the event loop share one statement. */
  private readonly byHandle = sameTurnReads((handles: readonly string[]) => this.loadByHandles(handles));

  findByHandle(handle: string): Promise<CreatorRow | undefined> {
    return this.byHandle.load(handle.toLowerCase());
  }

  private async loadByHandles(handles: readonly string[]): Promise<(CreatorRow | undefined)[]> {
    const rows = await this.hot.byHandles.execute({ handles: [...new Set(handles)] });
    const found = new Map<string, CreatorRow>();
    for (const { key, ...row } of rows) {
      found.set(key, {
        ...row,
        discountStatus: row.discountStatus ?? 'off',
        discountPercent: row.discountPercent ?? 0,
      });
    }
    return handles.map((handle) => found.get(handle));
  }

  /**
   * Published posts (as of `now`, the app's clock), their media and likes, and subscribers; and
   * when the next scheduled post goes live (until then the counts hold, but for new writes).
   */
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
        // When the next approved post scheduled for later goes live (the counts change then).
        nextPublishAt: sql<string | null>`(SELECT min(${posts.publishAt})::text FROM ${posts} WHERE ${and(
          eq(posts.creatorId, creatorId),
          livePostSql(),
          eq(posts.adminStatus, 'approved'),
          eq(posts.kind, 'post'),
          sql`${posts.publishAt} > ${now.toISOString()}::timestamptz`,
        )})`,
      })
      .from(sql`(SELECT 1) AS one`);
    return {
      counts: {
        posts: Number(row?.posts ?? 0),
        media: Number(row?.media ?? 0),
        likes: Number(row?.likes ?? 0),
        subscribers: Number(row?.subscribers ?? 0),
      },
      nextPublishAt: row?.nextPublishAt ? new Date(row.nextPublishAt) : null,
    };
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
   * Whom the viewer follows and subscribes to, and who blocked them or was blocked by them (one
   * indexed statement).
   */
  async relationsOf(viewerId: string): Promise<ViewerRelations> {
    const [row] = await this.hot.relations.execute({ viewer: viewerId });
    return {
      follows: new Set(row?.follows ?? []),
      blocks: new Set(row?.blocks ?? []),
      subscriptions: new Map(
        (row?.subscriptions ?? []).map((s) => [
          s.creatorId,
          { status: s.status, currentPeriodEnd: new Date(s.currentPeriodEnd) },
        ]),
      ),
    };
  }

  /** Which of these people blocked the viewer or were blocked by them. */
  async blockedAmong(viewerId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, ids), sql`NOT (${notBlocked(viewerId) ?? sql`true`})`));
    return new Set(rows.map((r) => r.id));
  }

  /** Creators by popularity (most followed first): the top creators and an empty search. */
  async popular(page: number, limit: number, viewerId?: string | null) {
    const where = and(isCreatorSql, activeUser, notBlocked(viewerId));
    const [rows, totals] = await Promise.all([
      this.db
        .select(publicUserColumns)
        .from(users)
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(where)
        .orderBy(desc(followerCount), users.username)
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(users).where(where),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }

  /**
   * Typo-tolerant search (ADR 0024): candidates from the spelling index (equal one-letter
   * deletions, prefixes, shared trigrams) and descriptions, at most SEARCH_CANDIDATES of them,
   * most followed first; the caller ranks them by relevance and popularity.
   */
  async searchCandidates(words: readonly string[], viewerId?: string | null, who: SQL = isCreatorSql) {
    const perWord = words.flatMap((w) => {
      const variants = sql.join(
        deletionVariants(w).map((v) => sql`${v}`),
        sql`, `,
      );
      const parts = [
        sql`SELECT st.user_id FROM ${searchTerms} st WHERE st.variant IN (${variants})`,
        sql`SELECT st.user_id FROM ${searchTerms} st WHERE st.term = st.variant AND st.term LIKE ${`${escapeLike(w)}%`}`,
      ];
      if (w.length >= 3) {
        parts.push(
          sql`SELECT p.user_id FROM ${profiles} p WHERE lower(coalesce(p.about, '')) LIKE ${`%${escapeLike(w)}%`}`,
        );
      }
      // Two edits (ranked only from six letters on): shared trigrams; one edit is the deletions' job.
      if (w.length >= 6) {
        parts.push(
          sql`SELECT st.user_id FROM ${searchTerms} st WHERE st.term = st.variant AND st.term % ${w}`,
        );
      }
      return parts;
    });
    if (!perWord.length) return [];
    const hits = sql.join(perWord, sql` UNION `);
    const followers = sql<number>`${followerCount}::int`.as('followers');
    const rows = await this.db
      .select({
        ...publicUserColumns,
        about: profiles.about,
        followers,
        roles: users.roles,
      })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      // ARRAY(…): the candidates are gathered first and each fetched by primary key; `IN (…)` let
      // the planner misjudge their number and hash-join a sequential scan of every user.
      .where(and(sql`${users.id} = ANY(ARRAY(${hits}))`, who, activeUser, notBlocked(viewerId)))
      // By the selected count's name: counted once per candidate, not again for the order.
      .orderBy(desc(sql`followers`), users.username)
      .limit(SEARCH_CANDIDATES);
    // The person's indexed words from the row itself (the trigger's rule): no index rows read back.
    return rows.map((r) => ({
      ...r,
      followers: Number(r.followers),
      terms: personTerms(r.username, r.displayName, r.name),
    }));
  }

  /**
   * One page of a people directory without search words: `who` (creators, fans or both, and the
   * filters) among active people not blocked either way, sorted, with the total.
   */
  async directory(who: SQL, sort: DirectorySort, page: number, limit: number, viewerId?: string | null) {
    const where = and(who, activeUser, notBlocked(viewerId));
    const order =
      sort === 'new'
        ? [desc(users.createdAt), users.username]
        : sort === 'name'
          ? [users.username]
          : [desc(followerCount), users.username];
    const [rows, totals] = await Promise.all([
      this.db
        .select({ ...publicUserColumns, roles: users.roles, followers: sql<number>`${followerCount}::int` })
        .from(users)
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(users).where(where),
    ]);
    return { rows: rows.map((r) => ({ ...r, followers: Number(r.followers) })), total: totals[0]?.n ?? 0 };
  }

  /** Most new followers in the last week, then most followers (verified creators). */
  async trending(limit: number): Promise<PublicUserRow[]> {
    const recent = sql`(SELECT count(*) FROM ${follows} f3 WHERE f3.creator_id = ${users.id} AND f3.created_at > now() - interval '7 days')`;
    return this.db
      .select(publicUserColumns)
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(suggestable)
      .orderBy(desc(recent), desc(followerCount), users.username)
      .limit(limit);
  }

  /** Verified creators, newest accounts first. */
  async newest(limit: number): Promise<PublicUserRow[]> {
    return this.db
      .select(publicUserColumns)
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(suggestable)
      .orderBy(desc(users.createdAt))
      .limit(limit);
  }

  /** How many verified creators chose each category. */
  async tagCounts(): Promise<{ tag: string; creators: number }[]> {
    const rows = await this.db
      .select({ tag: creatorTags.tag, creators: count() })
      .from(creatorTags)
      .innerJoin(users, eq(users.id, creatorTags.userId))
      .where(suggestable)
      .groupBy(creatorTags.tag)
      .orderBy(desc(count()), creatorTags.tag);
    return rows.map((r) => ({ tag: r.tag, creators: Number(r.creators) }));
  }

  /** Verified creators of one category, most followed first. */
  async byTag(tag: string, limit: number, viewerId?: string | null): Promise<PublicUserRow[]> {
    return this.db
      .select(publicUserColumns)
      .from(creatorTags)
      .innerJoin(users, eq(users.id, creatorTags.userId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(creatorTags.tag, tag), suggestable, notBlocked(viewerId)))
      .orderBy(desc(followerCount), users.username)
      .limit(limit);
  }

  async tagsOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ tag: creatorTags.tag })
      .from(creatorTags)
      .where(eq(creatorTags.userId, userId))
      .orderBy(creatorTags.tag);
    return rows.map((r) => r.tag);
  }

  async setTags(userId: string, tags: readonly string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(creatorTags).where(eq(creatorTags.userId, userId));
      if (tags.length) await tx.insert(creatorTags).values(tags.map((tag) => ({ userId, tag })));
    });
  }

  /**
   * "Creators you may like" for one fan: creators followed by people who follow, like or buy from
   * the same creators as the fan (one point each), and creators sharing a category with them (two
   * points each), leaving out whom the fan already follows, blocked or was blocked by.
   */
  async mayLike(viewerId: string, limit: number): Promise<PublicUserRow[]> {
    const scored = rowsOf<{ id: string; score: string }>(
      await this.db.execute(sql`
        WITH mine AS (
          SELECT creator_id FROM ${follows} WHERE follower_id = ${viewerId}
          UNION SELECT p.creator_id FROM ${postLikes} l JOIN ${posts} p ON p.id = l.post_id WHERE l.user_id = ${viewerId}
          UNION SELECT p.creator_id FROM ${unlocks} u JOIN ${posts} p ON p.id = u.post_id WHERE u.user_id = ${viewerId}
          UNION SELECT creator_id FROM ${subscriptions} WHERE fan_id = ${viewerId}
        ),
        peers AS (
          SELECT DISTINCT f.follower_id FROM ${follows} f
          WHERE f.creator_id IN (SELECT creator_id FROM mine) AND f.follower_id <> ${viewerId}
          LIMIT 500
        ),
        scored AS (
          SELECT f.creator_id AS id, count(*) AS score FROM ${follows} f
          WHERE f.follower_id IN (SELECT follower_id FROM peers) GROUP BY f.creator_id
          UNION ALL
          SELECT t2.user_id AS id, 2 * count(*) AS score FROM ${creatorTags} t1
          JOIN ${creatorTags} t2 ON t2.tag = t1.tag
          WHERE t1.user_id IN (SELECT creator_id FROM mine) GROUP BY t2.user_id
        )
        SELECT id, sum(score) AS score FROM scored
        WHERE id NOT IN (SELECT creator_id FROM mine) AND id <> ${viewerId}
        GROUP BY id ORDER BY sum(score) DESC LIMIT 200`),
    );
    if (!scored.length) return [];
    const rows = await this.db
      .select(publicUserColumns)
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(
        and(
          inArray(
            users.id,
            scored.map((r) => r.id),
          ),
          suggestable,
          notFollowedBy(viewerId),
          notBlocked(viewerId),
        ),
      );
    const rank = new Map(scored.map((r, i) => [r.id, i]));
    return rows.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0)).slice(0, limit);
  }
}
