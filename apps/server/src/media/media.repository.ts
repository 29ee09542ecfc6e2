import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { media } from '../db/schema.ts';
import { captionsFileName, captionsOf } from './captions.ts';
import { storedEncodings, videoFileNames } from './video.ts';

export type MediaRow = typeof media.$inferSelect;
export type NewMediaRow = typeof media.$inferInsert;
export type MediaChanges = Partial<
  Pick<
    MediaRow,
    | 'status'
    | 'webKey'
    | 'thumbKey'
    | 'blurKey'
    | 'posterKey'
    | 'width'
    | 'height'
    | 'info'
    | 'error'
    | 'contentHash'
    | 'captions'
  >
>;

/** Every storage key of a media row: the original and each rendition made from it. */
export function storageKeys(
  row: Pick<MediaRow, 'originalKey' | 'webKey' | 'thumbKey' | 'blurKey' | 'posterKey' | 'info'> &
    Partial<Pick<MediaRow, 'captions'>>,
): string[] {
  const keys = [row.originalKey, row.webKey, row.thumbKey, row.blurKey, row.posterKey].filter(
    (k): k is string => k !== null,
  );
  // HLS playlists, segments and sprite of a transcoded video, beside its original (also those of a
  // re-encoding being stored, or of the encoding it replaced: the mark backfill).
  const prefix = row.originalKey.slice(0, row.originalKey.lastIndexOf('/'));
  for (const manifest of storedEncodings(row.info))
    for (const name of videoFileNames(manifest)) keys.push(`${prefix}/${name}`);
  // The creator's captions tracks (ADR 0037).
  for (const t of captionsOf(row.captions)) keys.push(`${prefix}/${captionsFileName(t.language)}`);
  return keys;
}

/** Rows of uploaded media. Queries only. */
export class MediaRepository {
  constructor(private readonly db: Db) {}

  async create(row: NewMediaRow): Promise<MediaRow> {
    const [created] = await this.db.insert(media).values(row).returning();
    if (!created) throw new Error('insert returned no row');
    return created;
  }

  /** Stores the row unless the owner already has a file with this content hash (then undefined). */
  async createUnlessStored(row: NewMediaRow): Promise<MediaRow | undefined> {
    const [created] = await this.db.insert(media).values(row).onConflictDoNothing().returning();
    return created;
  }

  /** The owner's stored file with these bytes. */
  async byHash(ownerId: string, contentHash: string): Promise<MediaRow | undefined> {
    const [row] = await this.db
      .select()
      .from(media)
      .where(and(eq(media.ownerId, ownerId), eq(media.contentHash, contentHash)))
      .limit(1);
    return row;
  }

  async get(id: string): Promise<MediaRow | undefined> {
    const [row] = await this.db.select().from(media).where(eq(media.id, id)).limit(1);
    return row;
  }

  async getMany(ids: string[]): Promise<MediaRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(media).where(inArray(media.id, ids));
  }

  async update(id: string, changes: MediaChanges): Promise<void> {
    await this.db.update(media).set(changes).where(eq(media.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(media).where(eq(media.id, id));
  }
}
