import type { Language, NotificationKind } from '@fanverse/contract';
import { formatMessage, type Localized } from '@fanverse/contract';

/**
 * Texts of notifications, in the receiver's language; `{name}` placeholders come from the payload.
 * A new kind goes into the contract's NOTIFICATION_KINDS first; this map must word every kind.
 */
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
  message: { en: 'New message from {actor}: {text}', es: 'Nuevo mensaje de {actor}: {text}' },
  subscriber_new: { en: '{actor} subscribed to you.', es: '{actor} se suscribió a ti.' },
  subscription_renewed: {
    en: '{actor} renewed their subscription.',
    es: '{actor} renovó su suscripción.',
  },
  subscription_cancelled: {
    en: '{actor} cancelled their subscription.',
    es: '{actor} canceló su suscripción.',
  },
  tip: {
    en: '{actor} sent you a tip of {amount} credits.',
    es: '{actor} te envió una propina de {amount} créditos.',
  },
  flowers: { en: '{actor} sent you flowers.', es: '{actor} te envió flores.' },
  gift: { en: '{actor} sent you a gift.', es: '{actor} te envió un regalo.' },
  unlock: {
    en: '{actor} unlocked your content for {amount} credits.',
    es: '{actor} desbloqueó tu contenido por {amount} créditos.',
  },
  payout_sent: { en: 'Your payout of {amount} was sent.', es: 'Tu pago de {amount} fue enviado.' },
  report_resolved: {
    en: 'We reviewed your report. {response}',
    es: 'Revisamos tu denuncia. {response}',
  },
  verification_accepted: {
    en: 'Your identity verification was accepted.',
    es: 'Tu verificación de identidad fue aceptada.',
  },
  verification_rejected: {
    en: 'Your identity verification was rejected: {reason}',
    es: 'Tu verificación de identidad fue rechazada: {reason}',
  },
} as const satisfies Record<NotificationKind, Localized>;

export type { NotificationKind };

export function isNotificationKind(kind: string): kind is NotificationKind {
  return Object.hasOwn(NOTIFICATION_TEXTS, kind);
}

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
