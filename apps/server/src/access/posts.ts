import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { posts } from '../db/schema.ts';
import { isOwner, isStaff, type Viewer } from './roles.ts';

/** What decides whether a post exists for a viewer. */
export type PostState = { creatorId: string; status: string; adminStatus: string; publishAt?: Date | null };

/** What decides whether a viewer may see a post's media. */
export type PostEntitlement = PostState & { visibility: string; subscribed: boolean; unlocked: boolean };

/** Columns of `posts` or of an alias of it. */
export type PostColumns = { status: SQLWrapper; adminStatus: SQLWrapper; publishAt: SQLWrapper };

/** A post that has not been deleted (its creator and staff still see it while in review). */
export const isLivePost = (post: Pick<PostState, 'status'>): boolean => post.status === 'active';

/**
 * THE definition of published: live, approved by a moderator, and its scheduled time (if any) has
 * come (`now` is the app's clock). Fans see only these.
 */
export const isPublished = (
  post: Pick<PostState, 'status' | 'adminStatus' | 'publishAt'>,
  now: Date = new Date(),
): boolean =>
  isLivePost(post) && post.adminStatus === 'approved' && (!post.publishAt || post.publishAt <= now);

/** SQL twin of `isLivePost`. */
export const livePostSql = (t: Pick<PostColumns, 'status'> = posts): SQL => sql`(${t.status} = 'active')`;

/** SQL twin of `isPublished` (`now` defaults to the database's clock). */
export const publishedPostSql = (t: PostColumns = posts, now?: Date): SQL =>
  sql`(${livePostSql(t)} AND ${t.adminStatus} = 'approved' AND (${t.publishAt} IS NULL OR ${t.publishAt} <= ${
    now ? sql`${now.toISOString()}::timestamptz` : sql`now()`
  }))`;

/**
 * Content free to everyone (ADR 0038): a published post or story whose visibility is `free`. The
 * only content whose media a visitor (nobody signed in) gets; subscriber and pay-per-view content
 * never reaches a visitor, not even listed as locked in the story row.
 */
export const isFreeToEveryone = (
  post: Pick<PostEntitlement, 'status' | 'adminStatus' | 'publishAt' | 'visibility'>,
  now: Date = new Date(),
): boolean => isPublished(post, now) && post.visibility === 'free';

/** SQL twin of `isFreeToEveryone`. */
export const freeToEveryoneSql = (t: PostColumns & { visibility: SQLWrapper } = posts, now?: Date): SQL =>
  sql`(${publishedPostSql(t, now)} AND ${t.visibility} = 'free')`;

/** Who may see that a post exists: published ones everyone; live ones their creator; all of them staff. */
export function canSeePost(viewer: Viewer, post: PostState, now: Date = new Date()): boolean {
  if (isStaff(viewer)) return true;
  if (isOwner(viewer, post)) return isLivePost(post);
  return isPublished(post, now);
}

/**
 * Who may see a post's media (spec §4/§6): its creator and staff, and fans entitled to it — free
 * posts to everyone (visitors too, ADR 0038), subscriber posts to active subscribers and to whoever
 * unlocked them, pay-per-view posts to those who unlocked them. Everyone else gets the preview.
 */
export function canSeeMedia(viewer: Viewer, post: PostEntitlement, now: Date = new Date()): boolean {
  if (!viewer) return isFreeToEveryone(post, now);
  if (isOwner(viewer, post) || isStaff(viewer)) return true;
  if (!isPublished(post, now)) return false;
  switch (post.visibility) {
    case 'free':
      return true;
    case 'subscribers':
      return post.subscribed || post.unlocked;
    case 'ppv':
      return post.unlocked;
    default:
      return false;
  }
}
