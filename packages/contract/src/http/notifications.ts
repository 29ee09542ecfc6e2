import { z } from 'zod';
import { PAGE_LIMITS } from '../constants.ts';
import { pageStatisticsSchema } from '../paging.ts';

/** Every kind of notification; the server's templates must word each one in en and es. */
export const NOTIFICATION_KINDS = [
  'post_approved',
  'post_rejected',
  'story_approved',
  'story_rejected',
  'post_pending',
  'post_published',
  'like',
  'comment',
  'reply',
  'message',
  'subscriber_new',
  'subscription_renewed',
  'subscription_cancelled',
  'tip',
  'flowers',
  'gift',
  'live',
  'live_ticket',
  'unlock',
  'payout_sent',
  'report_resolved',
  'verification_accepted',
  'verification_rejected',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A product a notification is about (spec §3): its first media item shows as the thumbnail. */
export const notificationProductSchema = z.looseObject({
  _id: z.string().optional(),
  media: z.array(z.looseObject({ src: z.string().nullable() })),
});

/** What a notification points at: always a link; other keys fill the text's placeholders. */
export const notificationPayloadSchema = z.looseObject({
  link: z.string(),
  product: notificationProductSchema.optional(),
});
export type NotificationPayload = z.infer<typeof notificationPayloadSchema>;

/** A notification (spec §3); `message` is worded in the receiver's language when read. */
export const notificationSchema = z.object({
  _id: z.string(),
  kind: z.string(),
  message: z.string(),
  payload: notificationPayloadSchema,
  date: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(PAGE_LIMITS.notifications),
});
export const notificationsResponseSchema = z.object({
  notifications: z.array(notificationSchema),
  statistics: pageStatisticsSchema.extend({ unread: z.number().int() }),
});
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;

/** `POST /notifications/read?timestamp=` (ms): everything up to that moment is read. */
export const notificationsReadRequestSchema = z.object({
  timestamp: z.coerce.number().int().min(0).optional(),
});
export const notificationsReadResponseSchema = z.object({
  success: z.literal(true),
  unread: z.number().int(),
});
