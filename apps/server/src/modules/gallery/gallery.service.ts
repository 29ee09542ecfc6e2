import type { Media } from '@fanverse/contract';
import { isCreator, isStaff } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { CreatorService } from '../creators/creator.service.ts';
import type { MediaPort } from '../posts/media.port.ts';
import type { PostService } from '../posts/post.service.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import type { CategoryRow, GalleryRepository } from './gallery.repository.ts';

/** Creators group their media into gallery categories; viewers see each item as its posts allow. */
export class GalleryService {
  constructor(
    private readonly repo: GalleryRepository,
    private readonly creators: CreatorService,
    private readonly posts: PostService,
    private readonly media: MediaPort,
  ) {}

  async gallery(auth: AuthInfo, handle?: string) {
    const creator = await this.creators.findCreatorByHandle(handle ?? auth.username);
    if (!creator) throw new AppError('NOT_FOUND');
    const categories = await this.present(auth, await this.repo.categories(creator.id));
    // Fans never see an empty category (nothing to open); the owner does, to fill or delete it.
    const owner = creator.id === auth.userId;
    return {
      creator: presentPublicUser(creator),
      categories: owner ? categories : categories.filter((c) => c.items.length > 0),
    };
  }

  async saveCategory(auth: AuthInfo, input: { name: string; media: string[]; image?: string }) {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    const ids = [...new Set([...input.media, ...(input.image ? [input.image] : [])])];
    const owned = await this.repo.ownedMedia(auth.userId, ids);
    if (owned.length !== ids.length) throw new AppError('VALIDATION_FAILED', {}, { media: 'invalid' });
    const row = await this.repo.create(
      auth.userId,
      input.name,
      input.image ?? input.media[0] ?? null,
      input.media,
    );
    const [category] = await this.present(auth, [row]);
    return category!;
  }

  async deleteCategory(auth: AuthInfo, id: string): Promise<void> {
    const row = await this.repo.find(id);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.creatorId !== auth.userId && !isStaff(auth)) throw new AppError('FORBIDDEN');
    await this.repo.delete(id);
  }

  private async present(auth: AuthInfo, categories: CategoryRow[]) {
    const items = await this.repo.itemsOf(categories.map((c) => c.id));
    const all = [...items.values()].flat();
    const access = await this.posts.mediaAccess(auth, all);
    const show = (m: (typeof all)[number]): Media => this.media.present(m, access.has(m.id), auth.userId);
    return categories.map((c) => {
      const list = items.get(c.id) ?? [];
      const cover = list.find((m) => m.id === c.imageMediaId) ?? list[0];
      const coverView = cover ? show(cover) : undefined;
      return {
        _id: c.id,
        name: c.name,
        image: coverView ? (coverView.thumb ?? coverView.blur) : null,
        items: list.map(show),
      };
    });
  }
}
