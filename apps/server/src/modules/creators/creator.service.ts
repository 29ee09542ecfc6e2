import type { CreatorProfile, PublicUser } from '@fanverse/contract';
import { discountedPrice, pageStatistics } from '@fanverse/contract';
import { isCreator } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { CachedValue } from '../../lib/cached-value.ts';
import { type PublicUserRow, presentPublicUser } from '../users/public-user.presenter.ts';
import type { CreatorRepository, CreatorRow } from './creator.repository.ts';

/** How long the ranking of suggested creators is reused. */
const SUGGESTIONS_TTL_MS = 60_000;
/** How many top creators the cached ranking holds. */
const RANKED_CANDIDATES = 100;

/** Creator pages, search, suggestions and favourites. */
export class CreatorService {
  private readonly ranking: CachedValue<PublicUserRow[]>;
  constructor(
    private readonly repo: CreatorRepository,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.ranking = new CachedValue(SUGGESTIONS_TTL_MS, () => repo.suggestions(null, RANKED_CANDIDATES));
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

  /** The page of a creator already looked up (a creator feed has the row at hand). */
  async profileOf(auth: AuthInfo, c: CreatorRow): Promise<CreatorProfile> {
    const [counts, following] = await Promise.all([
      this.repo.counts(c.id, this.now()),
      auth.userId === c.id ? Promise.resolve(false) : this.repo.isFollowing(auth.userId, c.id),
    ]);
    const discount = {
      discountStatus: c.discountStatus === 'on' ? ('on' as const) : ('off' as const),
      discountPercent: c.discountPercent,
      discountDateLimit: c.discountDateLimit?.toISOString() ?? null,
    };
    return {
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
      following,
      isMe: auth.userId === c.id,
    };
  }

  /**
   * "Creators you may like": the most followed verified creators, ranked once a minute (not per
   * request); for a signed-in viewer one indexed statement drops those they follow or blocked.
   * When the cached ranking runs out for a viewer who follows most of it, the full query answers.
   */
  async suggestions(auth: AuthInfo | null, limit: number): Promise<PublicUser[]> {
    const ranked = await this.ranking.get();
    if (!auth) return ranked.slice(0, limit).map(presentPublicUser);
    const allowed = await this.repo.stillSuggestable(
      auth.userId,
      ranked.map((r) => r.id),
    );
    const picked = ranked.filter((r) => allowed.has(r.id)).slice(0, limit);
    const exhausted = picked.length < limit && ranked.length === RANKED_CANDIDATES;
    return (exhausted ? await this.repo.suggestions(auth.userId, limit) : picked).map(presentPublicUser);
  }

  async search(word: string, page: number, limit: number, viewerId?: string | null) {
    const [found, top] = await Promise.all([
      word ? this.repo.search(word, page, limit, viewerId) : Promise.resolve({ rows: [], total: 0 }),
      this.repo.search('', 1, limit, viewerId),
    ]);
    return {
      word,
      creators: { items: found.rows.map(presentPublicUser), ...pageStatistics(page, limit, found.total) },
      topCreators: { items: top.rows.map(presentPublicUser), ...pageStatistics(1, limit, top.total) },
    };
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
