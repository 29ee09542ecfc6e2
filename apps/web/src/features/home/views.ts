/**
 * Query-driven selection of the home view (spec §2). Every value the spec lists maps to a view
 * id; HomePage renders the view for the id. Precedence: feed, view, explore, adminStatus, admin,
 * feed_mode, then the default home feed.
 */
export const FEEDS = [
  'my-profile',
  'my-credits',
  'my-subscriptions',
  'my-transactions',
  'my-notifications',
  'my-credits-history',
  'developer',
  'wiki',
  'gallery',
  'creator-statistics',
  'my-subscribers',
  'my_content',
] as const;
export type Feed = (typeof FEEDS)[number];

/** Feeds drawn by MoneyFeedView (credits, history, subscriptions, statistics). */
export const MONEY_FEEDS: readonly Feed[] = [
  'my-credits',
  'my-credits-history',
  'my-transactions',
  'my-subscriptions',
  'my-subscribers',
  'creator-statistics',
];

export const VIEWS = ['user', 'creator', 'content', 'wiki'] as const;
export const CONTENTS = ['all', 'saved', 'bought'] as const;
export const FEED_MODES = ['plus', 'grid'] as const;
export const ADMIN_STATUSES = ['new', 'pending', 'approved', 'rejected', 'disapproved'] as const;

/**
 * Feeds that belong to a session: a logged-out visitor goes to /login first. The gallery is one:
 * its pictures belong to creators, whose pages need a login too (the API answers 401).
 */
export const PRIVATE_FEEDS: readonly Feed[] = FEEDS.filter((feed) => feed !== 'wiki');

export type HomeSelection =
  | { kind: 'feed'; feed: Feed; content?: string }
  | { kind: 'view'; view: (typeof VIEWS)[number]; content: (typeof CONTENTS)[number] }
  | { kind: 'explore' }
  | { kind: 'adminStatus'; status: string }
  | { kind: 'admin'; area: string }
  | { kind: 'feedMode'; mode: (typeof FEED_MODES)[number] }
  | { kind: 'home' };

function oneOf<T extends string>(list: readonly T[], value: string | null): value is T {
  return value !== null && (list as readonly string[]).includes(value);
}

export function selectHomeView(params: URLSearchParams): HomeSelection {
  const feed = params.get('feed');
  if (oneOf(FEEDS, feed)) return { kind: 'feed', feed, content: params.get('content') ?? undefined };
  const view = params.get('view');
  if (oneOf(VIEWS, view)) {
    const content = params.get('content');
    return { kind: 'view', view, content: oneOf(CONTENTS, content) ? content : 'all' };
  }
  if (params.has('explore')) return { kind: 'explore' };
  const adminStatus = params.get('adminStatus');
  if (adminStatus) return { kind: 'adminStatus', status: adminStatus };
  const admin = params.get('admin');
  if (admin !== null) return { kind: 'admin', area: admin || 'home' };
  const mode = params.get('feed_mode');
  if (oneOf(FEED_MODES, mode)) return { kind: 'feedMode', mode };
  return { kind: 'home' };
}

/** Does the selection need a session? */
export function needsLogin(selection: HomeSelection): boolean {
  switch (selection.kind) {
    case 'feed':
      return PRIVATE_FEEDS.includes(selection.feed);
    case 'view':
      return selection.view === 'content' || selection.view === 'user';
    case 'adminStatus':
    case 'admin':
      return true;
    default:
      return false;
  }
}
