/**
 * The server's first view (ADR 0048): the app's own route tree rendered to HTML with
 * react-dom/server, from data the server gathered with its own services. Built by
 * `npm run build` (scripts/build.mjs, Vite SSR) into apps/web/dist-ssr/firstView.js, which the
 * server imports (apps/server/src/http/first-view.ts). Nothing here reads a request or the
 * database: the caller passes everything in (`FirstViewInput`).
 *
 * The render is synchronous (renderToString) so the app's module-level stores (session, ui) can
 * be set for this one render: nothing else runs between setting them and reading them. Pages are
 * loaded once (`prepareFirstView`) so their `use()` does not suspend; a lazy piece inside a page
 * (stories, suggestions of another view) renders its fallback, as the client's first render does.
 */
import type { FirstViewInput, Language } from '@fanverse/contract';
import { QueryClient } from '@tanstack/react-query';
import i18next, { type i18n as I18n } from 'i18next';
import { renderToString } from 'react-dom/server';
import { initReactI18next } from 'react-i18next';
// RouterProvider of react-router, not of react-router/dom (main.tsx's): that one only adds
// react-dom's flushSync for updates, a wrapper without markup of its own.
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { AppTree } from '../app/AppTree.tsx';
import { type LazyPart, pageModule } from '../app/lazy.ts';
import { routes } from '../app/router.tsx';
import { useSession } from '../app/session.store.ts';
import { useUi } from '../app/ui.store.ts';
import { cachedValue, FIRST_VIEW_PAGES, firstViewSession, setServerSnapshot } from './firstViewData.ts';

export type { FirstViewData, FirstViewInput, SeededQuery } from '@fanverse/contract';

/**
 * The first path segments of the routes (lower case, static ones only): the children of pathless
 * routes are looked into, a route with a path gives its first segment (`billing/cancel`: billing).
 */
export function firstSegmentsOf(list: readonly RouteObject[]): string[] {
  const segments = new Set<string>();
  const visit = (level: readonly RouteObject[]) => {
    for (const route of level) {
      if (route.path === undefined) {
        if (route.children) visit(route.children);
        continue;
      }
      const first = route.path.replace(/^\/+/, '').split('/')[0] ?? '';
      if (first && !first.startsWith(':') && first !== '*') segments.add(first.toLowerCase());
    }
  };
  visit(list);
  return [...segments];
}

/**
 * The app's own first path segments, from its route objects (router.tsx): the server never takes
 * `/{one of these}` for a creator's handle, so a new top-level route needs no second list.
 */
export const appPaths: readonly string[] = firstSegmentsOf(routes);

/** Every catalogue of both languages, bundled (the server has no reason to load them lazily). */
const catalogues = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});

const instances = new Map<Language, I18n>();

/** One i18next instance per language, with every namespace, initialised synchronously. */
function i18nFor(language: Language): I18n {
  let instance = instances.get(language);
  if (instance) return instance;
  const resources: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const [file, catalogue] of Object.entries(catalogues)) {
    const match = /\/locales\/([\w-]+)\/([\w-]+)\.json$/.exec(file);
    if (!match?.[1] || !match[2]) continue;
    const lang = match[1];
    resources[lang] ??= {};
    resources[lang][match[2]] = catalogue;
  }
  instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: false,
    resources,
    ns: Object.keys(resources[language] ?? {}),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    react: { useSuspense: false },
  });
  instances.set(language, instance);
  return instance;
}

/** Loads the pages a first view can show, so rendering them never suspends. Call once at start-up. */
export async function prepareFirstView(): Promise<void> {
  const pages = await Promise.all(FIRST_VIEW_PAGES.map((name) => pageModule(name)));
  // Their lazy parts too: a part that suspended in the server's render would be rendered again by
  // the browser that hydrates it.
  await Promise.all(
    pages.flatMap((page) =>
      ((page as { firstViewParts?: LazyPart<never>[] }).firstViewParts ?? []).map((part) => part.preload()),
    ),
  );
  i18nFor('en');
  i18nFor('es');
}

/**
 * The first view's test ids are renamed (data-fv-testid): a browser test that finds an element by
 * its test id finds the app's own, live one, not the server's markup it replaces (where a click or
 * a play() would be lost). Nothing else reads them; user text cannot hold the attribute (escaped).
 */
function testIdsOfFirstView(html: string): string {
  return html.replace(/ data-testid="/g, ' data-fv-testid="');
}

function setServerState<T extends object>(
  store: { getInitialState: () => T; setState: (partial: Partial<T>) => void },
  values: Partial<T>,
): void {
  setServerSnapshot(store, values);
  store.setState(values);
}

/**
 * The markup of #root for this page and this viewer: the browser's own tree (AppTree and the data
 * router's RouterProvider, on a memory router at this URL), so main.tsx can hydrate it.
 */
export function renderFirstView(input: FirstViewInput): string {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  for (const query of input.queries) client.setQueryData(query.key, cachedValue(query));
  // A server render reads a zustand store's initial state (useSyncExternalStore's server snapshot):
  // this render's values go there (this bundle runs only on the server) and into the state.
  // The real token never reaches the renderer: components only test that there is one.
  setServerState(useSession, firstViewSession({ ...input, token: 'first-view' }));
  setServerState(useUi, { screen: input.screen });
  const router = createMemoryRouter(routes, { initialEntries: [input.url] });
  try {
    return testIdsOfFirstView(
      renderToString(
        <AppTree
          queryClient={client}
          i18n={i18nFor(input.language)}
          firstRender={{ now: input.now, ageAccepted: input.ageAccepted }}
        >
          <RouterProvider router={router} />
        </AppTree>,
      ),
    );
  } finally {
    router.dispose();
    client.clear();
  }
}
