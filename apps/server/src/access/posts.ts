import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { posts, users } from '../db/schema.ts';
import { isOwner, isStaff, type Viewer } from './roles.ts';

/**
 * What decides whether a post exists for a viewer. `kind`, `publishedAt`, `publishAt` and
 * `createdAt`: a story is published only within its lifetime (`isCurrent`, from `storyStart`).
 */
export type PostState = {
  creatorId: string;
  status: string;
  adminStatus: string;
  publishAt?: Date | null;
  /**
   * When it went live (approval, or the scheduled-publication job); null before, and once it
   * leaves approval.
   */
  publishedAt: Date | null;
  kind: string;
  createdAt: Date;
};

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
export type PostColumns = {
  status: SQLWrapper;
  adminStatus: SQLWrapper;
  publishAt: SQLWrapper;
  publishedAt: SQLWrapper;
  kind: SQLWrapper;
  createdAt: SQLWrapper;
};

/** How long a story lives (spec: stories are seen for a day), counted from when it went live. */
export const STORY_LIFETIME_MS = 24 * 3600_000;

/** `now` as SQL: the app's clock when given, else the database's. */
const sqlTime = (now?: Date): SQL => (now ? sql`${now.toISOString()}::timestamptz` : sql`now()`);

/** A post that has not been deleted (its creator and staff still see it while in review). */
export const isLivePost = (post: Pick<PostState, 'status'>): boolean => post.status === 'active';

type LifetimeFields = Pick<PostState, 'kind' | 'publishedAt' | 'publishAt' | 'createdAt'>;

/**
 * When a story's lifetime starts (null for a post, which has none): when it went live
 * (`published_at`, recorded at approval, by the scheduled-publication job, or by "publish now";
 * cleared when it goes back to review or is taken down). An approved story whose scheduled time
 * came before its job ran went live at that time (`publish_at`: feeds compare it with the clock,
 * so a late job neither hides nor shortens it). A story not live (in review, rejected) is not
 * published whatever this says; its lifetime then counts from its scheduled time or its writing,
 * which only bounds how long its creator's row lists it.
 */
export const storyStart = (post: LifetimeFields): Date | null =>
  post.kind === 'story' ? (post.publishedAt ?? post.publishAt ?? post.createdAt) : null;

/**
 * SQL twin of `storyStart`: the expression `posts_story_live_idx` indexes (the same text, or the
 * planner cannot match it). Null for posts rather than a partial index: the index's statistics
 * then tell the planner how few stories are current.
 */
export const storyStartSql = (
  t: Pick<PostColumns, 'kind' | 'publishedAt' | 'publishAt' | 'createdAt'> = posts,
): SQL =>
  sql`(CASE WHEN ${t.kind} = 'story' THEN COALESCE(${t.publishedAt}, ${t.publishAt}, ${t.createdAt}) END)`;

/** When a story stops being published: 24 h after `storyStart` (null for a post, which does not expire). */
export const storyEnd = (post: LifetimeFields): Date | null => {
  const start = storyStart(post);
  return start && new Date(start.getTime() + STORY_LIFETIME_MS);
};

/** Within its lifetime: every post, a story until `storyEnd`. */
export const isCurrent = (post: LifetimeFields, now: Date = new Date()): boolean => {
  const end = storyEnd(post);
  return !end || now < end;
};

/**
 * SQL: a story within its lifetime (false for a post), a range on `storyStartSql` that
 * `posts_story_live_idx` serves; `currentPostSql` is the rule for any post.
 */
export const currentStorySql = (
  t: Pick<PostColumns, 'kind' | 'publishedAt' | 'publishAt' | 'createdAt'> = posts,
  now?: Date,
): SQL =>
  sql`(${storyStartSql(t)} > ${sqlTime(now)} - ${sql.raw(`interval '${STORY_LIFETIME_MS / 1000} seconds'`)})`;

/** SQL twin of `isCurrent`. */
export const currentPostSql = (
  t: Pick<PostColumns, 'kind' | 'publishedAt' | 'publishAt' | 'createdAt'> = posts,
  now?: Date,
): SQL => sql`(${t.kind} <> 'story' OR ${currentStorySql(t, now)})`;

/**
 * THE definition of published: live, approved by a moderator, its scheduled time (if any) has
 * come, and for a story within its lifetime (`now` is the app's clock). Fans and visitors see only
 * these; a story's creator and staff still see it after (`canSeePost`).
 */
export const isPublished = (
  post: Pick<PostState, 'status' | 'adminStatus' | 'publishAt' | 'publishedAt' | 'kind' | 'createdAt'>,
  now: Date = new Date(),
): boolean =>
  isLivePost(post) &&
  post.adminStatus === 'approved' &&
  (!post.publishAt || post.publishAt <= now) &&
  isCurrent(post, now);

/** SQL twin of `isLivePost`. */
export const livePostSql = (t: Pick<PostColumns, 'status'> = posts): SQL => sql`(${t.status} = 'active')`;

/** SQL twin of `isPublished` (`now` defaults to the database's clock). */
export const publishedPostSql = (t: PostColumns = posts, now?: Date): SQL =>
  sql`(${livePostSql(t)} AND ${t.adminStatus} = 'approved' AND (${t.publishAt} IS NULL OR ${t.publishAt} <= ${sqlTime(
    now,
  )}) AND ${currentPostSql(t, now)})`;

/**
 * SQL: whether the account of the creator `creatorId` is suspended by staff (one primary-key
 * probe). Posts of deleted creators are left out by the repositories' queries altogether.
 */
export const creatorSuspendedSql = (creatorId: SQLWrapper): SQL =>
  sql`EXISTS (SELECT 1 FROM ${users} cs WHERE cs.id = ${creatorId} AND ${accountSuspendedSql(sql`cs.suspended_at`)})`;

/** SQL: the same rule on a `users` row already at hand (its `suspended_at` column). */
export const accountSuspendedSql = (suspendedAt: SQLWrapper): SQL => sql`(${suspendedAt} IS NOT NULL)`;

/**
 * Content free to everyone (ADR 0038): a published post or story whose visibility is `free`, of a
 * creator whose account is not suspended. The only content whose media a visitor (nobody signed
 * in) gets — pictures signed for `EVERYONE`, and videos through HLS URLs signed for `EVERYONE`,
 * answered only while this holds; subscriber and pay-per-view content never reaches a visitor, not
 * even listed as locked in the story row.
 */
export const isFreeToEveryone = (
  post: Pick<
    PostEntitlement,
    | 'status'
    | 'adminStatus'
    | 'publishAt'
    | 'publishedAt'
    | 'kind'
    | 'createdAt'
    | 'visibility'
    | 'creatorSuspended'
  >,
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
 * unlocked them, pay-per-view posts to those who unlocked them; stories alike while current (a
 * paid story too: what was bought is a day's story). Nobody blocked by the creator, or who blocked
 * them, gets them (ADR 0043). Everyone else gets the preview.
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

/**
 * When a viewer's sight of a post's media ends by the clock alone (null: no end known in advance):
 * a story's end, but not for its creator and staff, who still see it after. Bearer URLs signed for
 * the viewer (pictures) expire no later, so none outlives the story.
 */
export function mediaSeenUntil(viewer: Viewer, post: PostState): Date | null {
  return isStaff(viewer) || isOwner(viewer, post) ? null : storyEnd(post);
}
