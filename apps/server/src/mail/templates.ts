import type { Language } from '@fanverse/contract';
import { serverText } from '../i18n/i18n.ts';
import type { Mail, Mailer } from './mailer.ts';

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

/** A date as the mail's reader writes it (e.g. "23 November 2026" / "23 de noviembre de 2026"). */
export function mailDate(lang: Language, at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat(lang === 'es' ? 'es-ES' : 'en-GB', { dateStyle: 'long', timeZone }).format(
    at,
  );
}

/** The notice 7 days before a subscription renews: date, amount, one-click cancel (catalogue `mail.renewal`). */
export function renewalNoticeMail(
  lang: Language,
  params: {
    to: string;
    name: string;
    app: string;
    handle: string;
    date: string;
    price: string;
    cancelLink: string;
    manageLink: string;
  },
): Mail {
  return {
    to: params.to,
    subject: serverText(lang, 'mail.renewal.subject', params),
    text: serverText(lang, 'mail.renewal.text', params),
  };
}

/** The receipt of one charge (catalogue `mail.receipt`); `what` is already in the reader's language. */
export function receiptMail(
  lang: Language,
  params: {
    to: string;
    name: string;
    app: string;
    what: string;
    date: string;
    price: string;
    reference: string;
    next: string;
  },
): Mail {
  return {
    to: params.to,
    subject: serverText(lang, 'mail.receipt.subject', params),
    text: serverText(lang, 'mail.receipt.text', params),
  };
}

/** What a service needs to mail people: the transport, the app's name, where links point, the time zone. */
export interface MailContext {
  mailer: Mailer;
  app: string;
  baseUrl: string;
  timezone: string;
}

/** The email confirmation mail (the verified flag) in the account's language (catalogue `mail.confirm`). */
export function confirmEmailMail(
  lang: Language,
  params: { to: string; name: string; app: string; code: string; hours: number; link: string },
): Mail {
  return {
    to: params.to,
    subject: serverText(lang, 'mail.confirm.subject', params),
    text: serverText(lang, 'mail.confirm.text', params),
  };
}

/** "A new device signed in" in the account's language (catalogue `mail.newDevice`). */
export function newDeviceMail(
  lang: Language,
  params: {
    to: string;
    name: string;
    app: string;
    device: string;
    address: string;
    at: string;
    link: string;
  },
): Mail {
  return {
    to: params.to,
    subject: serverText(lang, 'mail.newDevice.subject', params),
    text: serverText(lang, 'mail.newDevice.text', params),
  };
}
