import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import { vaultFileSql } from '../access/index.ts';
import type { Db } from '../db/client.ts';
import { media } from '../db/schema.ts';
import type { MediaRow } from './media.repository.ts';
import { type EncodingSlot, encodingAt, type VideoManifest } from './video.ts';

/** A failed re-encoding is tried again by the scan after this long (other videos go first). */
const RETRY_FAILED_AFTER = sql`interval '1 day'`;

/**
 * SQL: a ready private video (every purpose but public avatars and covers) some of whose HLS is
 * served unmarked: encoded before the mark (no `mark` in its manifest, or no manifest at all), or
 * marked but with a free preview encoded before the preview was (ADR 0041).
 */
const servedUnmarked: SQL = and(
  eq(media.kind, 'video'),
  eq(media.status, 'ready'),
  vaultFileSql(media.purpose),
  sql`(jsonb_typeof(${media.info} -> 'video' -> 'mark') IS DISTINCT FROM 'object'
    OR (jsonb_typeof(${media.info} -> 'video' -> 'preview') = 'object'
      AND (${media.info} -> 'video' -> 'preview' ->> 'marked') IS DISTINCT FROM 'true'))`,
) as SQL;

/** The mark backfill's queries: which videos still need the mark, and the switch of an encoding. */
export class MarkBackfillRepository {
  constructor(private readonly db: Db) {}

  /** How many private videos are still served unmarked. */
  async countUnmarked(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(media).where(servedUnmarked);
    return row?.n ?? 0;
  }

  /** The oldest `limit` videos still served unmarked, but those whose re-encoding failed lately. */
  async nextUnmarked(limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: media.id })
      .from(media)
      .where(
        and(
          servedUnmarked,
          sql`NOT coalesce((${media.info} -> 'remarkFailed' ->> 'at')::timestamptz > now() - ${RETRY_FAILED_AFTER}, false)`,
        ),
      )
      .orderBy(asc(media.createdAt), asc(media.id))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  /** The video, when it is still served unmarked. */
  async unmarked(id: string): Promise<MediaRow | undefined> {
    const [row] = await this.db
      .select()
      .from(media)
      .where(and(eq(media.id, id), servedUnmarked))
      .limit(1);
    return row;
  }

  /**
   * Records `pending` as the re-encoding being stored, while the served encoding is still the one
   * of key id `served` (null: none). Answers the pending encoding it displaced (a crashed or
   * overtaken run's, whose files are to go), or `false` when the row is gone or was switched.
   */
  async claim(
    id: string,
    served: string | null,
    pending: VideoManifest,
  ): Promise<VideoManifest | null | false> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select({ info: media.info }).from(media).where(eq(media.id, id)).for('update');
      if (!row || (encodingAt(row.info, 'video')?.keyId ?? null) !== served) return false;
      await tx
        .update(media)
        .set({ info: { ...(row.info as object), pendingVideo: pending } })
        .where(eq(media.id, id));
      return encodingAt(row.info, 'pendingVideo');
    });
  }

  /**
   * Serves the pending re-encoding of key id `pending` in place of the encoding of key id `served`,
   * in one update: `info` becomes the re-encoding's (probe and manifest), the old manifest is kept
   * as `replacedVideo` until its files are deleted. False when anything moved meanwhile (the row is
   * gone, switched, or another run's re-encoding is pending).
   */
  async switchTo(
    id: string,
    served: string | null,
    pending: string,
    info: Record<string, unknown> & { video: VideoManifest },
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select({ info: media.info }).from(media).where(eq(media.id, id)).for('update');
      if (!row || encodingAt(row.info, 'pendingVideo')?.keyId !== pending) return false;
      const old = encodingAt(row.info, 'video');
      if ((old?.keyId ?? null) !== served) return false;
      const { pendingVideo: _, remarkFailed: __, ...kept } = (row.info ?? {}) as Record<string, unknown>;
      await tx
        .update(media)
        .set({ info: { ...kept, ...info, ...(old ? { replacedVideo: old } : {}) } })
        .where(eq(media.id, id));
      return true;
    });
  }

  /** Forgets the encoding in `slot` once its files are deleted, if it is still the one of `keyId`. */
  async forget(id: string, slot: Exclude<EncodingSlot, 'video'>, keyId: string): Promise<void> {
    await this.db
      .update(media)
      .set({ info: sql`${media.info} - ${slot}::text` })
      .where(and(eq(media.id, id), sql`${media.info} -> ${slot}::text ->> 'keyId' = ${keyId}`));
  }

  /** Whether the re-encoding of key id `keyId` is still the video's pending one (no later run displaced it). */
  async stillPending(id: string, keyId: string): Promise<boolean> {
    const [row] = await this.db.select({ info: media.info }).from(media).where(eq(media.id, id));
    return encodingAt(row?.info, 'pendingVideo')?.keyId === keyId;
  }

  /** Notes a failed re-encoding (the scan skips the video for a day). */
  async failed(id: string, error: string): Promise<void> {
    await this.db
      .update(media)
      .set({
        info: sql`coalesce(${media.info}, '{}'::jsonb) || jsonb_build_object('remarkFailed', jsonb_build_object('at', now(), 'error', ${error.slice(0, 500)}::text))`,
      })
      .where(eq(media.id, id));
  }
}
