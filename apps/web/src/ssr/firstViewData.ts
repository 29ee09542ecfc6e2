import type { SeededQuery } from '@fanverse/contract';

export type { FirstViewData, SeededQuery } from '@fanverse/contract';

/** Pages a first view can show (the server renders only these routes). */
export const FIRST_VIEW_PAGES = ['home/HomePage', 'creator/CreatorPage', 'post/PostPage'] as const;

/** The value a seeded entry has in the query cache (a feed is an infinite query's first page). */
export function cachedValue(query: SeededQuery): unknown {
  return query.infinite ? { pages: [query.data], pageParams: [1] } : query.data;
}
