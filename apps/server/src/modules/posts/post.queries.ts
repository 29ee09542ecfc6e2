import type { AdminStatus } from '@fanverse/contract';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { currentStorySql, freeToEveryoneSql, livePostSql, publishedPostSql } from '../../access/index.ts';
import { posts } from '../../db/schema.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { escapeLike } from '../search/spelling.ts';
import type { ListFilter, PostRepository } from './post.repository.ts';

export interface PostFeedQuery {
  feed?: string;
  content?: 'all' | 'saved' | 'bought';
  view?: string;
  creator?: string;
  post?: string;
  adminStatus?: AdminStatus | 'all';
  explore?: string;
  feed_mode?: 'plus' | 'grid';
  video?: boolean;
  page: number;
  limit: number;
}

/**
 * Which posts a feed of spec §2 shows. Visibility of each row is decided again by the policy;
 * this only narrows the query.
 */
export function feedFilter(
  repo: PostRepository,
  auth: AuthInfo | null,
  q: PostFeedQuery,
  creatorId: string | undefined,
  seesUnreviewed: boolean,
  /** Publication times are compared with this (undefined: the database's clock). */
  now: Date | undefined,
): ListFilter {
  // Explore's popular free posts, in the home feed's branch of `feedWhere` only.
  const homeFeed = !q.adminStatus && !q.post && !creatorId && !(q.feed === 'my_content' && auth);
  const order: ListFilter['order'] = homeFeed && q.explore !== undefined ? 'popular' : 'newest';
  const page = q.post && !q.adminStatus ? 1 : q.page;
  const limit = q.post && !q.adminStatus ? 1 : q.limit;
  // Built when first read: a page served from the shared cache with a cached total never reads it.
  let where: SQL | undefined | null = null;
  return {
    order,
    page,
    limit,
    get where() {
      if (where === null) where = feedWhere(repo, auth, q, creatorId, seesUnreviewed, now);
      return where;
    },
  };
}

/** The conditions of `feedFilter`. */
function feedWhere(
  repo: PostRepository,
  auth: AuthInfo | null,
  q: PostFeedQuery,
  creatorId: string | undefined,
  seesUnreviewed: boolean,
  now: Date | undefined,
): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  const approved = publishedPostSql(posts, now);

  if (q.adminStatus) {
    // The moderators' ratings tab: All, Approved, Disapproved, New (new and pending wait together).
    parts.push(livePostSql());
    if (q.adminStatus === 'new' || q.adminStatus === 'pending') {
      parts.push(inArray(posts.adminStatus, ['new', 'pending']));
    } else if (q.adminStatus !== 'all') {
      parts.push(eq(posts.adminStatus, q.adminStatus));
    }
    if (creatorId) parts.push(eq(posts.creatorId, creatorId));
    return and(...parts);
  }

  parts.push(livePostSql());
  if (q.post) {
    parts.push(eq(posts.id, q.post));
    return and(...parts);
  }
  parts.push(eq(posts.kind, 'post'));

  if (creatorId) {
    parts.push(eq(posts.creatorId, creatorId));
    if (!seesUnreviewed) parts.push(approved);
  } else if (q.feed === 'my_content' && auth) {
    parts.push(approved);
    if (q.content === 'saved') parts.push(repo.savedBySql(auth.userId));
    else if (q.content === 'bought') parts.push(repo.unlockedBySql(auth.userId));
    else parts.push(repo.followedCreatorsSql(auth.userId));
  } else {
    parts.push(approved);
    // Visitors' home and explore (spec §6): free posts only; the rest waits behind a sign-up.
    if (!auth) parts.push(freeToEveryoneSql(posts, now));
    if (q.feed === 'gallery') parts.push(repo.hasMediaSql());
    // Explore's popular free posts (ordered 'popular').
    if (q.explore !== undefined) parts.push(eq(posts.visibility, 'free'));
  }
  if (q.feed_mode === 'plus') parts.push(eq(posts.visibility, 'ppv'));
  if (q.feed_mode === 'grid') parts.push(repo.hasMediaSql());
  if (q.video) parts.push(repo.hasVideoSql());
  return and(...parts);
}

/**
 * Current stories (within their lifetime, the access module's rule): a creator's (all states for
 * the owner), or of followed creators; for a visitor (no viewer) only stories free to everyone, a
 * creator's or every creator's (ADR 0038).
 */
export function storiesFilter(
  repo: PostRepository,
  viewerId: string | null,
  creatorId: string | undefined,
  seesUnreviewed: boolean,
  now: Date | undefined,
): SQL | undefined {
  return and(
    eq(posts.kind, 'story'),
    // Also part of `publishedPostSql`; stated alone it is a range `posts_story_live_idx` serves.
    currentStorySql(posts, now),
    seesUnreviewed ? livePostSql() : publishedPostSql(posts, now),
    viewerId ? undefined : freeToEveryoneSql(posts, now),
    creatorId ? eq(posts.creatorId, creatorId) : viewerId ? repo.followedCreatorsSql(viewerId) : undefined,
  );
}

/**
 * Published posts whose text has every typed word (hashtags are words of the text): the word
 * itself or a close spelling (pg_trgm word similarity, the posts_message_trgm_idx index), most
 * similar first, then most liked.
 */
export function searchFilter(
  words: readonly string[],
  page: number,
  limit: number,
  now: Date | undefined,
): ListFilter {
  const text = sql`lower(${posts.message})`;
  const matches = words.map((w) => sql`(${text} LIKE ${`%${escapeLike(w)}%`} OR ${w} <% ${text})`);
  const rank = sql.join(
    words.map((w) => sql`word_similarity(${w}, ${text})`),
    sql` + `,
  );
  return {
    where: and(livePostSql(), eq(posts.kind, 'post'), publishedPostSql(posts, now), ...matches),
    order: 'popular',
    rank,
    page,
    limit,
  };
}
