import type {
  CreatorProfile,
  CreatorTags,
  DIRECTORY_SORTS,
  DirectoryResponse,
  ExploreResponse,
  PublicUser,
  UserPreview,
} from '@fanverse/contract';
import { discountedPrice, PAGE_LIMITS, pageStatistics } from '@fanverse/contract';
import { LRUCache } from 'lru-cache';
import { isActiveSubscription, isCreator, isStaff } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { AnnouncedCache, type Announcements } from '../../lib/announced-cache.ts';
import { CachedValue } from '../../lib/cached-value.ts';
import { rankCandidates, searchWords } from '../search/spelling.ts';
import { type PublicUserRow, presentPublicUser } from '../users/public-user.presenter.ts';
import {
  type CreatorRepository,
  type CreatorRow,
  type DirectoryFilter,
  directoryWho,
  type ViewerRelations,
} from './creator.repository.ts';

/** Creators in each list of Explore. */
const EXPLORE_LIMIT = 12;
/** Creators suggested under the header's search field. */
const SUGGEST_LIMIT = 6;
/** How long the ranking of suggested creators is reused. */
const SUGGESTIONS_TTL_MS = 60_000;
/** How many top creators the cached ranking holds. */
const RANKED_CANDIDATES = 100;
/**
 * How long a creator page's counts (posts, media, likes, subscribers) are reused, measured on the
 * app's clock; cleared on every post write through this server (ADR 0017).
 */
const COUNTS_TTL_MS = 30_000;

type CreatorCounts = CreatorProfile['counts'];

/** Creator pages, search, suggestions and favourites. */
export class CreatorService {
  private readonly ranking: CachedValue<PublicUserRow[]>;
  /** The ids in the ranking last loaded: an announced change to one of them drops the ranking. */
  private ranked = new Set<string>();
  /** Viewers' follows and blocks, kept exact by the database's `fv_relations` announcements. */
  private readonly relations: AnnouncedCache<string, ViewerRelations>;
  private readonly counted = new LRUCache<
    string,
    { at: number; until: number; value: Promise<CreatorCounts> }
  >({
    max: 10_000,
  });
  private readonly top: CachedValue<{ rows: PublicUserRow[]; total: number }>;
  private readonly exploreSections: CachedValue<{
    tags: { tag: string; creators: number }[];
    trending: PublicUserRow[];
    newCreators: PublicUserRow[];
  }>;
  constructor(
    private readonly repo: CreatorRepository,
    announcements: Announcements,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.ranking = new CachedValue(SUGGESTIONS_TTL_MS, async () => {
      const rows = await repo.suggestions(null, RANKED_CANDIDATES);
      this.ranked = new Set(rows.map((r) => r.id));
      return rows;
    });
    // A ranked creator suspended, deleted, unverified or no longer a creator (announced on
    // `fv_auth`, ADR 0047) leaves the suggestions at once, not when the minute is up.
    announcements.onNotify('fv_auth', {
      message: (userId) => {
        if (this.ranked.has(userId)) this.ranking.clear();
      },
      lost: () => this.ranking.clear(),
    });
    this.relations = new AnnouncedCache(announcements, {
      channel: 'fv_relations',
      max: 10_000,
      ttlMs: 10 * 60_000,
      ownerOf: (_relations, viewerId) => viewerId,
      // A viewer following many creators holds many ids: at most a million ids in all.
      size: { max: 1_000_000, of: (r) => r.follows.size + r.blocks.size + r.subscriptions.size },
    });
    this.top = new CachedValue(SUGGESTIONS_TTL_MS, () => repo.popular(1, PAGE_LIMITS.search));
    this.exploreSections = new CachedValue(SUGGESTIONS_TTL_MS, async () => {
      const [tags, trending, newCreators] = await Promise.all([
        repo.tagCounts(),
        repo.trending(EXPLORE_LIMIT),
        repo.newest(EXPLORE_LIMIT),
      ]);
      return { tags, trending, newCreators };
    });
  }

  /** Anyone's page by handle (unknown paths are creator profiles); undefined when nobody has it. */
  findCreatorByHandle(handle: string): Promise<CreatorRow | undefined> {
    return this.repo.findByHandle(handle.replace(/^@/, ''));
  }

  async profile(auth: AuthInfo, handle: string): Promise<CreatorProfile> {
    const c = await this.findCreatorByHandle(handle);
    if (!c) throw new AppError('NOT_FOUND');
    return this.profileOf(auth, c);
  }

  /**
   * The user preview card of anyone by handle (spec §2): a creator's public counts (the figures of
   * their page), nothing countable of a fan. Either having blocked the other reads as not found.
   */
  async preview(
    auth: AuthInfo,
    handle: string,
    blocked: (a: string, b: string) => Promise<boolean>,
  ): Promise<UserPreview> {
    const u = await this.findCreatorByHandle(handle);
    if (!u || (await blocked(auth.userId, u.id))) throw new AppError('NOT_FOUND');
    const base = { ...presentPublicUser(u), isMe: auth.userId === u.id };
    if (!isCreator(u)) {
      return {
        ...base,
        isCreator: false,
        counts: null,
        subscriptionFinalPrice: null,
        following: false,
        subscribed: false,
      };
    }
    const { profile, subscribed } = await this.pageOf(auth, u);
    return {
      ...base,
      isCreator: true,
      counts: { posts: profile.counts.posts, subscribers: profile.counts.subscribers },
      subscriptionFinalPrice: profile.subscriptionFinalPrice,
      following: profile.following,
      subscribed: subscribed && !base.isMe,
    };
  }

  /** The page of a creator already looked up (a creator feed has the row at hand). */
  async profileOf(auth: AuthInfo, c: CreatorRow): Promise<CreatorProfile> {
    return (await this.pageOf(auth, c)).profile;
  }

  /**
   * A creator's page for a viewer and whether the viewer is subscribed (the creator themselves
   * counts as subscribed): counts from a short-lived cache, follow and subscription in one statement.
   */
  async pageOf(auth: AuthInfo, c: CreatorRow): Promise<{ profile: CreatorProfile; subscribed: boolean }> {
    const own = auth.userId === c.id;
    const [counts, relation] = await Promise.all([
      this.counts(c.id),
      own ? { following: false, subscribed: true } : this.relationTo(auth.userId, c.id),
    ]);
    const discount = {
      discountStatus: c.discountStatus === 'on' ? ('on' as const) : ('off' as const),
      discountPercent: c.discountPercent,
      discountDateLimit: c.discountDateLimit?.toISOString() ?? null,
    };
    const profile: CreatorProfile = {
      ...presentPublicUser(c),
      name: c.name,
      displayName: c.displayName,
      about: c.about,
      cover: c.cover,
      isCreator: isCreator(c),
      subscriptionPrice: c.subscriptionPriceCents,
      subscriptionFinalPrice:
        c.subscriptionPriceCents === null ? null : discountedPrice(c.subscriptionPriceCents, discount),
      ...discount,
      counts,
      following: relation.following,
      isMe: own,
    };
    return { profile, subscribed: relation.subscribed };
  }

  /** Whether the viewer follows the creator and is an active subscriber of theirs (from memory once read). */
  private async relationTo(viewerId: string, creatorId: string) {
    const relations = await this.relationsOf(viewerId);
    return {
      following: relations.follows.has(creatorId),
      subscribed: isActiveSubscription(relations.subscriptions.get(creatorId), this.now()),
    };
  }

  /** The viewer's follows, subscriptions and blocks, kept exact by `fv_relations` announcements. */
  private async relationsOf(viewerId: string): Promise<ViewerRelations> {
    const found = await this.relations.get(viewerId, () => this.repo.relationsOf(viewerId));
    return found ?? { follows: new Set(), blocks: new Set(), subscriptions: new Map() };
  }

  /**
   * A creator's counts, reused for COUNTS_TTL_MS of the app's clock and never past the time the
   * creator's next scheduled post goes live (a moved clock reloads them).
   */
  private async counts(creatorId: string): Promise<CreatorCounts> {
    const now = this.now().getTime();
    const hit = this.counted.get(creatorId);
    if (hit && now >= hit.at && now < hit.until) return hit.value;
    const loaded = this.repo.counts(creatorId, new Date(now));
    const value = loaded.then((r) => r.counts);
    const entry = { at: now, until: now + COUNTS_TTL_MS, value };
    this.counted.set(creatorId, entry);
    loaded.then(
      (r) => {
        if (r.nextPublishAt) entry.until = Math.min(entry.until, r.nextPublishAt.getTime());
      },
      () => {
        if (this.counted.peek(creatorId) === entry) this.counted.delete(creatorId);
      },
    );
    return value;
  }

  /** Forgets the cached counts (after a post is written). */
  forgetCounts(): void {
    this.counted.clear();
  }

  /**
   * "Creators you may like": the most followed verified creators, ranked once a minute (not per
   * request); for a signed-in viewer, less those they follow or blocked either way (their
   * relations, from memory once read: ADR 0047). When the cached ranking runs out for a viewer who
   * follows most of it, the full query answers.
   */
  async suggestions(auth: AuthInfo | null, limit: number): Promise<PublicUser[]> {
    const ranked = await this.ranking.get();
    if (!auth) return ranked.slice(0, limit).map(presentPublicUser);
    const viewer = auth.userId;
    const relations = await this.relationsOf(viewer);
    const picked = ranked
      .filter((r) => r.id !== viewer && !relations.follows.has(r.id) && !relations.blocks.has(r.id))
      .slice(0, limit);
    const exhausted = picked.length < limit && ranked.length === RANKED_CANDIDATES;
    return (exhausted ? await this.repo.suggestions(auth.userId, limit) : picked).map(presentPublicUser);
  }

  /**
   * Creators matching the typed words despite typos, best first (relevance, then followers),
   * `limit` a page; an empty search finds nobody. Ranked in full before paging (at most the
   * repository's candidate cap), so pages never overlap.
   */
  async find(word: string, page: number, limit: number, viewerId?: string | null) {
    const words = searchWords(word);
    if (!words.length) return { rows: [], total: 0 };
    const ranked = rankCandidates(words, await this.repo.searchCandidates(words, viewerId));
    return { rows: ranked.slice((page - 1) * limit, page * limit), total: ranked.length };
  }

  async search(word: string, page: number, limit: number, viewerId?: string | null) {
    const [found, top] = await Promise.all([
      this.find(word, page, limit, viewerId),
      this.topCreators(limit, viewerId),
    ]);
    return {
      word,
      creators: { items: found.rows.map(presentPublicUser), ...pageStatistics(page, limit, found.total) },
      topCreators: { items: top.rows.map(presentPublicUser), ...pageStatistics(1, limit, top.total) },
    };
  }

  /**
   * The most followed creators: ranked once a minute for everyone (sorting every creator by
   * followers is the costly part), then those blocked either way by the viewer left out.
   */
  private async topCreators(limit: number, viewerId?: string | null) {
    if (limit !== PAGE_LIMITS.search) return this.repo.popular(1, limit, viewerId);
    const top = await this.top.get();
    if (!viewerId) return top;
    const blocked = await this.repo.blockedAmong(
      viewerId,
      top.rows.map((r) => r.id),
    );
    return { rows: top.rows.filter((r) => !blocked.has(r.id)), total: top.total - blocked.size };
  }

  /** Suggestions while typing: the best few creators for the words typed so far. */
  async suggest(word: string, viewerId?: string | null) {
    const found = await this.find(word, 1, SUGGEST_LIMIT, viewerId);
    return { word, creators: found.rows.map(presentPublicUser) };
  }

  /**
   * A page of a people directory (`?view=creator`, `?view=user`, issue 15). With search words the
   * typo-tolerant ranking of the header search orders the matches (relevance, then followers) and
   * `sort` is ignored; without them every listed person is sorted by `sort`. People blocked either
   * way, suspended or deleted never show.
   */
  async directory(
    auth: AuthInfo | null,
    filter: DirectoryFilter,
    query: { q: string; sort: (typeof DIRECTORY_SORTS)[number]; page: number; limit: number },
  ): Promise<DirectoryResponse> {
    const who = directoryWho(filter);
    const { page, limit } = query;
    const words = searchWords(query.q);
    const found = words.length
      ? await this.repo.searchCandidates(words, auth?.userId, who).then((candidates) => {
          const ranked = rankCandidates(words, candidates);
          return { rows: ranked.slice((page - 1) * limit, page * limit), total: ranked.length };
        })
      : await this.repo.directory(who, query.sort, page, limit, auth?.userId);
    return {
      items: found.rows.map((r) => ({
        ...presentPublicUser(r),
        isCreator: isCreator(r),
        followers: r.followers,
      })),
      statistics: pageStatistics(page, limit, found.total),
    };
  }

  /**
   * Explore (issue 15): categories, trending and new creators (one ranking a minute for everyone),
   * the creators of a chosen category, and "creators you may like" for a signed-in fan (spec §2:
   * never for creators or staff).
   */
  async explore(auth: AuthInfo | null, tag: string | undefined): Promise<ExploreResponse> {
    const [sections, tagCreators, mayLike] = await Promise.all([
      this.exploreSections.get(),
      tag ? this.repo.byTag(tag, EXPLORE_LIMIT, auth?.userId) : [],
      auth && !isCreator(auth) && !isStaff(auth) ? this.mayLike(auth) : [],
    ]);
    return {
      tags: sections.tags as ExploreResponse['tags'],
      tag: (tag ?? null) as ExploreResponse['tag'],
      tagCreators: tagCreators.map(presentPublicUser),
      trending: sections.trending.map(presentPublicUser),
      newCreators: sections.newCreators.map(presentPublicUser),
      mayLike,
    };
  }

  /** Based on follows, likes and purchases; topped up with the most followed when that runs short. */
  private async mayLike(auth: AuthInfo): Promise<PublicUser[]> {
    const found = await this.repo.mayLike(auth.userId, EXPLORE_LIMIT);
    if (found.length >= EXPLORE_LIMIT) return found.map(presentPublicUser);
    const seen = new Set(found.map((r) => r.id));
    const more = (await this.suggestions(auth, EXPLORE_LIMIT)).filter((u) => !seen.has(u._id));
    return [...found.map(presentPublicUser), ...more].slice(0, EXPLORE_LIMIT);
  }

  async tags(auth: AuthInfo) {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    return { tags: (await this.repo.tagsOf(auth.userId)) as CreatorTags['tags'] };
  }

  async setTags(auth: AuthInfo, tags: CreatorTags['tags']) {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    await this.repo.setTags(auth.userId, tags);
    this.exploreSections.clear();
    return { tags: [...tags].sort() };
  }

  async follow(auth: AuthInfo, handle: string): Promise<boolean> {
    const c = await this.findCreatorByHandle(handle);
    if (!isCreator(c)) throw new AppError('NOT_FOUND');
    if (c.id === auth.userId) throw new AppError('FORBIDDEN');
    return this.repo.toggleFollow(auth.userId, c.id);
  }

  async following(auth: AuthInfo): Promise<PublicUser[]> {
    return (await this.repo.following(auth.userId)).map(presentPublicUser);
  }
}
