import type { Media, Message } from '@fanverse/contract';
import { canSeeMessageFiles } from '../../access/index.ts';
import type { MediaRow, MessageRow } from '../../db/schema.ts';

/** Shown in place of a file whose processing has not finished (a neutral blurred tile). */
export const PROCESSING_PLACEHOLDER =
  'data:image/svg+xml;utf8,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"%3E%3Crect width="4" height="3" fill="%23d9d9d9"/%3E%3C/svg%3E';

export interface MessageView {
  row: MessageRow;
  files: MediaRow[];
  viewerId: string;
  /** Handles of sender and receiver. */
  from: string;
  to: string;
  /** The viewer unlocked this paid message. */
  unlocked: boolean;
  /** Either party blocked the other. */
  blocked: boolean;
}

/** A message as one viewer sees it (spec §3); locked files carry only their blurred preview. */
export function presentMessage(
  v: MessageView,
  presentMedia: (row: MediaRow, access: boolean) => Media,
): Message {
  const access = canSeeMessageFiles(v.viewerId, { ...v.row, unlocked: v.unlocked, blocked: v.blocked });
  const files = v.files.map((f) => presentMedia(f, access));
  const processing = v.files.some((f) => f.status === 'processing');
  const dummy = files.map((f, i) =>
    v.files[i]!.status === 'processing' ? PROCESSING_PLACEHOLDER : (f.blur ?? PROCESSING_PLACEHOLDER),
  );
  return {
    _id: v.row.id,
    messageUUID: v.row.messageUuid,
    from: v.from,
    to: v.to,
    message: v.row.message,
    date: v.row.createdAt.toISOString(),
    isMe: v.row.fromId === v.viewerId,
    files,
    filesDummy: dummy,
    filesPosters: files.map((f, i) => (access ? (f.poster ?? f.thumb ?? dummy[i]!) : dummy[i]!)),
    processing,
    price: v.row.price,
    locked: !access && v.files.length > 0,
    read: v.row.readAt !== null,
  };
}
