import { LIMITS } from './constants.ts';
import type { Localized } from './i18n.ts';

/**
 * Field rules of spec §5. A schema's custom messages are keys of FIELD_MESSAGES, so the server
 * and the web app show the same text in the user's language.
 */
export const FIELD_MESSAGES = {
  required: { en: 'This field is required.', es: 'Este campo es obligatorio.' },
  invalid: { en: 'This value is not valid.', es: 'Este valor no es válido.' },
  tooLong: { en: 'This value is too long.', es: 'Este valor es demasiado largo.' },
  'username.length': {
    en: `Username must be ${LIMITS.usernameMin} to ${LIMITS.usernameMax} characters.`,
    es: `El nombre de usuario debe tener entre ${LIMITS.usernameMin} y ${LIMITS.usernameMax} caracteres.`,
  },
  'username.chars': {
    en: 'Username may only contain letters and numbers, without spaces.',
    es: 'El nombre de usuario solo puede tener letras y números, sin espacios.',
  },
  'gallery.empty': {
    en: 'Choose at least one picture for the category.',
    es: 'Elige al menos una imagen para la categoría.',
  },
  'email.invalid': { en: 'Enter a valid email address.', es: 'Introduce un correo electrónico válido.' },
  'password.length': {
    en: `Password must be ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`,
    es: `La contraseña debe tener entre ${LIMITS.passwordMin} y ${LIMITS.passwordMax} caracteres.`,
  },
  'birthdate.invalid': {
    en: 'Enter a valid date of birth.',
    es: 'Introduce una fecha de nacimiento válida.',
  },
  'birthdate.minimumAge': {
    en: `You must be at least ${LIMITS.minimumAge} years old.`,
    es: `Debes tener al menos ${LIMITS.minimumAge} años.`,
  },
  'terms.required': {
    en: 'You must accept the terms to continue.',
    es: 'Debes aceptar los términos para continuar.',
  },
  'phone.invalid': { en: 'Enter a valid phone number.', es: 'Introduce un número de teléfono válido.' },
  'code.invalid': { en: 'Enter the code we sent you.', es: 'Introduce el código que te enviamos.' },
  'certification.required': {
    en: 'Confirm this certification to publish.',
    es: 'Confirma esta certificación para publicar.',
  },
  'price.required': {
    en: 'Set a price in credits for pay-per-view content.',
    es: 'Pon un precio en créditos para el contenido de pago por ver.',
  },
  'preview.choice': {
    en: 'Choose a free preview of 0, 5, 10, 15 or 30 seconds.',
    es: 'Elige una vista previa gratis de 0, 5, 10, 15 o 30 segundos.',
  },
  'document.duplicate': {
    en: 'Each photo must be different: the front, the back, and you holding the document.',
    es: 'Cada foto debe ser distinta: el frente, el reverso y tú sosteniendo el documento.',
  },
  'code.expired': { en: 'This code has expired.', es: 'Este código ha caducado.' },
  'username.taken': { en: 'This username is already taken.', es: 'Este nombre de usuario ya está en uso.' },
  'holdDays.range': {
    en: 'Enter a whole number of days from 0 to 90.',
    es: 'Introduce un número entero de días entre 0 y 90.',
  },
  'giftCredits.range': {
    en: 'Enter a whole number of credits from 1 to 10,000.',
    es: 'Introduce un número entero de créditos entre 1 y 10.000.',
  },
  'email.taken': {
    en: 'An account with this email already exists.',
    es: 'Ya existe una cuenta con este correo.',
  },
  'wiki.slug': {
    en: 'Use lower-case letters, digits and dashes only (for example how-to-subscribe).',
    es: 'Usa solo minúsculas, números y guiones (por ejemplo como-suscribirse).',
  },
  nullByte: {
    en: 'This value contains a null character, which is not allowed.',
    es: 'Este valor contiene un carácter nulo, que no está permitido.',
  },
} as const satisfies Record<string, Localized>;

export type FieldMessageKey = keyof typeof FIELD_MESSAGES;

export function isFieldMessageKey(value: string): value is FieldMessageKey {
  return Object.hasOwn(FIELD_MESSAGES, value);
}

export const USERNAME_PATTERN = /^[A-Za-z0-9]+$/;
/** One @, a dot, an ending of two or more characters, no spaces (spec §5). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/;
/** Optional plus, optional 1–3 digit country code in optional parentheses, then digits, spaces, dashes, dots or slashes. */
export const PHONE_PATTERN = /^\+?(\(?\d{1,3}\)?)?[\d\s\-./]*\d[\d\s\-./]*$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The path (`a.b.0`) of the first string, or object key, holding a NUL character (U+0000) in a
 * request's input; undefined when there is none. No text of the API may hold one (PostgreSQL cannot
 * store it), so every endpoint's params, query, body and form fields are refused with the field
 * error `nullByte` before their schema runs; `_` names the input itself.
 */
export function nullBytePath(value: unknown): string | undefined {
  // Iterative, so that deeply nested input cannot overflow the stack. Each entry knows its parent:
  // the path is only spelled out for a hit (every request of the API passes through here).
  interface Entry {
    value: unknown;
    key: string | number;
    parent: Entry | undefined;
  }
  const name = (entry: Entry | undefined, last?: string | number) => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let e = entry; e; e = e.parent) path.push(e.key);
    path.pop(); // the input itself
    return path.length ? path.reverse().join('.') : '_';
  };
  const stack: Entry[] = [{ value, key: '_', parent: undefined }];
  while (stack.length) {
    const entry = stack.pop() as Entry;
    const v = entry.value;
    if (typeof v === 'string') {
      if (v.includes('\0')) return name(entry);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: entry });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (key.includes('\0')) return name(entry, key.replaceAll('\0', ''));
        stack.push({ value: (v as Record<string, unknown>)[key], key, parent: entry });
      }
    }
  }
  return undefined;
}

/** A username with characters outside letters and digits (spec §2: the account dialog after 6 s). */
export function hasSpecialCharacters(username: string): boolean {
  return !USERNAME_PATTERN.test(username);
}

/** Today's date as YYYY-MM-DD in the running process's local time zone. */
export function todayIso(now: Date = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export function isRealIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1900;
}

/** Whole years between a birth date and a day, both YYYY-MM-DD. */
export function ageOn(birthdate: string, day: string): number {
  const [by, bm, bd] = birthdate.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = day.split('-').map(Number) as [number, number, number];
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age -= 1;
  return age;
}
