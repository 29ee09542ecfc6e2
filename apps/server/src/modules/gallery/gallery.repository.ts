import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { galleryCategories, galleryItems, type MediaRow, media } from '../../db/schema.ts';

export type CategoryRow = typeof galleryCategories.$inferSelect;

/** Gallery categories and their media. Queries only. */
export class GalleryRepository {
  constructor(private readonly db: Db) {}

  async categories(creatorId: string): Promise<CategoryRow[]> {
    return this.db
      .select()
      .from(galleryCategories)
      .where(eq(galleryCategories.creatorId, creatorId))
      .orderBy(asc(galleryCategories.position), asc(galleryCategories.createdAt));
  }

  async itemsOf(categoryIds: string[]): Promise<Map<string, MediaRow[]>> {
    const out = new Map<string, MediaRow[]>();
    if (!categoryIds.length) return out;
    const rows = await this.db
      .select({ categoryId: galleryItems.categoryId, media })
      .from(galleryItems)
      .innerJoin(media, eq(media.id, galleryItems.mediaId))
      .where(inArray(galleryItems.categoryId, categoryIds))
      .orderBy(asc(galleryItems.position));
    for (const r of rows) out.set(r.categoryId, [...(out.get(r.categoryId) ?? []), r.media]);
    return out;
  }

  async ownedMedia(ownerId: string, ids: string[]): Promise<MediaRow[]> {
    if (!ids.length) return [];
    return this.db
      .select()
      .from(media)
      .where(and(eq(media.ownerId, ownerId), inArray(media.id, ids)));
  }

  async create(
    creatorId: string,
    name: string,
    imageMediaId: string | null,
    mediaIds: string[],
  ): Promise<CategoryRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(galleryCategories).values({ creatorId, name, imageMediaId }).returning();
      if (mediaIds.length) {
        await tx
          .insert(galleryItems)
          .values(mediaIds.map((mediaId, position) => ({ categoryId: row!.id, mediaId, position })));
      }
      return row!;
    });
  }

  async find(id: string): Promise<CategoryRow | undefined> {
    const [row] = await this.db.select().from(galleryCategories).where(eq(galleryCategories.id, id));
    return row;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(galleryCategories).where(eq(galleryCategories.id, id));
  }
}
