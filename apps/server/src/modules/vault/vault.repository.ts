import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import { vaultFileSql } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import {
  galleryCategories,
  galleryItems,
  ledgerEntries,
  ledgerTransactions,
  type MediaRow,
  media,
  messageMedia,
  messages,
  postMedia,
  posts,
  users,
  vaultFolders,
  welcomeMessageMedia,
  welcomeMessages,
} from '../../db/schema.ts';
import { escapeLike } from '../search/spelling.ts';
import { rowsOf } from '../wallet/ledger.repository.ts';
import { ACCOUNTS } from '../wallet/money.math.ts';

export type VaultFolderRow = typeof vaultFolders.$inferSelect;

/** What the paid items holding a file sold (ADR 0032): unlocks, credits paid, creator's cents. */
export interface VaultEarnings {
  sales: number;
  credits: number;
  earnings: number;
}

export const NO_EARNINGS: VaultEarnings = { sales: 0, credits: 0, earnings: 0 };

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v ?? 0);
const earningsOf = (r: Row): VaultEarnings => ({
  sales: num(r.sales),
  credits: num(r.credits),
  earnings: num(r.earnings),
});

export interface VaultFilter {
  ownerId: string;
  /** Every file, files in no folder, or one folder's id. */
  folder: 'all' | 'none' | string;
  type: 'all' | 'image' | 'video';
  used: 'all' | 'used' | 'unused';
  /** `ready`: only processed files (what the pickers may attach). */
  status: 'all' | 'ready';
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
      filter.folder === 'all'
        ? undefined
        : filter.folder === 'none'
          ? isNull(media.folderId)
          : eq(media.folderId, filter.folder),
      filter.type === 'all' ? undefined : eq(media.kind, filter.type),
      filter.used === 'all'
        ? undefined
        : filter.used === 'used'
          ? usedSql(media.id)
          : sql`NOT ${usedSql(media.id)}`,
      filter.status === 'ready' ? eq(media.status, 'ready') : undefined,
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

  /**
   * Every sale of a paid post or paid message holding one of these files, one row per (file,
   * sale), read from the ledger (ADR 0032): the unlock transfers that name the post (`post_id`,
   * kind `unlock`) or the message (`message_id`, kind `message_unlock`), with the credits the fan
   * paid and the owner's leg in cents. Credit spends are final (a refunded credit purchase leaves
   * creators what they earned, money.math), so there are no reversals to net.
   */
  private sales(ownerId: string, mediaIds: string[]): SQL {
    const ids = sql.join(
      mediaIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const lt = ledgerTransactions;
    const share = sql`LEFT JOIN ${ledgerEntries} le ON le.transaction_id = ${lt.id}
      AND le.account = ${ACCOUNTS.creator(ownerId)} AND le.currency = 'cents'`;
    return sql`
      SELECT pm.media_id, pm.post_id, NULL::uuid AS message_id, ${lt.id} AS sale_id,
        -${lt.credits} AS credits, coalesce(le.amount, 0) AS cents
      FROM ${postMedia} pm JOIN ${lt} ON ${lt.postId} = pm.post_id AND ${lt.kind} = 'unlock'
        AND ${lt.creatorId} = ${ownerId}
      ${share}
      WHERE pm.media_id IN (${ids})
      UNION ALL
      SELECT mm.media_id, NULL::uuid, mm.message_id, ${lt.id}, -${lt.credits}, coalesce(le.amount, 0)
      FROM ${messageMedia} mm JOIN ${lt} ON ${lt.messageId} = mm.message_id AND ${lt.kind} = 'message_unlock'
        AND ${lt.creatorId} = ${ownerId}
      ${share}
      WHERE mm.media_id IN (${ids})`;
  }

  /** Each file's sales in total (every item holding it counted in full). */
  async earnings(ownerId: string, mediaIds: string[]): Promise<Map<string, VaultEarnings>> {
    const out = new Map<string, VaultEarnings>(mediaIds.map((id) => [id, { ...NO_EARNINGS }]));
    if (!mediaIds.length) return out;
    const rows = rowsOf<Row>(
      await this.db.execute(sql`SELECT media_id, count(*)::int AS sales, coalesce(sum(credits), 0)::int AS credits,
          coalesce(sum(cents), 0)::int AS earnings
        FROM (${this.sales(ownerId, mediaIds)}) s GROUP BY media_id`),
    );
    for (const r of rows) out.set(String(r.media_id), earningsOf(r));
    return out;
  }

  /** The posts and stories holding the file (deleted ones too when they sold), newest first. */
  async postUses(ownerId: string, mediaId: string) {
    const rows = rowsOf<Row>(
      await this.db.execute(sql`
        WITH sold AS (
          SELECT post_id, count(*)::int AS sales, coalesce(sum(credits), 0)::int AS credits,
            coalesce(sum(cents), 0)::int AS earnings
          FROM (${this.sales(ownerId, [mediaId])}) s WHERE post_id IS NOT NULL GROUP BY post_id
        )
        SELECT p.id, p.kind, left(p.message, 120) AS text, p.created_at, p.price, p.status,
          coalesce(s.sales, 0) AS sales, coalesce(s.credits, 0) AS credits, coalesce(s.earnings, 0) AS earnings
        FROM ${postMedia} pm JOIN ${posts} p ON p.id = pm.post_id LEFT JOIN sold s ON s.post_id = p.id
        WHERE pm.media_id = ${mediaId} AND p.creator_id = ${ownerId}
          AND (p.status = 'active' OR s.sales IS NOT NULL)
        ORDER BY p.created_at DESC, p.id`),
    );
    return rows.map((r) => ({
      _id: String(r.id),
      kind: r.kind === 'story' ? ('story' as const) : ('post' as const),
      text: String(r.text ?? ''),
      date: new Date(r.created_at as string).toISOString(),
      price: num(r.price),
      live: r.status === 'active',
      ...earningsOf(r),
    }));
  }

  /** The messages holding the file, a mass message once (with its recipients), newest first. */
  async messageUses(ownerId: string, mediaId: string) {
    const rows = rowsOf<Row>(
      await this.db.execute(sql`
        WITH held AS (
          SELECT m.id, coalesce(m.mass_id, m.id) AS grp, m.mass_id, m.to_id, m.message, m.price, m.created_at
          FROM ${messageMedia} mm JOIN ${messages} m ON m.id = mm.message_id
          WHERE mm.media_id = ${mediaId} AND m.from_id = ${ownerId}
        ), sold AS (
          SELECT h.grp, count(*)::int AS sales, coalesce(sum(s.credits), 0)::int AS credits,
            coalesce(sum(s.cents), 0)::int AS earnings
          FROM (${this.sales(ownerId, [mediaId])}) s JOIN held h ON h.id = s.message_id GROUP BY h.grp
        )
        SELECT h.grp AS id, bool_or(h.mass_id IS NOT NULL) AS mass, min(u.username) AS "to",
          count(*)::int AS recipients, min(left(h.message, 120)) AS text, min(h.created_at) AS created_at,
          max(h.price) AS price, coalesce(max(s.sales), 0) AS sales, coalesce(max(s.credits), 0) AS credits,
          coalesce(max(s.earnings), 0) AS earnings
        FROM held h JOIN ${users} u ON u.id = h.to_id LEFT JOIN sold s ON s.grp = h.grp
        GROUP BY h.grp ORDER BY min(h.created_at) DESC, h.grp`),
    );
    return rows.map((r) => ({
      _id: String(r.id),
      to: r.mass ? null : String(r.to),
      recipients: num(r.recipients),
      text: String(r.text ?? ''),
      date: new Date(r.created_at as string).toISOString(),
      price: num(r.price),
      ...earningsOf(r),
    }));
  }

  /** The welcome message's price when it holds the file. */
  async welcomeUse(ownerId: string, mediaId: string): Promise<{ price: number } | null> {
    const [row] = await this.db
      .select({ price: welcomeMessages.price })
      .from(welcomeMessageMedia)
      .innerJoin(welcomeMessages, eq(welcomeMessages.creatorId, welcomeMessageMedia.creatorId))
      .where(and(eq(welcomeMessageMedia.mediaId, mediaId), eq(welcomeMessageMedia.creatorId, ownerId)));
    return row ? { price: row.price } : null;
  }

  /** The owner's folders by name with their file counts, and how many vault files are in none. */
  async folders(
    ownerId: string,
  ): Promise<{ folders: (VaultFolderRow & { files: number })[]; unfiled: number }> {
    const [folders, [unfiled]] = await Promise.all([
      this.db
        .select({ folder: vaultFolders, files: sql<number>`count(${media.id})::int` })
        .from(vaultFolders)
        .leftJoin(media, eq(media.folderId, vaultFolders.id))
        .where(eq(vaultFolders.ownerId, ownerId))
        .groupBy(vaultFolders.id)
        .orderBy(asc(sql`lower(${vaultFolders.name})`), asc(vaultFolders.id)),
      this.db
        .select({ n: count() })
        .from(media)
        .where(and(eq(media.ownerId, ownerId), vaultFileSql(media.purpose), isNull(media.folderId))),
    ]);
    return {
      folders: folders.map((r) => ({ ...r.folder, files: Number(r.files) })),
      unfiled: unfiled?.n ?? 0,
    };
  }

  async folder(id: string): Promise<VaultFolderRow | undefined> {
    const [row] = await this.db.select().from(vaultFolders).where(eq(vaultFolders.id, id));
    return row;
  }

  async folderFiles(id: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(media).where(eq(media.folderId, id));
    return row?.n ?? 0;
  }

  /** A new folder; unique (case-insensitive) per owner, the index refuses a second one. */
  async createFolder(ownerId: string, name: string): Promise<VaultFolderRow> {
    const [row] = await this.db.insert(vaultFolders).values({ ownerId, name }).returning();
    return row!;
  }

  async renameFolder(ownerId: string, id: string, name: string): Promise<VaultFolderRow | undefined> {
    const [row] = await this.db
      .update(vaultFolders)
      .set({ name })
      .where(and(eq(vaultFolders.id, id), eq(vaultFolders.ownerId, ownerId)))
      .returning();
    return row;
  }

  /** Deletes an own folder; its files fall back to no folder (the foreign key sets null). */
  async deleteFolder(ownerId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(vaultFolders)
      .where(and(eq(vaultFolders.id, id), eq(vaultFolders.ownerId, ownerId)))
      .returning({ id: vaultFolders.id });
    return rows.length > 0;
  }

  /**
   * Puts the files `ids` (distinct) into `folderId` (or none) when every one is the owner's vault
   * file and the folder is the owner's, in one statement: all move or none (answers how many).
   */
  async move(ownerId: string, ids: string[], folderId: string | null): Promise<number> {
    const own = and(inArray(media.id, ids), eq(media.ownerId, ownerId), vaultFileSql(media.purpose));
    const rows = await this.db
      .update(media)
      .set({ folderId })
      .where(
        and(
          own,
          sql`(SELECT count(*) FROM ${media} WHERE ${own}) = ${ids.length}`,
          folderId === null
            ? undefined
            : sql`EXISTS (SELECT 1 FROM ${vaultFolders} f WHERE f.id = ${folderId} AND f.owner_id = ${ownerId})`,
        ),
      )
      .returning({ id: media.id });
    return rows.length;
  }
}
