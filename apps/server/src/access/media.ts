import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { isCreator, isStaff, type Viewer } from './roles.ts';

/** Avatars and covers are public: served without a signature, only for those purposes. */
export const PUBLIC_PURPOSES: readonly string[] = ['avatar', 'cover'];

/**
 * Vault files (ADR 0032): every upload but public avatars and covers. A creator's same bytes are
 * stored once and may be attached again to posts, stories, messages and the welcome message.
 */
export const isVaultFile = (row: { purpose: string }): boolean => !PUBLIC_PURPOSES.includes(row.purpose);

/** SQL: a `purpose` column of a vault file. */
export const vaultFileSql = (purpose: SQLWrapper): SQL =>
  sql`(${purpose} NOT IN (${sql.join(
    PUBLIC_PURPOSES.map((p) => sql.raw(`'${p}'`)),
    sql`, `,
  )}))`;

/** The vault is private to its owner: only that creator lists, deletes or attaches its files. */
export const canUseVaultFile = (viewer: Viewer, row: { ownerId: string; purpose: string }): boolean =>
  isCreator(viewer) && viewer.userId === row.ownerId && isVaultFile(row);

/** Whether a vault file may be attached again: a file whose processing failed has nothing to show. */
export const canAttachVaultFile = (
  viewer: Viewer,
  row: { ownerId: string; purpose: string; status: string },
) => canUseVaultFile(viewer, row) && row.status !== 'failed';

/**
 * The viewer named in the signed URLs of pictures shown to visitors (ADR 0038). They are signed
 * only for content free to everyone (`canSeeMedia` of nobody), and served unmarked: a mark would
 * name no one, and anyone may fetch the same picture. Never a user id (it is the nil UUID).
 */
export const EVERYONE = '00000000-0000-0000-0000-000000000000';

/**
 * The renditions that carry a viewer's invisible mark (ADR 0026): every picture of private media
 * (the web image, thumbnails, video posters). They are never served without the mark of whoever
 * the signed URL was made for. Public avatars and covers and the blurred preview are not marked.
 */
export function mustMark(row: { purpose: string; kind: string }, variant: string): boolean {
  if (PUBLIC_PURPOSES.includes(row.purpose)) return false;
  if (row.kind === 'image') return variant === 'web' || variant === 'thumb';
  return variant === 'poster' || variant === 'thumb';
}

/** Leak tracing: creators (their own media) and staff (any). Fans cannot trace. */
export const canTraceLeaks = (viewer: Viewer): boolean => isCreator(viewer) || isStaff(viewer);

/** Whether a trace's result about one file may be shown to the viewer. */
export const canSeeTraceOf = (viewer: Viewer, media: { ownerId: string }): boolean =>
  (isCreator(viewer) && viewer.userId === media.ownerId) || isStaff(viewer);

/** Who may follow a trace and read its result: whoever asked for it, and staff. */
export const canSeeLeakTrace = (viewer: Viewer, trace: { requesterId: string }): boolean =>
  (isCreator(viewer) && viewer.userId === trace.requesterId) || isStaff(viewer);
