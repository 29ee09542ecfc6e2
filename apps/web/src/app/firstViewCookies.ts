import {
  AGE_ACCEPTED,
  FIRST_VIEW_COOKIES,
  FIRST_VIEW_SESSION_PATH,
  firstViewCookie,
  type Language,
  type ScreenClass,
  TOKEN_HEADER,
} from '@fanverse/contract';

/**
 * The cookies the server renders a page's first view with (ADR 0048). They mirror what this
 * browser keeps in localStorage, which the server cannot see on a page load: the language and the
 * age notice and the screen class (plain cookies, set here) and the session token (HttpOnly, so set and cleared by the
 * server on request). The API never reads any of them.
 */
function setCookie(name: string, value: string | null): void {
  try {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and Safari.
    document.cookie = firstViewCookie(name, value, window.location.protocol === 'https:');
  } catch {
    // No document (tests) or cookies disabled: pages are then rendered for a visitor in English.
  }
}

export function readCookie(name: string): string | null {
  try {
    for (const part of document.cookie.split(';')) {
      const [key, ...value] = part.trim().split('=');
      if (key === name) return decodeURIComponent(value.join('='));
    }
  } catch {
    // as above
  }
  return null;
}

export function setLanguageCookie(language: Language): void {
  if (readCookie(FIRST_VIEW_COOKIES.language) !== language) setCookie(FIRST_VIEW_COOKIES.language, language);
}

/** The screen class the page is laid out for (lifecycle.ts sets it whenever it changes). */
export function setScreenCookie(screen: ScreenClass): void {
  if (readCookie(FIRST_VIEW_COOKIES.screen) !== screen) setCookie(FIRST_VIEW_COOKIES.screen, screen);
}

/** Whether this browser holds the accepted age notice's cookie (set here, or by the notice's form). */
export function hasAgeCookie(): boolean {
  return readCookie(FIRST_VIEW_COOKIES.age) === AGE_ACCEPTED;
}

export function setAgeCookie(): void {
  if (!hasAgeCookie()) setCookie(FIRST_VIEW_COOKIES.age, AGE_ACCEPTED);
}

/**
 * Asks the server to mirror this browser's session in the HttpOnly fv_session cookie (with the
 * token, sent as the API sends it), or to clear it (no token). Best effort: without it the pages
 * are first rendered for a visitor and the app replaces that view.
 */
export function syncSessionCookie(token: string | null): Promise<void> {
  return fetch(FIRST_VIEW_SESSION_PATH, {
    method: token ? 'POST' : 'DELETE',
    headers: token ? { [TOKEN_HEADER]: token } : {},
    credentials: 'same-origin',
  })
    .then(
      // Read to the end, so the request is over (an unread answer can keep the page "busy").
      (res) => res.arrayBuffer().then(() => undefined),
      () => undefined,
    )
    .catch(() => undefined);
}
