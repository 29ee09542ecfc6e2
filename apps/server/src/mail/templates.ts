import type { Language } from '@fanverse/contract';
import { serverText } from '../i18n/i18n.ts';
import type { Mail } from './mailer.ts';

/** The password-reset mail in the language of the page that asked for it (catalogue `mail.reset`). */
export function resetCodeMail(
  lang: Language,
  params: { to: string; name: string; app: string; code: string; minutes: number; link: string },
): Mail {
  return {
    to: params.to,
    subject: serverText(lang, 'mail.reset.subject', params),
    text: serverText(lang, 'mail.reset.text', params),
  };
}
