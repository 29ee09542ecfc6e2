import type { Language } from './constants.ts';

/** A text in every interface language. */
export type Localized = Record<Language, string>;

/** Replaces `{name}` placeholders with the given values. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

/** Picks the language from an `ilang` / Accept-Language value; anything unknown is English. */
export function pickLanguage(value: string | undefined | null): Language {
  const v = (value ?? '').trim().toLowerCase();
  return v.startsWith('es') ? 'es' : 'en';
}
