import { and, count, desc, eq, gte, ilike, inArray, lt, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { vaultFileSql } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import {
  galleryCategories,
  galleryItems,
  type MediaRow,
  media,
  messageMedia,
  messages,
  postMedia,
  posts,
  welcomeMessageMedia,
} from '../../db/schema.ts';
import { escapeLike } from '../search/spelling.ts';

export interface VaultFilter {
  ownerId: string;
  type: 'all' | 'image' | 'video';
  used: 'all' | 'used' | 'unused';
  q: string;
  from: Date | null;
  /** Exclusive. */
  to: Date | null;
}

export interface VaultUses {
  posts: number;
  messages: number;
  welcome: boolean;
  gallery: number;
}

/**
 * SQL: the file is held by something someone can see: a live post or story, a message, the
 * welcome message or a gallery category. Deleting it would take it from there.
 */
function usedSql(mediaId: SQLWrapper): SQL {
  return sql`(
    EXISTS (SELECT 1 FROM ${postMedia} pm JOIN ${posts} p ON p.id = pm.post_id
            WHERE pm.media_id = ${mediaId} AND p.status = 'active')
    OR EXISTS (SELECT 1 FROM ${messageMedia} mm WHERE mm.media_id = ${mediaId})
    OR EXISTS (SELECT 1 FROM ${welcomeMessageMedia} wm WHERE wm.media_id = ${mediaId})
    OR EXISTS (SELECT 1 FROM ${galleryItems} gi WHERE gi.media_id = ${mediaId})
    OR EXISTS (SELECT 1 FROM ${galleryCategories} gc WHERE gc.image_media_id = ${mediaId})
  )`;
}

/** A creator's vault: their uploads, where each is used, and the guarded delete. Queries only. */
export class VaultRepository {
  constructor(private readonly db: Db) {}

  async page(filter: VaultFilter, page: number, limit: number): Promise<{ rows: MediaRow[]; total: number }> {
    const where = and(
      eq(media.ownerId, filter.ownerId),
      vaultFileSql(media.purpose),
      filter.type === 'all' ? undefined : eq(media.kind, filter.type),
      filter.used === 'all'
        ? undefined
        : filter.used === 'used'
          ? usedSql(media.id)
          : sql`NOT ${usedSql(media.id)}`,
      filter.q ? ilike(media.name, `%${escapeLike(filter.q)}%`) : undefined,
      filter.from ? gte(media.createdAt, filter.from) : undefined,
      filter.to ? lt(media.createdAt, filter.to) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(media)
        .where(where)
        .orderBy(desc(media.createdAt), desc(media.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(media).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** Where each file is used: live posts, messages (a mass message once), welcome, gallery. */
  async uses(mediaIds: string[]): Promise<Map<string, VaultUses>> {
    const out = new Map<string, VaultUses>(
      mediaIds.map((id) => [id, { posts: 0, messages: 0, welcome: false, gallery: 0 }]),
    );
    if (!mediaIds.length) return out;
    const [inPosts, inMessages, inWelcome, inGallery, asCover] = await Promise.all([
      this.db
        .select({ id: postMedia.mediaId, n: count() })
        .from(postMedia)
        .innerJoin(posts, eq(posts.id, postMedia.postId))
        .where(and(inArray(postMedia.mediaId, mediaIds), eq(posts.status, 'active')))
        .groupBy(postMedia.mediaId),
      this.db
        .select({
          id: messageMedia.mediaId,
          n: sql<number>`count(DISTINCT coalesce(${messages.massId}, ${messages.id}))::int`,
        })
        .from(messageMedia)
        .innerJoin(messages, eq(messages.id, messageMedia.messageId))
        .where(inArray(messageMedia.mediaId, mediaIds))
        .groupBy(messageMedia.mediaId),
      this.db
        .select({ id: welcomeMessageMedia.mediaId })
        .from(welcomeMessageMedia)
        .where(inArray(welcomeMessageMedia.mediaId, mediaIds)),
      this.db
        .select({ id: galleryItems.mediaId, n: count() })
        .from(galleryItems)
        .where(inArray(galleryItems.mediaId, mediaIds))
        .groupBy(galleryItems.mediaId),
      this.db
        .select({ id: galleryCategories.imageMediaId, n: count() })
        .from(galleryCategories)
        .where(inArray(galleryCategories.imageMediaId, mediaIds))
        .groupBy(galleryCategories.imageMediaId),
    ]);
    for (const r of inPosts) out.get(r.id)!.posts = r.n;
    for (const r of inMessages) out.get(r.id)!.messages = r.n;
    for (const r of inWelcome) out.get(r.id)!.welcome = true;
    for (const r of [...inGallery, ...asCover]) if (r.id) out.get(r.id)!.gallery += r.n;
    return out;
  }

  /**
   * Deletes the row unless something uses it, in one statement, so a post saved meanwhile keeps
   * its file: the deleted row, or undefined when it is in use (or gone).
   */
  async deleteUnused(mediaId: string): Promise<MediaRow | undefined> {
    const [row] = await this.db
      .delete(media)
      .where(and(eq(media.id, mediaId), sql`NOT ${usedSql(media.id)}`))
      .returning();
    return row;
  }
}
