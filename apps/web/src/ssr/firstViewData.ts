import type { HomeResponse, Language, Profile, SeededQuery, SessionUser } from '@fanverse/contract';

export type { FirstViewData, SeededQuery } from '@fanverse/contract';

/** Pages a first view can show (the server renders only these routes). */
export const FIRST_VIEW_PAGES = ['home/HomePage', 'creator/CreatorPage', 'post/PostPage'] as const;

/** The value a seeded entry has in the query cache (a feed is an infinite query's first page). */
export function cachedValue(query: SeededQuery): unknown {
  return query.infinite ? { pages: [query.data], pageParams: [1] } : query.data;
}

/** The session store's values a first view is rendered with (ADR 0048). */
export function firstViewSession(view: {
  user: SessionUser | null;
  profile: Profile | null;
  language: Language;
  app: HomeResponse;
  /** The session token, or a stand-in (components only test that there is one). */
  token: string | null;
}) {
  return {
    token: view.user ? view.token : null,
    user: view.user,
    profile: view.profile,
    counters: view.profile?.counters ?? null,
    online: false,
    lastConnection: null,
    language: view.language,
    app: view.app,
    status: 'ready' as const,
    api: true,
    loaded: false,
  };
}

/**
 * Sets a zustand store's initial state, which is what a server render and a hydration read
 * (useSyncExternalStore's server snapshot): the first view's values on both sides, so the
 * hydrating render is the server's. After hydration the components read the store's state.
 */
export function setServerSnapshot<T extends object>(
  store: { getInitialState: () => T },
  values: Partial<T>,
): void {
  Object.assign(store.getInitialState(), values);
}
