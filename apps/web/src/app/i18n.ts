import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useSession } from './session.store.ts';
import namespaces from './startupNamespaces.json';

type Catalogue = Record<string, unknown>;

/**
 * Every catalogue file, locales/<language>/<namespace>.json, each its own chunk: only the active
 * language's namespaces are fetched, when first needed (the other language on a switch).
 */
const files = import.meta.glob<Catalogue>('../locales/*/*.json', { import: 'default' });

export const NAMESPACES = [
  ...new Set(Object.keys(files).map((path) => /\/([\w-]+)\.json$/.exec(path)?.[1] ?? '')),
].filter(Boolean);

/** Loads a catalogue through its chunk (i18next backend). */
const chunkBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const load = files[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No catalogue ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (catalogue) => callback(null, catalogue),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

const session = useSession.getState();

/**
 * Resolves when the start-up namespaces of the active language are in (main.tsx renders then, so
 * the first paint is translated). The catalogues of en and es have the same keys
 * (locales.test.ts), so no fallback language is loaded.
 */
const startupNamespaces = session.token ? [...namespaces.startup, ...namespaces.session] : namespaces.startup;
export const i18nReady: Promise<unknown> = i18n
  .use(chunkBackend)
  .use(initReactI18next)
  .init({
    lng: session.language,
    fallbackLng: false,
    ns: startupNamespaces,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: true },
  })
  // init can settle before the backend has answered: wait for the catalogues themselves.
  .then(() => i18n.loadNamespaces(startupNamespaces));

/**
 * A language switch fetches the new language's catalogues for every namespace loaded so far,
 * then switches: the text changes in one step, with no untranslated key in between.
 */
function applyLanguage(language: string): void {
  if (i18n.language === language) {
    document.documentElement.lang = language;
    return;
  }
  void i18n.changeLanguage(language).then(() => {
    if (useSession.getState().language === language) document.documentElement.lang = language;
  });
}
document.documentElement.lang = session.language;
applyLanguage(session.language);
useSession.subscribe((state, previous) => {
  if (state.language !== previous.language) applyLanguage(state.language);
});

export default i18n;
