import type { AdminStatus } from '@fanverse/contract';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNull,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import {
  accountSuspendedSql,
  blockedEitherWaySql,
  creatorSuspendedSql,
  livePostSql,
  storyStartSql,
  subscribedSql,
} from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import { sameTurnReads } from '../../db/same-turn.ts';
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
  unlocks,
  users,
} from '../../db/schema.ts';
import { publicUserColumns } from '../users/public-user.columns.ts';

/** A viewer's side of a post: counts and relations. */
export interface PostViewerFields {
  likes: number;
  comments: number;
  liked: boolean;
  saved: boolean;
  unlocked: boolean;
  subscribed: boolean;
  /** The creator's account is suspended (access: `creatorSuspendedSql`); read fresh like the rest. */
  creatorSuspended: boolean;
  /** The viewer and the creator blocked one another (either way): no media (ADR 0043). */
  blocked: boolean;
}

/**
 * One viewer's own relation to a post (what no other viewer shares: likes, saves, unlocks,
 * subscriptions, a block either way), and whether its creator is suspended (an access column, read
 * fresh like the post's own).
 */
export type PostViewerFlags = Pick<
  PostViewerFields,
  'liked' | 'saved' | 'unlocked' | 'subscribed' | 'creatorSuspended' | 'blocked'
>;

/** What a viewer's page reads fresh on every request (`viewerState`). */
export type PostViewerState = PostViewerFlags &
  Pick<PostRow, 'creatorId' | 'status' | 'adminStatus' | 'publishAt' | 'publishedAt' | 'visibility'>;

/** A page row without the viewer's own relation to it (`sharedPage`): counts included. */
export type SharedPostRow = Omit<PostListRow, keyof PostViewerFlags>;

export interface PostListRow extends PostRow, PostViewerFields {
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
  /** The post's files in position order (read with the page, not by another statement). */
  media: MediaRow[];
}

export interface ListFilter {
  where: SQL | undefined;
  /** `live`: stories newest live first (`storyStartSql`, what `posts_story_live_idx` indexes). */
  order: 'newest' | 'popular' | 'scheduled' | 'live';
  /** Ordered by this first (highest first), then by `order`: a search's relevance. */
  rank?: SQL;
  page: number;
  limit: number;
}

export type NewPost = typeof posts.$inferInsert;

/** SQL: a JSON object of named values, keyed by the property names given (our own, never input). */
const jsonObjectSql = (fields: Record<string, SQLWrapper>): SQL =>
  sql`json_build_object(${sql.join(
    Object.entries(fields).map(([key, value]) => sql`${sql.raw(`'${key}'`)}, ${value}`),
    sql`, `,
  )})`;

const mediaColumns = Object.entries(getTableColumns(media));
/**
 * A post's files as one JSON array, in position order: the page query carries them, so a feed
 * page needs no second statement for its media. Keys are the MediaRow property names.
 */
const mediaJsonSql = sql`(SELECT coalesce(json_agg(${jsonObjectSql(
  Object.fromEntries(mediaColumns.map(([key, column]) => [key, sql`m.${sql.identifier(column.name)}`])),
)} ORDER BY pm.position), '[]'::json) FROM ${postMedia} pm JOIN ${media} m ON m.id = pm.media_id WHERE pm.post_id = ${posts.id})`;
const mediaDateKeys = mediaColumns.filter(([, c]) => c.dataType === 'date').map(([key]) => key);

/** A MediaRow from its JSON form (timestamps come back as text). */
function mediaFromJson(value: unknown): MediaRow[] {
  const list = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>[] | null;
  return (list ?? []).map((m) => {
    for (const key of mediaDateKeys) if (typeof m[key] === 'string') m[key] = new Date(m[key] as string);
    return m as unknown as MediaRow;
  });
}

/** The viewer id used when nobody is signed in (matches no row). */
const NO_VIEWER = '00000000-0000-0000-0000-000000000000';

const likesCountSql = sql<number>`(SELECT count(*)::int FROM ${postLikes} l WHERE l.post_id = ${posts.id})`;
const commentsCountSql = sql<number>`(SELECT count(*)::int FROM ${comments} c WHERE c.post_id = ${posts.id})`;

/** The columns of a page that every viewer shares. */
const pageFields = {
  post: posts,
  author: publicUserColumns,
  media: mediaJsonSql,
};

/**
 * One viewer's own relation to a post, each flag an SQL condition (`viewer`, `post` and `creator`:
 * values, placeholders or columns). The one definition `list` and `viewerState` both use.
 */
function viewerFlagsSql(viewer: SQLWrapper | string, post: SQLWrapper, creator: SQLWrapper) {
  return {
    liked: sql<boolean>`EXISTS (SELECT 1 FROM ${postLikes} l WHERE l.post_id = ${post} AND l.user_id = ${viewer})`,
    saved: sql<boolean>`EXISTS (SELECT 1 FROM ${postSaves} s WHERE s.post_id = ${post} AND s.user_id = ${viewer})`,
    unlocked: sql<boolean>`EXISTS (SELECT 1 FROM ${unlocks} u WHERE u.post_id = ${post} AND u.user_id = ${viewer})`,
    subscribed: subscribedSql(viewer, creator).mapWith(Boolean),
    blocked: blockedEitherWaySql(creator, viewer).mapWith(Boolean),
  } satisfies Record<PairFlag, SQL>;
}

/** Counts and one viewer's relation to each post (`viewer`: a uuid value or placeholder). */
function viewerFields(viewer: SQLWrapper | string) {
  return {
    likes: likesCountSql,
    comments: commentsCountSql,
    ...viewerFlagsSql(viewer, posts.id, posts.creatorId),
    creatorSuspended: creatorSuspendedSql(posts.creatorId).mapWith(Boolean),
  };
}

type ViewerFields = {
  likes: unknown;
  comments: unknown;
  liked: unknown;
  saved: unknown;
  unlocked: unknown;
  subscribed: unknown;
  creatorSuspended: unknown;
  blocked: unknown;
};

/** The viewer's flags of one row, as booleans (drivers answer them as booleans, 0/1 or text). */
function flagsOf(r: Omit<ViewerFields, 'likes' | 'comments'>) {
  return {
    liked: Boolean(r.liked),
    saved: Boolean(r.saved),
    unlocked: Boolean(r.unlocked),
    subscribed: Boolean(r.subscribed),
    creatorSuspended: Boolean(r.creatorSuspended),
    blocked: Boolean(r.blocked),
  };
}

function viewerRow(r: ViewerFields): PostViewerFields {
  return { likes: Number(r.likes), comments: Number(r.comments), ...flagsOf(r) };
}

function pageRow(r: {
  post: PostRow;
  author: PostListRow['author'];
  media: unknown;
}): Omit<PostListRow, keyof PostViewerFields> {
  return { ...r.post, author: r.author, media: mediaFromJson(r.media) };
}

function orderOf(filter: ListFilter): SQL[] {
  const order =
    filter.order === 'popular'
      ? [desc(likesCountSql), desc(posts.createdAt)]
      : filter.order === 'scheduled'
        ? [asc(posts.publishAt)]
        : filter.order === 'live'
          ? [desc(storyStartSql()), desc(posts.createdAt)]
          : [desc(posts.createdAt)];
  if (filter.rank) order.unshift(desc(filter.rank));
  return order;
}

/** One viewer's page (`viewerState`): who asks, about which posts. */
interface ViewerStateAsk {
  viewer: string;
  ids: string[];
}

/** The flags that belong to a (viewer, post) pair, not to the post alone. */
const PAIR_FLAGS = [
  'liked',
  'saved',
  'unlocked',
  'subscribed',
  'blocked',
] as const satisfies readonly (keyof PostViewerFlags)[];
type PairFlag = (typeof PAIR_FLAGS)[number];
/** A pair's flags before the answer names it: none holds. */
const NO_PAIR_FLAGS = Object.fromEntries(PAIR_FLAGS.map((flag) => [flag, false])) as Record<
  PairFlag,
  boolean
>;

/**
 * A post asked about in `viewerState`'s answer, once however many pairs name it: its id and what of
 * `PostViewerState` is the post's own (the same for every viewer), under the same names,
 * timestamps as text.
 */
type ViewerStatePost = Omit<PostViewerState, PairFlag | 'publishAt' | 'publishedAt'> & {
  id: string;
  publishAt: string | null;
  publishedAt: string | null;
};

/**
 * `viewerState`'s answer as its statement builds it (one JSON object): the posts asked about that
 * are there, and for each flag of a pair the pairs it holds for, by their place in the arrays
 * asked about (from 1). Every other pair's flag is false. (`json_agg` of no rows is null.)
 */
type ViewerStatesAnswer = { posts: ViewerStatePost[] | null } & Record<PairFlag, number[] | null>;

/**
 * `viewerState`'s statement, prepared once per connection (no parsing or planning per request),
 * for the pages of every request that asked in the same turn of the event loop: the (viewer, post)
 * pairs come as arrays (`unnest`, with each pair's place in them).
 * - The posts are read once each, each by one primary-key probe, with their creator's account
 *   (another). Both are LATERAL subqueries with LIMIT 1, so they stay nested loops of index probes
 *   whatever the sizes (the prepared statement's generic plan read the whole `posts` table of the
 *   benchmark's store through a hash join for `id = ANY(ids)`). The posts' subquery takes the
 *   table's name as its alias, so the columns below name it as the query builder does. Posts of a
 *   deleted creator are left out; the creator's suspension is read.
 * - Each flag (likes, saves, unlocks, subscription, blocks either way, by the rules `list` uses:
 *   `viewerFlagsSql`) lists the pairs it holds for. The planner makes each a semi-join of the
 *   pairs: index probes into large tables (likes), a hash of a small one (the benchmark's thousand
 *   subscriptions). Kept as a probe per pair (in an aggregate's FILTER), PostgreSQL spent a quarter
 *   more time on the statement (0.76–0.81 against 0.61–0.67 ms for 16 pages of 12 posts).
 *
 * One statement for many requests (issue 13): under load the round trip to PostgreSQL was most of
 * a signed-in feed page's cost, and it is now shared by the requests that arrive together. The
 * answer is one JSON value (`ViewerStatesAnswer`, keyed by name), which the driver parses
 * natively in one call. It holds each post once and each flag as the short list of pairs it holds
 * for, not every column for every pair: with 16 pages of 12 posts that is ~3 KB against 66 KB,
 * and PostgreSQL spends half the time on it (ADR 0017).
 */
function prepareViewerStates(db: Db) {
  const post: Record<keyof ViewerStatePost, SQLWrapper> = {
    id: posts.id,
    creatorId: posts.creatorId,
    status: posts.status,
    adminStatus: posts.adminStatus,
    publishAt: posts.publishAt,
    publishedAt: posts.publishedAt,
    visibility: posts.visibility,
    creatorSuspended: accountSuspendedSql(sql`live_creator.suspended_at`),
  };
  const flags = viewerFlagsSql(sql`fv_pair.viewer`, sql`fv_pair.post_id`, sql`fv_pair.creator_id`);
  const answer: Record<keyof ViewerStatesAnswer, SQLWrapper> = {
    posts: sql`(SELECT json_agg(fv_post.state) FROM fv_post)`,
    ...(Object.fromEntries(
      PAIR_FLAGS.map((flag) => [flag, sql`(SELECT json_agg(fv_pair.ord) FROM fv_pair WHERE ${flags[flag]})`]),
    ) as Record<PairFlag, SQL>),
  };
  // Each array is sent once (the driver writes every parameter out as text).
  const viewers = sql`${sql.placeholder('viewers')}::uuid[]`;
  const ids = sql`${sql.placeholder('ids')}::uuid[]`;
  return db
    .select({ answer: sql<ViewerStatesAnswer>`fv_answer.answer` })
    .from(
      sql`(WITH fv_ask AS MATERIALIZED (
          SELECT * FROM unnest(${viewers}, ${ids}) WITH ORDINALITY AS fv_ask(viewer, post_id, ord)
        ), fv_post AS MATERIALIZED (
          SELECT ${posts.id} AS id, ${posts.creatorId} AS creator_id, ${jsonObjectSql(post)} AS state
          FROM (SELECT DISTINCT post_id FROM fv_ask) fv_id
          JOIN LATERAL (SELECT * FROM ${posts} WHERE ${posts.id} = fv_id.post_id LIMIT 1) ${posts} ON true
          JOIN LATERAL (SELECT u.suspended_at FROM ${users} u WHERE u.id = ${posts.creatorId} AND u.deleted_at IS NULL LIMIT 1) live_creator ON true
        ), fv_pair AS MATERIALIZED (
          SELECT fv_ask.viewer, fv_ask.post_id, fv_ask.ord, fv_post.creator_id
          FROM fv_ask JOIN fv_post ON fv_post.id = fv_ask.post_id
        ) SELECT ${jsonObjectSql(answer)} AS answer) fv_answer`,
    )
    .prepare('posts_viewer_states');
}

/** A timestamp of a JSON answer (ISO 8601 with its offset) as a Date. */
const jsonDate = (value: string | null): Date | null => (value === null ? null : new Date(value));

/** Posts, their media links, likes, saves and entitlements. Queries only. */
export class PostRepository {
  private readonly dialect = new PgDialect();
  private viewerStatesQuery?: ReturnType<typeof prepareViewerStates>;
  /** Pages asked for in the same turn of the event loop share one statement. */
  private readonly viewerStates = sameTurnReads((asks: readonly ViewerStateAsk[]) =>
    this.loadViewerStates(asks),
  );
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
    const viewer = viewerId ?? NO_VIEWER;
    const rows = await this.db
      .select({ ...pageFields, ...viewerFields(viewer) })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.creatorId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(this.inPage(filter))
      .orderBy(...orderOf(filter));
    return {
      rows: rows.slice(0, filter.limit).map((r) => ({ ...pageRow(r), ...viewerRow(r) })),
      hasMore: rows.length > filter.limit,
    };
  }

  /**
   * The part of a page that is the same for every signed-in viewer (posts, authors, files), in one
   * statement; the viewer's part comes from `viewerState`. The feeds cache this part briefly.
   */
  async sharedPage(filter: ListFilter): Promise<{ rows: SharedPostRow[]; hasMore: boolean }> {
    const rows = await this.db
      .select({ ...pageFields, likes: likesCountSql, comments: commentsCountSql })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.creatorId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(this.inPage(filter))
      .orderBy(...orderOf(filter));
    return {
      rows: rows
        .slice(0, filter.limit)
        .map((r) => ({ ...pageRow(r), likes: Number(r.likes), comments: Number(r.comments) })),
      hasMore: rows.length > filter.limit,
    };
  }

  /**
   * What one viewer's page must read fresh, by post id, in one prepared statement: the columns
   * access decisions use (state, review, schedule, when it went live, visibility; posts whose
   * creator was deleted are left out) and the viewer's likes, saves, unlocks and subscriptions
   * (the counts are shared).
   */
  viewerState(viewerId: string | null, postIds: string[]): Promise<Map<string, PostViewerState>> {
    if (!postIds.length) return Promise.resolve(new Map());
    return this.viewerStates.load({ viewer: viewerId ?? NO_VIEWER, ids: postIds });
  }

  /** The pages of one batch, in one statement (`prepareViewerStates`). */
  private async loadViewerStates(asks: readonly ViewerStateAsk[]): Promise<Map<string, PostViewerState>[]> {
    const viewers: string[] = [];
    const ids: string[] = [];
    /** Each pair's page (its place in `asks`), by the pair's place in the arrays. */
    const pageOf: number[] = [];
    asks.forEach((ask, page) => {
      for (const id of ask.ids) {
        viewers.push(ask.viewer);
        ids.push(id);
        pageOf.push(page);
      }
    });
    this.viewerStatesQuery ??= prepareViewerStates(this.db);
    const [row] = await this.viewerStatesQuery.execute({ viewers, ids });
    const answer = row?.answer;
    const postsById = new Map<string, Omit<PostViewerState, PairFlag>>();
    for (const { id, publishAt, publishedAt, ...own } of answer?.posts ?? []) {
      postsById.set(id, { ...own, publishAt: jsonDate(publishAt), publishedAt: jsonDate(publishedAt) });
    }
    // Each pair's state: its post's, and every flag false but where the answer names the pair.
    const states = ids.map((id): PostViewerState | undefined => {
      const own = postsById.get(id);
      return own && { ...own, ...NO_PAIR_FLAGS };
    });
    for (const flag of PAIR_FLAGS) {
      // ORDINALITY counts from 1.
      for (const pair of answer?.[flag] ?? []) {
        const state = states[pair - 1];
        if (state) state[flag] = true;
      }
    }
    const out = asks.map(() => new Map<string, PostViewerState>());
    states.forEach((state, pair) => {
      if (state) out[pageOf[pair]!]!.set(ids[pair]!, state);
    });
    return out;
  }

  /**
   * The rows of a page: `id = ANY(ARRAY(page ids))`, so the ids are chosen once, first (an
   * InitPlan), and the page's rows read by primary key. `id IN (page ids)` let the planner hash the
   * ids against a sequential scan of posts when it expected a page of more than a few dozen rows
   * (a stories list on a small store).
   */
  private inPage(filter: ListFilter): SQL {
    return sql`${posts.id} = ANY(ARRAY(${this.pageIds(filter)}))`;
  }

  /** The ids of a page (filter, order, offset), one more than the page to answer `hasMore`. */
  private pageIds(filter: ListFilter) {
    return this.db
      .select({ id: posts.id })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.creatorId))
      .where(and(filter.where, isNull(users.deletedAt)))
      .orderBy(...orderOf(filter))
      .limit(filter.limit + 1)
      .offset((filter.page - 1) * filter.limit);
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
  /** The live posts waiting for this file to be processed (a vault file can be in several). */
  async holding(mediaId: string): Promise<PostRow[]> {
    const rows = await this.db
      .select({ post: posts })
      .from(postMedia)
      .innerJoin(posts, eq(posts.id, postMedia.postId))
      .where(
        and(eq(postMedia.mediaId, mediaId), eq(posts.status, 'active'), eq(posts.adminStatus, 'processing')),
      );
    return rows.map((r) => r.post);
  }

  async findRow(postId: string): Promise<PostRow | undefined> {
    const [row] = await this.db.select().from(posts).where(eq(posts.id, postId)).limit(1);
    return row;
  }

  /** A post's figures for its statistics overlay: one statement, each count on its post index. */
  async figures(
    postId: string,
  ): Promise<{ likes: number; comments: number; saves: number; unlocks: number }> {
    const of = (table: typeof postLikes | typeof postSaves | typeof comments | typeof unlocks) =>
      sql<number>`(SELECT count(*)::int FROM ${table} WHERE ${table.postId} = ${postId})`;
    const [row] = await this.db
      .select({ likes: of(postLikes), comments: of(comments), saves: of(postSaves), unlocks: of(unlocks) })
      .from(sql`(SELECT 1) AS one`);
    return row ?? { likes: 0, comments: 0, saves: 0, unlocks: 0 };
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

  /**
   * Records a moderator's decision. A post no longer approved is no longer live: its `published_at`
   * is cleared, so approved again it goes live again (`markPublished`), and a story restored by a
   * moderator lives its day from then.
   */
  async setReview(
    postId: string,
    adminStatus: AdminStatus,
    reason: string | null,
    reviewerId: string,
    at: Date,
  ) {
    await this.db
      .update(posts)
      .set({
        adminStatus,
        reviewReason: reason,
        reviewedBy: reviewerId,
        reviewedAt: at,
        ...(adminStatus === 'approved' ? {} : { publishedAt: null }),
      })
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

  /** Records when an approved post went live, once (until it leaves approval: edit, `setReview`). */
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

  /** The post holds a video (the /watch page and reels). */
  hasVideoSql(): SQL {
    return sql`EXISTS (SELECT 1 FROM ${postMedia} pm JOIN ${media} m ON m.id = pm.media_id
      WHERE pm.post_id = ${posts.id} AND m.kind = 'video')`;
  }

  /** The number of followers of the post's creator (a rank: the most followed creators first). */
  creatorFollowersSql(): SQL {
    return sql`(SELECT count(*) FROM ${follows} f WHERE f.creator_id = ${posts.creatorId})`;
  }

  async countByReview(kind: 'post' | 'story'): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(posts)
      .where(and(eq(posts.kind, kind), inArray(posts.adminStatus, ['new', 'pending']), livePostSql()));
    return row?.n ?? 0;
  }
}
