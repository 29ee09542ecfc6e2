import { z } from 'zod';
import { PAGE_LIMITS } from '../constants.ts';
import { pageStatisticsSchema } from '../paging.ts';
import { mediaSchema, publicUserSchema, vaultMediaField } from './content.ts';

/**
 * A direct message (spec §3) as one viewer sees it. `from` and `to` are handles. While its media
 * are processed, `processing` is true and `filesDummy` / `filesPosters` hold placeholders; a
 * second `message` event with the same `messageUUID` replaces it when done. Paid media stay
 * `locked` (only blurred previews) until the receiver unlocks the message.
 */
export const messageSchema = z.object({
  _id: z.string(),
  messageUUID: z.string(),
  from: z.string(),
  to: z.string(),
  message: z.string(),
  date: z.string(),
  isMe: z.boolean(),
  files: z.array(mediaSchema),
  /** Blurred preview (or a processing placeholder) per file. */
  filesDummy: z.array(z.string()),
  /** Poster per file: the video poster or image thumbnail with access, else the blurred preview. */
  filesPosters: z.array(z.string()),
  processing: z.boolean(),
  /** Price in credits of the media (0: free). */
  price: z.number().int(),
  locked: z.boolean(),
  read: z.boolean(),
});
export type Message = z.infer<typeof messageSchema>;

export const contactSchema = z.object({
  user: publicUserSchema,
  lastMessage: z.string(),
  lastMessageIsMe: z.boolean(),
  date: z.string(),
  unread: z.number().int(),
});
export type Contact = z.infer<typeof contactSchema>;

export const contactsQuerySchema = z.object({
  q: z.string().trim().max(60).default(''),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_LIMITS.contacts),
});
export const contactsResponseSchema = z.object({
  users: z.array(contactSchema),
  statistics: pageStatisticsSchema,
});
export type ContactsResponse = z.infer<typeof contactsResponseSchema>;

export const conversationQuerySchema = z.object({
  /** The other person's handle. */
  user: z.string({ error: 'MISSING_DATA' }).trim().min(1, 'MISSING_DATA').max(40),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_LIMITS.messages),
});
/** Page 1 holds the newest messages; each page is ordered oldest to newest. */
export const conversationResponseSchema = z.object({
  user: publicUserSchema,
  messages: z.array(messageSchema),
  statistics: pageStatisticsSchema,
});
export type ConversationResponse = z.infer<typeof conversationResponseSchema>;

const messageFields = {
  /** Length and emptiness are checked by the server ('Message empty', MESSAGE_TOO_LONG). */
  message: z.string().default(''),
  messageUUID: z.string({ error: 'MISSING_DATA' }).trim().min(1, 'MISSING_DATA').max(64, 'tooLong'),
  /** Credits to unlock the attached media (creators only); 0 or absent: free. */
  price: z.coerce.number().int().min(0).max(100_000).default(0),
  /** Vault files attached again without an upload (creators only; ADR 0032). */
  vaultMedia: vaultMediaField,
};

/** Send (form data with files, or JSON without). */
export const sendMessageRequestSchema = z.object({
  to: z.string({ error: 'MISSING_DATA' }).trim().min(1, 'MISSING_DATA').max(40),
  ...messageFields,
});
export type SendMessageRequest = z.input<typeof sendMessageRequestSchema>;
export const sendMessageResponseSchema = z.object({ success: z.literal(true), message: messageSchema });

/** One message from a creator to every active subscriber. */
export const massMessageRequestSchema = z.object(messageFields);
export type MassMessageRequest = z.input<typeof massMessageRequestSchema>;
export const massMessageResponseSchema = z.object({ success: z.literal(true), sent: z.number().int() });

/** Payload of the `unreadMessages` socket event. */
export const unreadMessagesSchema = z.object({ total: z.number().int() });

export const blockRequestSchema = z.object({
  user: z.string({ error: 'MISSING_DATA' }).trim().min(1, 'MISSING_DATA').max(40),
});
export const blockResponseSchema = z.object({ success: z.literal(true), blocked: z.boolean() });
export const blocksResponseSchema = z.object({ users: z.array(publicUserSchema) });
