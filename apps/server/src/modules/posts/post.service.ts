import type { PostsResponse, REVIEW_DECISIONS, SearchPostsResponse } from '@fanverse/contract';
import { pageStatistics } from '@fanverse/contract';
import { LRUCache } from 'lru-cache';
import {
  canSeeMedia,
  canSeePost,
  canSeePreview,
  EVERYONE,
  isCreator,
  isLivePost,
  isOwner,
  isStaff,
  mediaSeenUntil,
} from '../../access/index.ts';
import type { MediaRow, PostRow } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { JobSender } from '../../jobs/job.ts';
import type { MediaFollower } from '../../media/media.jobs.ts';
import type { RealtimePublisher } from '../../realtime/publisher.ts';
import type { CreatorService } from '../creators/creator.service.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import { searchWords } from '../search/spelling.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import type { MediaPort, UploadedFile } from './media.port.ts';
import { PUBLISH_POST } from './post.jobs.ts';
import { assertTransition, type PostState, stateOf, storedStatus } from './post.lifecycle.ts';
import { presentPost } from './post.presenter.ts';

type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

import type { PostFeedQuery } from './post.queries.ts';
import { feedFilter, searchFilter, storiesFilter } from './post.queries.ts';
import type { ListFilter, PostListRow, PostRepository, SharedPostRow } from './post.repository.ts';

type SharedPage = { rows: SharedPostRow[]; hasMore: boolean };

export interface PostFieldsInput {
  message: string;
  kind: 'post' | 'story';
  visibility: 'free' | 'subscribers' | 'ppv';
  price: number;
  discountStatus: 'on' | 'off';
  discountPercent: number;
  discountDateLimit: string | null;
  /** ISO time of a scheduled publication; null publishes once approved; absent keeps it (edit). */
  publishAt?: string | null;
  keepMedia?: string[];
  /** Vault files attached again (ADR 0032). */
  vaultMedia?: string[];
  uploadId?: string;
  /** Seconds of free preview of the videos uploaded with this form (0: none). */
  previewSeconds?: number;
}

export interface PostDeps {
  posts: PostRepository;
  media: MediaPort;
  creators: CreatorService;
  notifications: NotificationService;
  publisher: RealtimePublisher;
  /** The job backbone: scheduled publication runs as `posts.publish` jobs. */
  jobs: JobSender;
  now?: () => Date;
}

const MAX_FILES = 20;
/**
 * How long a feed's counted total is fresh (hasMore stays exact; see ADR on feed performance).
 * After that it is still answered while one count runs again (`totals`).
 */
const TOTAL_TTL_MS = 30_000;
/** How long a visitor's feed answer is reused (other servers' writes show after at most this). */
const VISITOR_FEED_TTL_MS = 5_000;
/**
 * How long the part of a signed-in viewer's page that every viewer shares (posts, authors, files,
 * like and comment counts) is reused; what decides access and the viewer's own likes, saves,
 * unlocks and subscriptions are read fresh on every request (`viewerState`).
 */
const SHARED_PAGE_TTL_MS = 5_000;

/** Posts and stories: publishing, the feeds, review, likes and saves. */
export class PostService {
  private readonly now: () => Date;
  /**
   * Counted totals of feed filters; cleared whenever a post is written. A filter is counted by one
   * statement at a time (requests asking meanwhile share it), and a total past its time is answered
   * while it is counted again: on a million posts a count takes hundreds of milliseconds, and each
   * request that missed the cache used to count for itself (issue 13).
   */
  private readonly totals = new LRUCache<string, number, ListFilter['where']>({
    max: 10_000,
    ttl: TOTAL_TTL_MS,
    ttlResolution: 0,
    allowStale: true,
    // A write clears the cache during a count: the requests waiting for it still get its total,
    // which is not kept.
    ignoreFetchAbort: true,
    fetchMethod: (_key, _stale, { context }) => this.deps.posts.count(context),
  });
  /** Visitors' feed answers by query; cleared whenever a post is written. */
  private readonly visitorFeeds = new LRUCache<string, Promise<PostsResponse>>({
    max: 1_000,
    ttl: VISITOR_FEED_TTL_MS,
    ttlResolution: 0,
  });
  /** Shared parts of signed-in viewers' pages by query; cleared whenever a post is written. */
  private readonly sharedPages = new LRUCache<string, Promise<SharedPage>>({
    max: 1_000,
    ttl: SHARED_PAGE_TTL_MS,
    // Reads the clock on every get: the default (a 1 ms cached clock) arms a timer per request.
    ttlResolution: 0,
  });
  constructor(private readonly deps: PostDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * `statistics.total` of a feed page without counting the feed on every request: on the last
   * page it follows from the page itself; otherwise a count reused for a short while (never
   * below what `hasMore` proves). The moderators' queue always counts (its pager shows it).
   */
  private async total(
    filter: ListFilter,
    found: number,
    hasMore: boolean,
    exact: boolean,
    /** A key already naming this filter (else one is derived from its SQL). */
    filterKey?: string,
  ): Promise<number> {
    const before = (filter.page - 1) * filter.limit;
    if (!hasMore && (found > 0 || filter.page === 1)) return before + found;
    if (exact) return this.deps.posts.count(filter.where);
    const key = filterKey ?? this.deps.posts.filterKey(filter.where);
    const counted = await this.totals.forceFetch(key, { context: filter.where });
    return hasMore ? Math.max(counted, filter.page * filter.limit + 1) : Math.min(counted, before);
  }

  /**
   * The time feeds compare `publish_at` with: the app's clock when one was given (tests move it),
   * else the database's `now()`, which keeps the SQL of a feed the same from one request to the
   * next (its counted total and a visitor's answer are cached by that SQL).
   */
  private sqlNow(): Date | undefined {
    return this.deps.now ? this.now() : undefined;
  }

  /** Forgets what was derived from the posts table (after a write). */
  private changed(): void {
    this.totals.clear();
    this.visitorFeeds.clear();
    this.sharedPages.clear();
    this.deps.creators.forgetCounts();
  }

  /**
   * A post's like or comment count changed: the shared parts of signed-in pages carry the counts,
   * so they are read again (visitors' answers keep theirs for up to their few seconds).
   */
  countsChanged(): void {
    this.sharedPages.clear();
  }

  /**
   * Presents rows for one viewer, deciding media access per post (the rows carry their files). A
   * story's signed URLs end with it, but for its creator and staff (`mediaSeenUntil`).
   */
  present(auth: AuthInfo | null, rows: PostListRow[]) {
    const now = this.now();
    return rows.map((r) =>
      presentPost(r, r.media, canSeeMedia(auth, r, now), (m, a) => {
        // A visitor gets media only of content free to everyone: its pictures unmarked (ADR 0038).
        const media = this.deps.media.present(m, a, auth?.userId ?? EVERYONE, mediaSeenUntil(auth, r));
        // A locked video's free preview is offered only to whoever may play it.
        return a || canSeePreview(auth, r, now) ? media : { ...media, preview: 0 };
      }),
    );
  }

  /**
   * A feed page. Visitors all see the same answer for the same query, so theirs is reused for a
   * few seconds (and dropped as soon as a post is written through this server).
   */
  feed(auth: AuthInfo | null, query: PostFeedQuery): Promise<PostsResponse> {
    if (auth) return this.buildFeed(auth, query);
    // The clock the filters compare with is part of the answer (a story by id expires).
    const key = JSON.stringify([query, this.sqlNow()]);
    const cached = this.visitorFeeds.get(key);
    if (cached) return cached;
    const answer = this.buildFeed(null, query);
    this.visitorFeeds.set(key, answer);
    answer.catch(() => {
      if (this.visitorFeeds.peek(key) === answer) this.visitorFeeds.delete(key);
    });
    return answer;
  }

  private async buildFeed(auth: AuthInfo | null, query: PostFeedQuery): Promise<PostsResponse> {
    if (query.adminStatus && !isStaff(auth)) throw new AppError('FORBIDDEN');
    if (query.feed === 'my_content' && !auth) throw new AppError('UNAUTHENTICATED');
    const creator = query.creator ? await this.deps.creators.findCreatorByHandle(query.creator) : undefined;
    if (query.creator && !creator) throw new AppError('NOT_FOUND');
    const viewingOwn = !!auth && !!creator && creator.id === auth.userId;
    const now = this.now();
    const filter = feedFilter(
      this.deps.posts,
      auth,
      query,
      creator?.id,
      viewingOwn || isStaff(auth),
      this.sqlNow(),
    );
    // A signed-in viewer's page is the same for everyone but for what `viewerState` reads, unless
    // it depends on who asks (their own lists, the owner's or staff's unreviewed posts).
    // The filter's key leaves the page out: every page of a feed shares one counted total.
    const filterKey =
      auth && !query.adminStatus && query.feed !== 'my_content' && !viewingOwn && !isStaff(auth)
        ? JSON.stringify([{ ...query, page: 0 }, creator?.id, this.sqlNow()])
        : undefined;
    const sharedKey = filterKey && `${filterKey}#${query.page}`;
    const { rows, hasMore, found } =
      auth && sharedKey
        ? await this.viewersPage(auth, sharedKey, filter)
        : await this.deps.posts
            .list(auth?.userId ?? null, filter)
            .then((p) => ({ ...p, found: p.rows.length }));
    const visible = rows.filter((r) => canSeePost(auth, r, now));
    if (query.post && !visible.length) throw new AppError('NOT_FOUND');
    // "Creators you may like" come with a feed's first page (the page that shows them).
    const showSuggestions =
      !isCreator(auth) && !query.adminStatus && !query.creator && !query.post && filter.page === 1;
    // The rest only depends on the page: asked at once (a pool runs them side by side).
    const [total, page, suggestions] = await Promise.all([
      this.total(filter, found, hasMore, !!query.adminStatus, filterKey),
      creator && auth ? this.deps.creators.pageOf(auth, creator) : null,
      showSuggestions ? this.deps.creators.suggestions(auth, 6) : [],
    ]);
    return {
      posts: this.present(auth, visible),
      statistics: pageStatistics(filter.page, filter.limit, total),
      iSubscriptor: page?.subscribed ?? false,
      profile: page?.profile ?? null,
      suggestions,
    };
  }

  /**
   * A page for one signed-in viewer: the shared part from a short-lived cache, then one prepared
   * statement for the viewer's part and the columns access is decided on (so a post unpublished,
   * deleted or made private on another server is judged by its current row, never the cached one).
   */
  private async viewersPage(
    auth: AuthInfo,
    key: string,
    filter: ListFilter,
  ): Promise<{ rows: PostListRow[]; hasMore: boolean; found: number }> {
    let shared = this.sharedPages.get(key);
    if (!shared) {
      const loading = this.deps.posts.sharedPage(filter);
      shared = loading;
      this.sharedPages.set(key, loading);
      loading.catch(() => {
        if (this.sharedPages.peek(key) === loading) this.sharedPages.delete(key);
      });
    }
    const page = await shared;
    const state = await this.deps.posts.viewerState(
      auth.userId,
      page.rows.map((r) => r.id),
    );
    const rows = page.rows.flatMap((r) => {
      const fresh = state.get(r.id);
      return fresh ? [{ ...r, ...fresh }] : [];
    });
    return { rows, hasMore: page.hasMore, found: page.rows.length };
  }

  /** Published posts matching the typed words (text and hashtags), as the viewer may see them. */
  async search(
    auth: AuthInfo | null,
    word: string,
    page: number,
    limit: number,
  ): Promise<SearchPostsResponse> {
    const words = searchWords(word);
    if (!words.length) return { word, posts: [], statistics: pageStatistics(page, limit, 0) };
    const filter = searchFilter(words, page, limit, this.sqlNow());
    const { rows, hasMore } = await this.deps.posts.list(auth?.userId ?? null, filter);
    const now = this.now();
    const [total, found] = await Promise.all([
      this.total(filter, rows.length, hasMore, false),
      this.present(
        auth,
        rows.filter((r) => canSeePost(auth, r, now)),
      ),
    ]);
    return { word, posts: found, statistics: pageStatistics(page, limit, total) };
  }

  /**
   * Current stories (a story lives a day from when it went live, `isPublished`), newest live first:
   * a creator's, or (no creator) those of followed and subscribed creators. Visitors (ADR 0038) get
   * only stories free to everyone: a creator's, or without one every creator's, most followed
   * creators first.
   */
  async stories(auth: AuthInfo | null, handle?: string) {
    const creator = handle ? await this.deps.creators.findCreatorByHandle(handle) : undefined;
    if (handle && !creator) throw new AppError('NOT_FOUND');
    const own = !!auth && !!creator && creator.id === auth.userId;
    const filter: ListFilter = {
      where: storiesFilter(
        this.deps.posts,
        auth?.userId ?? null,
        creator?.id,
        own || isStaff(auth),
        this.sqlNow(),
      ),
      order: 'live',
      rank: auth || creator ? undefined : this.deps.posts.creatorFollowersSql(),
      page: 1,
      limit: 50,
    };
    const { rows, hasMore } = await this.deps.posts.list(auth?.userId ?? null, filter);
    const total = await this.total(filter, rows.length, hasMore, true);
    const visible = rows.filter((r) => canSeePost(auth, r, this.now()));
    return {
      stories: this.present(auth, visible),
      creator: creator ? presentPublicUser(creator) : null,
      statistics: pageStatistics(1, 50, total),
    };
  }

  async one(auth: AuthInfo | null, postId: string) {
    const row = await this.deps.posts.findOne(auth?.userId ?? null, postId);
    if (!row || !canSeePost(auth, row, this.now())) throw new AppError('NOT_FOUND');
    const [post] = this.present(auth, [row]);
    return post!;
  }

  async create(auth: AuthInfo, fields: PostFieldsInput, files: UploadedFile[]) {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    const reused = await this.deps.media.attachable(auth, fields.vaultMedia ?? []);
    this.checkContent(fields, reused.length + files.length);
    const publishAt = this.checkPublishAt(fields.publishAt);
    const mediaRows = distinct([...reused, ...(await this.ingest(auth, fields, files))]);
    const state = mediaRows.some((m) => m.status === 'processing') ? 'processing' : 'in_review';
    assertTransition('draft', state, 'creator');
    const post = await this.deps.posts.create(
      {
        creatorId: auth.userId,
        kind: fields.kind,
        message: fields.message,
        visibility: fields.visibility,
        price: fields.visibility === 'ppv' ? fields.price : 0,
        discountStatus: fields.discountStatus,
        discountPercent: fields.discountPercent,
        discountDateLimit: fields.discountDateLimit ? new Date(fields.discountDateLimit) : null,
        adminStatus: storedStatus(state),
        publishAt,
        certifiedAt: this.now(),
      },
      mediaRows.map((m) => m.id),
    );
    this.changed();
    await this.startProcessing(auth.userId, post.id, mediaRows, fields.uploadId);
    return this.one(auth, post.id);
  }

  async update(auth: AuthInfo, postId: string, fields: PostFieldsInput, files: UploadedFile[]) {
    const existing = await this.deps.posts.findRow(postId);
    if (!existing || !isLivePost(existing)) throw new AppError('NOT_FOUND');
    if (!isOwner(auth, existing)) throw new AppError('FORBIDDEN');
    const current = (await this.deps.posts.mediaOf([postId])).get(postId) ?? [];
    // Files that failed are dropped: a retry resumes this same post with the new files.
    const keep = (
      fields.keepMedia ? current.filter((m) => fields.keepMedia!.includes(m.id)) : current
    ).filter((m) => m.status !== 'failed');
    const reused = await this.deps.media.attachable(auth, fields.vaultMedia ?? []);
    this.checkContent(fields, keep.length + reused.length + files.length);
    const publishAt = this.checkPublishAt(fields.publishAt, existing.publishAt);
    const from = stateOf(existing, this.now());
    // Checked before the upload is stored, then again with what the upload turned out to be.
    if (files.length && from !== 'processing') assertTransition(from, 'processing', 'creator');
    const added = await this.ingest(auth, fields, files);
    const all = distinct([...keep, ...reused, ...added]);
    const state = all.some((m) => m.status === 'processing') ? 'processing' : 'in_review';
    if (!(from === 'processing' && state === 'processing')) assertTransition(from, state, 'creator');
    await this.deps.posts.update(
      postId,
      {
        message: fields.message,
        visibility: fields.visibility,
        price: fields.visibility === 'ppv' ? fields.price : 0,
        discountStatus: fields.discountStatus,
        discountPercent: fields.discountPercent,
        discountDateLimit: fields.discountDateLimit ? new Date(fields.discountDateLimit) : null,
        // An edited post is reviewed again before fans see the change.
        adminStatus: storedStatus(state),
        reviewReason: null,
        publishAt,
        publishedAt: null,
        certifiedAt: this.now(),
      },
      all.map((m) => m.id),
    );
    this.changed();
    // Files taken out of the post stay in the creator's vault (ADR 0032).
    await this.startProcessing(auth.userId, postId, all, fields.uploadId);
    return this.one(auth, postId);
  }

  /**
   * The `statistics` overlay of a post (spec §2, ADR 0035): likes, comments, saves and unlocks,
   * for its creator and staff only (a fan sees likes and comments on the post itself).
   */
  async statistics(auth: AuthInfo, postId: string) {
    const post = await this.deps.posts.findRow(postId);
    if (!post || !isLivePost(post)) throw new AppError('NOT_FOUND');
    if (!isOwner(auth, post) && !isStaff(auth)) throw new AppError('FORBIDDEN');
    return { post: post.id, ...(await this.deps.posts.figures(post.id)) };
  }

  async remove(auth: AuthInfo, postId: string): Promise<void> {
    const existing = await this.deps.posts.findRow(postId);
    if (!existing || !isLivePost(existing)) throw new AppError('NOT_FOUND');
    if (!isOwner(auth, existing) && !isStaff(auth)) throw new AppError('FORBIDDEN');
    await this.deps.posts.markDeleted(postId);
    this.changed();
  }

  /**
   * A moderator's decision, as the lifecycle allows it (a post whose files are processing or
   * failed cannot be approved). An approved post goes live at once, or at its scheduled time
   * through the `posts.publish` job. The creator is notified of approval or rejection.
   */
  async review(auth: AuthInfo, input: { id: string; adminStatus: ReviewDecision; reason?: string }) {
    if (!isStaff(auth)) throw new AppError('FORBIDDEN');
    const post = await this.deps.posts.findRow(input.id);
    if (!post || !isLivePost(post)) throw new AppError('NOT_FOUND');
    const now = this.now();
    const from = stateOf(post, now);
    const to: PostState =
      input.adminStatus === 'approved' || input.adminStatus === 'rejected' ? input.adminStatus : 'in_review';
    const same = from === to || (from === 'published' && to === 'approved');
    if (!same) assertTransition(from, to, 'moderator');
    await this.deps.posts.setReview(post.id, input.adminStatus, input.reason ?? null, auth.userId, now);
    if (to === 'approved') {
      if (post.publishAt && post.publishAt > now) await this.schedulePublication(post.id, post.publishAt);
      else await this.deps.posts.markPublished(post.id, now);
    }
    this.changed();
    if (input.adminStatus === 'approved' || input.adminStatus === 'rejected') {
      const kind = `${post.kind === 'story' ? 'story' : 'post'}_${input.adminStatus}` as const;
      await this.deps.notifications.notify(post.creatorId, kind, {
        link: `/post/${post.id}`,
        postId: post.id,
        reason: input.reason ?? '',
      });
    }
    return this.one(auth, post.id);
  }

  /**
   * An announcement to everyone (spec §6, ADR 0033): an administrator writes a free text post on
   * the admin creator's page. The writer is staff, so it is approved at once through `review`,
   * like any post (the review is recorded as theirs), and published on every home feed.
   */
  async announce(auth: AuthInfo, officialId: string, message: string) {
    if (!isStaff(auth)) throw new AppError('FORBIDDEN');
    assertTransition('draft', 'in_review', 'creator');
    const post = await this.deps.posts.create(
      {
        creatorId: officialId,
        kind: 'post',
        message,
        visibility: 'free',
        price: 0,
        discountStatus: 'off',
        discountPercent: 0,
        discountDateLimit: null,
        adminStatus: storedStatus('in_review'),
        publishAt: null,
        certifiedAt: this.now(),
      },
      [],
    );
    return this.review(auth, { id: post.id, adminStatus: 'approved' });
  }

  /** The creator's queue: own posts scheduled for later, soonest first. */
  async scheduled(auth: AuthInfo) {
    const rows = await this.deps.posts.scheduled(auth.userId, this.now());
    return { posts: this.present(auth, rows) };
  }

  /** Changes the time of an own scheduled post, or publishes it now (`publishAt` null). */
  async reschedule(auth: AuthInfo, input: { id: string; publishAt: string | null }) {
    const post = await this.deps.posts.findRow(input.id);
    if (!post || !isLivePost(post)) throw new AppError('NOT_FOUND');
    if (!isOwner(auth, post)) throw new AppError('FORBIDDEN');
    const now = this.now();
    if (!post.publishAt || post.publishAt <= now) throw new AppError('POST_STATE_CONFLICT');
    const from = stateOf(post, now);
    if (input.publishAt === null) {
      await this.deps.posts.update(post.id, { publishAt: now });
      if (from === 'approved') {
        assertTransition(from, 'published', 'creator');
        await this.deps.posts.markPublished(post.id, now);
      }
    } else {
      const at = this.checkPublishAt(input.publishAt)!;
      await this.deps.posts.update(post.id, { publishAt: at });
      if (from === 'approved') await this.schedulePublication(post.id, at);
    }
    return this.one(auth, post.id);
  }

  /**
   * The `posts.publish` job, at a scheduled post's time: records it live and tells the creator.
   * A job for a time since changed, or for a post no longer approved, does nothing; feeds already
   * compare `publish_at` with the clock, so a late job never shows a post early or hides it.
   */
  async publishScheduled(postId: string, publishAt: string): Promise<void> {
    const post = await this.deps.posts.findRow(postId);
    if (!post || stateOf(post, this.now()) !== 'published') return;
    if (post.publishAt?.toISOString() !== publishAt) return;
    if (!(await this.deps.posts.markPublished(post.id, post.publishAt))) return;
    await this.deps.notifications.notify(post.creatorId, 'post_published', {
      link: `/post/${post.id}`,
      postId: post.id,
    });
  }

  private async schedulePublication(postId: string, at: Date): Promise<void> {
    await this.deps.jobs.send(PUBLISH_POST, { postId, publishAt: at.toISOString() }, { startAfter: at });
  }

  /** A publication time must be in the future; empty keeps `fallback` (null: publish on approval). */
  private checkPublishAt(value: string | null | undefined, fallback: Date | null = null): Date | null {
    if (value === undefined) return fallback;
    if (value === null) return null;
    const at = new Date(value);
    if (at <= this.now()) throw new AppError('VALIDATION_FAILED', {}, { publishAt: 'past' });
    return at;
  }

  async like(auth: AuthInfo, postId: string) {
    const post = await this.visible(auth, postId);
    const result = await this.deps.posts.toggleLike(postId, auth.userId);
    this.countsChanged();
    if (result.liked && post.creatorId !== auth.userId) {
      await this.deps.notifications.notify(post.creatorId, 'like', {
        link: `/post/${postId}`,
        postId,
        actor: auth.username,
      });
    }
    return result;
  }

  async save(auth: AuthInfo, postId: string) {
    await this.visible(auth, postId);
    return this.deps.posts.toggleSave(postId, auth.userId);
  }

  async likers(auth: AuthInfo, postId: string, page: number, limit: number) {
    await this.visible(auth, postId);
    return this.deps.posts.likers(postId, page, limit);
  }

  /**
   * Which of these media the viewer may see: those in at least one post they may see the media of
   * (a visitor, `null`: those in a post free to everyone, ADR 0038).
   */
  async mediaAccess(auth: AuthInfo | null, mediaRows: MediaRow[]): Promise<Set<string>> {
    const allowed = new Set<string>();
    for (const m of mediaRows) if ((auth && m.ownerId === auth.userId) || isStaff(auth)) allowed.add(m.id);
    const links = await this.deps.posts.postsWithMedia(
      auth?.userId ?? null,
      mediaRows.filter((m) => !allowed.has(m.id)).map((m) => m.id),
    );
    for (const l of links) if (canSeeMedia(auth, l.post, this.now())) allowed.add(l.mediaId);
    return allowed;
  }

  /**
   * A video's free preview: whoever may see a post that holds it (canSeePost), when the creator
   * chose one. The rest of the video stays behind `mediaAccess`.
   */
  async mayPreview(auth: AuthInfo, row: MediaRow): Promise<boolean> {
    if (row.previewSeconds <= 0) return false;
    if (row.ownerId === auth.userId) return true;
    const links = await this.deps.posts.postsWithMedia(auth.userId, [row.id]);
    return links.some((l) => canSeePreview(auth, l.post, this.now()));
  }

  /** A post the caller may see, else NOT_FOUND. */
  async visible(auth: AuthInfo, postId: string): Promise<PostListRow> {
    const row = await this.deps.posts.findOne(auth.userId, postId);
    if (!row || !canSeePost(auth, row, this.now())) throw new AppError('NOT_FOUND');
    return row;
  }

  private checkContent(fields: PostFieldsInput, mediaCount: number): void {
    if (mediaCount > MAX_FILES) throw new AppError('VALIDATION_FAILED', {}, { files: 'tooLong' });
    if (fields.kind === 'story' && mediaCount !== 1)
      throw new AppError('MISSING_DATA', {}, { files: 'required' });
    if (!fields.message && mediaCount === 0) throw new AppError('MISSING_DATA', {}, { message: 'required' });
  }

  private async ingest(
    auth: AuthInfo,
    fields: PostFieldsInput,
    files: UploadedFile[],
  ): Promise<(MediaRow & { reused: boolean })[]> {
    const rows: (MediaRow & { reused: boolean })[] = [];
    const progress = this.progressReporter(auth.userId, fields.uploadId);
    try {
      for (const [i, file] of files.entries()) {
        rows.push(
          await this.deps.media.ingest({
            ownerId: auth.userId,
            purpose: fields.kind,
            file,
            previewSeconds: fields.previewSeconds,
          }),
        );
        progress(Math.round(((i + 1) / files.length) * 40), 'upload');
      }
    } catch (err) {
      // Only files this request stored: a reused one is the creator's earlier upload.
      for (const r of rows) if (!r.reused) await this.deps.media.remove(r.id);
      this.deps.publisher.toUser(auth.userId, 'postProgressError', { message: messageOf(err) });
      throw err;
    }
    return rows;
  }

  /** Queues the files' processing; the worker reports the rest of the progress (followMedia). */
  private async startProcessing(userId: string, postId: string, rows: MediaRow[], uploadId?: string) {
    this.progressReporter(userId, uploadId, postId)(40, 'processing');
    await this.deps.media.startProcessing(rows.filter((r) => r.status === 'processing').map((r) => r.id));
  }

  /**
   * Follows a file in the worker that processes it (any copy of the server), for every post that
   * holds it (a vault file can be in several): progress from 40 to 100 over each post's files, then
   * postProgressEnd, or postProgressError when one failed. Events go through the realtime
   * publisher, which reaches the creator's sockets on every copy.
   */
  async followMedia(file: MediaRow): Promise<MediaFollower | undefined> {
    const held = await this.deps.posts.holding(file.id);
    if (!held.length) return undefined;
    const followers = await Promise.all(held.map((post) => this.followPost(post, file)));
    return {
      progress: (percent, message) => {
        for (const f of followers) f.progress(percent, message);
      },
      done: async (row) => {
        for (const f of followers) await f.done(row);
      },
    };
  }

  private async followPost(post: PostRow, file: MediaRow): Promise<MediaFollower> {
    const files = (await this.deps.posts.mediaOf([post.id])).get(post.id) ?? [];
    const finished = files.filter((m) => m.id !== file.id && m.status !== 'processing').length;
    const total = Math.max(1, files.length);
    const progress = this.progressReporter(post.creatorId, undefined, post.id);
    return {
      progress: (percent, message) =>
        progress(40 + Math.round(((finished * 100 + percent) / total) * 0.6), message),
      done: async () => {
        const now = (await this.deps.posts.mediaOf([post.id])).get(post.id) ?? [];
        if (now.some((m) => m.status === 'processing')) return;
        const failed = now.find((m) => m.status === 'failed');
        // processing → in_review, or → failed (system); a retry finding it moved already changes nothing.
        const to = failed ? 'failed' : 'in_review';
        assertTransition('processing', to, 'system');
        if (!(await this.deps.posts.moveState(post.id, 'processing', storedStatus(to)))) return;
        this.changed();
        if (failed) {
          this.deps.publisher.toUser(post.creatorId, 'postProgressError', {
            postId: post.id,
            message: failed.error ?? 'failed',
          });
          return;
        }
        progress(100, 'done');
        this.deps.publisher.toUser(post.creatorId, 'postProgressEnd', { postId: post.id, message: 'done' });
      },
    };
  }

  private progressReporter(userId: string, uploadId?: string, postId?: string) {
    let last = 0;
    return (percent: number, message: string) => {
      if (percent < last) return;
      last = percent;
      this.deps.publisher.toUser(userId, 'postProgress', { percent, message, postId, uploadId });
    };
  }
}

/** Rows without repeats (a file attached from the vault and uploaded again is held once). */
function distinct<T extends { id: string }>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.id) && seen.add(r.id));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
