import { type Language, NOTIFICATION_KINDS, type NotificationKind } from '@fanverse/contract';
import { serverText } from '../../i18n/i18n.ts';

export type { NotificationKind };

export function isNotificationKind(kind: string): kind is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(kind);
}

/**
 * The text of a notification in the receiver's language (catalogue `notifications.<kind>`);
 * `{{name}}` placeholders come from the payload. Every kind of the contract has a text (tested).
 */
export function notificationText(
  kind: NotificationKind,
  lang: Language,
  payload: Record<string, unknown>,
): string {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(payload))
    if (typeof v === 'string' || typeof v === 'number') params[k] = String(v);
  if (!params.reason) params.reason = noReason(lang);
  return serverText(lang, `notifications.${kind}`, params);
}

const noReasons = new Map<Language, string>();
/** "No reason given", worded once per language (the catalogues are fixed at start). */
function noReason(lang: Language): string {
  let text = noReasons.get(lang);
  if (text === undefined) {
    text = serverText(lang, 'notifications.noReason');
    noReasons.set(lang, text);
  }
  return text;
}
