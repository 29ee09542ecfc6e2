import { LANGUAGES, type Language } from '@fanverse/contract';
import { createInstance, type TOptions } from 'i18next';
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };

/**
 * Texts the server makes (mails, live notifications, the sandbox billing page, start-up words)
 * come from these catalogues through i18next, the library the web app uses, so both ends word
 * things the same way: `{{name}}` placeholders, one JSON catalogue per language, parity tested.
 */
export const CATALOGUES = { en, es } as const;

const i18n = createInstance();
void i18n.init({
  resources: { en: { translation: en }, es: { translation: es } },
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  // Synchronous: the resources are in memory, so texts are ready once this module is loaded.
  initAsync: false,
  // Plain text (mails, JSON); HTML pages escape what they insert themselves.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** One text in a language; params fill `{{name}}` placeholders. */
export function serverText(
  lang: Language,
  key: string,
  params: Record<string, string | number> = {},
): string {
  return i18n.t(key, { ...params, lng: lang } as TOptions);
}

/** Whether the catalogue has a text for this key (in English, the reference language). */
export function hasServerText(key: string): boolean {
  return i18n.exists(key, { lng: 'en' });
}

/** Flat catalogue sections by language and section. */
const flatSections = new Map<string, Readonly<Record<string, string>>>();

/**
 * A flat `{ 'group.key': text }` view of a catalogue section (start-up words and texts), computed
 * once per language and section (the catalogues are fixed at start).
 */
export function flatSection(lang: Language, section: 'words' | 'texts'): Record<string, string> {
  const key = `${lang}:${section}`;
  const known = flatSections.get(key);
  if (known) return known as Record<string, string>;
  const out: Record<string, string> = {};
  const walk = (node: unknown, prefix: string) => {
    if (typeof node === 'string') out[prefix] = node;
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) walk(v, prefix ? `${prefix}.${k}` : k);
  };
  walk(CATALOGUES[lang][section], '');
  flatSections.set(key, Object.freeze(out));
  return out;
}
