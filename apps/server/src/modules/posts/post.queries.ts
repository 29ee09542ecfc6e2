import type { AdminStatus } from '@fanverse/contract';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { livePostSql, publishedPostSql } from '../../access/index.ts';
import { posts } from '../../db/schema.ts';
import type { AuthInfo } from '../../http/guards.ts';
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
  const parts: (SQL | undefined)[] = [];
  let order: ListFilter['order'] = 'newest';
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
    return { where: and(...parts), order, page: q.page, limit: q.limit };
  }

  parts.push(livePostSql());
  if (q.post) {
    parts.push(eq(posts.id, q.post));
    return { where: and(...parts), order, page: 1, limit: 1 };
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
    if (q.feed === 'gallery') parts.push(repo.hasMediaSql());
    if (q.explore !== undefined) order = 'popular';
  }
  if (q.feed_mode === 'plus') parts.push(eq(posts.visibility, 'ppv'));
  if (q.feed_mode === 'grid') parts.push(repo.hasMediaSql());
  return { where: and(...parts), order, page: q.page, limit: q.limit };
}

/** Stories of the last day: a creator's (all states for the owner), or of followed creators. */
export function storiesFilter(
  repo: PostRepository,
  viewerId: string,
  creatorId: string | undefined,
  seesUnreviewed: boolean,
  since: Date,
  now: Date | undefined,
): SQL | undefined {
  return and(
    eq(posts.kind, 'story'),
    seesUnreviewed ? livePostSql() : publishedPostSql(posts, now),
    repo.recentSql(since),
    creatorId ? eq(posts.creatorId, creatorId) : repo.followedCreatorsSql(viewerId),
  );
}
