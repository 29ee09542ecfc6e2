import type { Language } from '@fanverse/contract';
import { formatMessage, type Localized } from '@fanverse/contract';

/** Texts of notifications, in the receiver's language; `{name}` placeholders come from the payload. */
export const NOTIFICATION_TEXTS = {
  post_approved: {
    en: 'Your post was approved and is now published.',
    es: 'Tu publicación fue aprobada y ya está publicada.',
  },
  post_rejected: {
    en: 'Your post was not approved: {reason}',
    es: 'Tu publicación no fue aprobada: {reason}',
  },
  story_approved: {
    en: 'Your story was approved and is now visible.',
    es: 'Tu historia fue aprobada y ya es visible.',
  },
  story_rejected: {
    en: 'Your story was not approved: {reason}',
    es: 'Tu historia no fue aprobada: {reason}',
  },
  post_pending: { en: 'Your post is under review.', es: 'Tu publicación está en revisión.' },
  like: { en: '{actor} liked your post.', es: 'A {actor} le gustó tu publicación.' },
  comment: { en: '{actor} commented on your post: {text}', es: '{actor} comentó tu publicación: {text}' },
  reply: { en: '{actor} replied to your comment: {text}', es: '{actor} respondió a tu comentario: {text}' },
} as const satisfies Record<string, Localized>;

export type NotificationKind = keyof typeof NOTIFICATION_TEXTS;

export function notificationText(
  kind: NotificationKind,
  lang: Language,
  payload: Record<string, unknown>,
): string {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(payload))
    if (typeof v === 'string' || typeof v === 'number') params[k] = String(v);
  if (!params.reason) params.reason = lang === 'es' ? 'sin motivo indicado' : 'no reason given';
  return formatMessage(NOTIFICATION_TEXTS[kind][lang], params);
}
