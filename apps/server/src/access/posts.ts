import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { posts, users } from '../db/schema.ts';
import { isOwner, isStaff, type Viewer } from './roles.ts';

/** What decides whether a post exists for a viewer. */
export type PostState = { creatorId: string; status: string; adminStatus: string; publishAt?: Date | null };

/**
 * What decides whether a viewer may see a post's media. `creatorSuspended`: staff suspended the
 * creator's account (`creatorSuspendedSql`); their content is then no longer free to everyone.
 */
export type PostEntitlement = PostState & {
  visibility: string;
  subscribed: boolean;
  unlocked: boolean;
  creatorSuspended: boolean;
  /** The viewer and the post's creator blocked one another (either way). */
  blocked?: boolean;
};

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
 * SQL: whether the account of the creator `creatorId` is suspended by staff (one primary-key
 * probe). Posts of deleted creators are left out by the repositories' queries altogether.
 */
export const creatorSuspendedSql = (creatorId: SQLWrapper): SQL =>
  sql`EXISTS (SELECT 1 FROM ${users} cs WHERE cs.id = ${creatorId} AND cs.suspended_at IS NOT NULL)`;

/**
 * Content free to everyone (ADR 0038): a published post or story whose visibility is `free`, of a
 * creator whose account is not suspended. The only content whose media a visitor (nobody signed
 * in) gets — pictures signed for `EVERYONE`, and videos through HLS URLs signed for `EVERYONE`,
 * answered only while this holds; subscriber and pay-per-view content never reaches a visitor, not
 * even listed as locked in the story row.
 */
export const isFreeToEveryone = (
  post: Pick<PostEntitlement, 'status' | 'adminStatus' | 'publishAt' | 'visibility' | 'creatorSuspended'>,
  now: Date = new Date(),
): boolean => isPublished(post, now) && post.visibility === 'free' && !post.creatorSuspended;

/** SQL twin of `isFreeToEveryone`. */
export const freeToEveryoneSql = (
  t: PostColumns & { visibility: SQLWrapper; creatorId: SQLWrapper } = posts,
  now?: Date,
): SQL =>
  sql`(${publishedPostSql(t, now)} AND ${t.visibility} = 'free' AND NOT ${creatorSuspendedSql(t.creatorId)})`;

/** Who may see that a post exists: published ones everyone; live ones their creator; all of them staff. */
export function canSeePost(viewer: Viewer, post: PostState, now: Date = new Date()): boolean {
  if (isStaff(viewer)) return true;
  if (isOwner(viewer, post)) return isLivePost(post);
  return isPublished(post, now);
}

/**
 * Who may play a locked video's free preview (issue 16): whoever may see that the post exists,
 * except a fan blocked by the creator or who blocked them (a blocked pair don't see each other's
 * content, ADR 0043); the creator and staff always.
 */
export function canSeePreview(
  viewer: Viewer,
  post: PostState & Pick<PostEntitlement, 'blocked'>,
  now: Date = new Date(),
): boolean {
  if (!canSeePost(viewer, post, now)) return false;
  return isStaff(viewer) || isOwner(viewer, post) || !post.blocked;
}

/**
 * Who may see a post's media (spec §4/§6): its creator and staff, and fans entitled to it — free
 * posts to everyone (visitors too, ADR 0038), subscriber posts to active subscribers and to whoever
 * unlocked them, pay-per-view posts to those who unlocked them; stories alike. Nobody blocked by the
 * creator, or who blocked them, gets them (ADR 0043). Everyone else gets the preview.
 */
export function canSeeMedia(viewer: Viewer, post: PostEntitlement, now: Date = new Date()): boolean {
  if (!viewer) return isFreeToEveryone(post, now);
  if (isOwner(viewer, post) || isStaff(viewer)) return true;
  if (!isPublished(post, now) || post.blocked) return false;
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
