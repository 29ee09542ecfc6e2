import type { CreatorProfile, PublicUser } from '@fanverse/contract';
import { discountedPrice, pageStatistics } from '@fanverse/contract';
import { isCreator } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import type { CreatorRepository, CreatorRow } from './creator.repository.ts';

/** Creator pages, search, suggestions and favourites. */
export class CreatorService {
  constructor(private readonly repo: CreatorRepository) {}

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
      this.repo.counts(c.id),
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

  async suggestions(auth: AuthInfo | null, limit: number): Promise<PublicUser[]> {
    return (await this.repo.suggestions(auth?.userId ?? null, limit)).map(presentPublicUser);
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
