import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useSession } from './session.store.ts';

type Catalogue = Record<string, unknown>;

/** Every catalogue file: locales/<language>/<namespace>.json. */
const files = import.meta.glob<Catalogue>('../locales/*/*.json', { eager: true, import: 'default' });

const resources: Record<string, Record<string, Catalogue>> = {};
for (const [path, catalogue] of Object.entries(files)) {
  const match = /locales\/(\w+)\/([\w-]+)\.json$/.exec(path);
  if (!match) continue;
  const [, language, namespace] = match as unknown as [string, string, string];
  resources[language] ??= {};
  resources[language][namespace] = catalogue;
}

export const NAMESPACES = Object.keys(resources.en ?? {});

void i18n.use(initReactI18next).init({
  resources,
  lng: useSession.getState().language,
  fallbackLng: 'en',
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
});

function applyLanguage(language: string): void {
  document.documentElement.lang = language;
  if (i18n.language !== language) void i18n.changeLanguage(language);
}
applyLanguage(useSession.getState().language);
useSession.subscribe((state, previous) => {
  if (state.language !== previous.language) applyLanguage(state.language);
});

export default i18n;
