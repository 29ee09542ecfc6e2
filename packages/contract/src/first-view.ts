/**
 * The server's first view of a page (ADR 0048): the data it rendered the page with, sent in the
 * page as `<script type="application/json" id="fv-first-view">`, which the client reads to seed its
 * start-up store and query cache instead of asking again. No zod: the client reads it on the
 * first load.
 */
import type { HomeResponse } from './http/home.ts';
import type { Profile } from './http/user.ts';

/** Id of the JSON script element that carries the first view's data. */
export const FIRST_VIEW_SCRIPT_ID = 'fv-first-view';

/**
 * Cookies the server reads only to render GET pages (never on /api/: the API takes its token
 * from a header, so these are no CSRF surface).
 */
export const FIRST_VIEW_COOKIES = {
  /** The session token (HttpOnly, set and cleared by the server: POST / DELETE `FIRST_VIEW_SESSION_PATH`). */
  session: 'fv_session',
  /** The language shown in this browser (en / es), set by the client. */
  language: 'fv_lang',
  /** The visitor accepted the 18+ notice, set by the client. */
  age: 'fv_age',
} as const;

/** Where the client asks the server to set (POST, with its token header) or clear (DELETE) fv_session. */
export const FIRST_VIEW_SESSION_PATH = '/web/session';

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
}
