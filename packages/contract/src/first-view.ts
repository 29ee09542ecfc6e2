/**
 * The server's first view of a page (ADR 0048): the data it rendered the page with, sent in the
 * page as `<script type="application/json" id="fv-first-view">`, which the client reads to seed its
 * start-up store and query cache instead of asking again. No zod: the client reads it on the
 * first load.
 */
import type { ScreenClass } from './constants.ts';
import type { SessionUser } from './http/auth.ts';
import type { HomeResponse } from './http/home.ts';
import type { Profile } from './http/user.ts';

/** Id of the JSON script element that carries the first view's data. */
export const FIRST_VIEW_SCRIPT_ID = 'fv-first-view';

/**
 * What the first view shows outside its `#root`, which is inert until the app takes over: an open
 * modal (the visitor's age notice), so that it alone takes the keyboard and the clicks. The
 * renderer wraps such a modal in an element of this tag where the app renders it; the server moves
 * it into the page's element of this id, after `#root`; the app removes that element once it shows
 * the modal itself.
 */
export const FIRST_VIEW_OUTSIDE = 'fv-outside';

/**
 * Cookies the server reads only to render GET pages (never on /api/: the API takes its token
 * from a header, so these are no CSRF surface).
 */
export const FIRST_VIEW_COOKIES = {
  /** The session token (HttpOnly, set and cleared by the server: POST / DELETE `FIRST_VIEW_SESSION_PATH`). */
  session: 'fv_session',
  /** The language shown in this browser (en / es), set by the client. */
  language: 'fv_lang',
  /** The visitor accepted the 18+ notice, set by the client (or by `FIRST_VIEW_AGE_PATH`). */
  age: 'fv_age',
  /**
   * This browser's screen class (mobile, tablet, desktop, tv; spec §4), set by the client whenever
   * it changes: the first view is laid out for it, so nothing moves when the app takes over. Without
   * it the server guesses from the client hints or the user agent (a first visit).
   */
  screen: 'fv_screen',
} as const;

/** The fv_age value of an accepted age notice. */
export const AGE_ACCEPTED = '1';

/** How long the first view's plain cookies (language, age, screen) last: a year. */
const FIRST_VIEW_COOKIE_MAX_AGE = 365 * 86_400;

/**
 * A first-view cookie as the browser is told it (the client's `document.cookie`, the server's
 * `Set-Cookie`): the whole site, a year, sent on top-level navigations (Lax), Secure on HTTPS; a
 * `null` value clears it.
 */
export function firstViewCookie(name: string, value: string | null, secure: boolean): string {
  const attributes = `Path=/; Max-Age=${value === null ? 0 : FIRST_VIEW_COOKIE_MAX_AGE}; SameSite=Lax${secure ? '; Secure' : ''}`;
  return `${name}=${value === null ? '' : encodeURIComponent(value)}; ${attributes}`;
}

/** Where the client asks the server to set (POST, with its token header) or clear (DELETE) fv_session. */
export const FIRST_VIEW_SESSION_PATH = '/web/session';

/**
 * Where the age notice's form posts when the page is not yet running (a first view before its
 * script has loaded, or no script at all): the server sets fv_age and sends the browser back to
 * the page named by `?to=` (a path on this site). The running app answers the form itself.
 */
export const FIRST_VIEW_AGE_PATH = '/web/age';

/** One React Query entry the client seeds: the key the page reads and the answer. */
export interface SeededQuery {
  key: readonly unknown[];
  data: unknown;
  /** An infinite query (a feed): data is one page and becomes `{ pages: [data], pageParams: [1] }`. */
  infinite?: boolean;
}

export interface FirstViewData {
  /** The language the page was rendered in. */
  language: 'en' | 'es';
  /** The signed-in user's id the page was rendered for, or null for a visitor. */
  viewer: string | null;
  app: HomeResponse;
  profile: Profile | null;
  queries: SeededQuery[];
  /** Page modules the view shows (src/features/<name>.tsx). */
  pages: string[];
  /**
   * What the render read besides the data, which the client's first render (the hydration of
   * this markup) must read too: the screen class guessed for it, the instant time-ago texts were
   * counted from (ms since the epoch) and whether the visitor had accepted the age notice.
   */
  screen: ScreenClass;
  renderedAt: number;
  ageAccepted: boolean;
}

/** What the web app's server-render entry (apps/web/src/ssr/firstView.tsx) renders a page from. */
export interface FirstViewInput {
  /** Path and query of the page. */
  url: string;
  language: 'en' | 'es';
  /** The signed-in user (from their session) or null for a visitor. */
  user: SessionUser | null;
  profile: Profile | null;
  app: HomeResponse;
  /** React Query entries the page reads (the same keys and shapes the client asks for). */
  queries: SeededQuery[];
  screen: ScreenClass;
  /** The visitor accepted the age notice (fv_age): without it the notice is rendered over the page. */
  ageAccepted: boolean;
  /** The instant time-ago texts are counted from (ms since the epoch). */
  now: number;
}

/** The session user the client keeps for a profile (its subscriptions as the client last knew them). */
export function sessionUserOf(
  profile: Profile,
  subscriptions: SessionUser['subscriptions'] = [],
): SessionUser {
  return {
    _id: profile._id,
    id: profile._id,
    user: profile.username,
    name: profile.name,
    email: profile.email,
    country: profile.country,
    roles: profile.roles,
    verified: profile.verified,
    avatar: profile.avatar,
    language: profile.language,
    subscriptions,
  };
}
