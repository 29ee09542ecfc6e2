import {
  ADMIN_ROLES,
  type HomeResponse,
  hasSpecialCharacters,
  type Profile,
  screenClassOf,
  TIMINGS,
} from '@fanverse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, api, errorText, onTwoFactorRequired, onUnauthorized } from './api.ts';
import { validTimeZone } from './dates.ts';
import { setScreenCookie } from './firstViewCookies.ts';
import { hasSomeRole, useSession } from './session.store.ts';
import { connectSocket, disconnectSocket, loadSocketClient } from './socket.ts';
import { useUi } from './ui.store.ts';

/**
 * Start-up of spec §4: GET /?view=home and, when a session exists, the profile (both asked at once:
 * neither needs the other's answer). Sets the session's start-up status; false when the start-up
 * data could not be loaded.
 */
async function loadStartup(): Promise<boolean> {
  const profile = useSession.getState().token ? api('user.profile') : null;
  // Read below, once the start-up data is in; until then a failure must not count as unhandled.
  profile?.catch(() => undefined);
  try {
    const app = await api('home.get', { view: 'home' });
    // The first formatter in a time zone loads the zone's data (tens of ms on a phone): here, while
    // the code and catalogues still load, rather than inside the first render of a feed's dates.
    validTimeZone(app.timezone);
    if (profile) {
      try {
        useSession.getState().setProfile(await profile);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) useSession.getState().logout();
        // Spec §8: profile load failure shows an alert with the message, then reloads the page.
        else useUi.getState().showAlert(errorText(error), true);
      }
    }
    useSession.getState().setStartup('ready', app);
    setTimeout(() => useSession.getState().setLoaded(true), TIMINGS.loadedDelayMs);
    return true;
  } catch {
    useSession.getState().setStartup('failed', null);
    return false;
  }
}

let started: Promise<boolean> | null = null;

/**
 * The start-up data the server's first view was rendered with (ADR 0048): taken as the start-up
 * calls' answers, so the first render matches the server's and nothing is asked again.
 */
export function adoptStartup(app: HomeResponse, profile: Profile | null): Promise<boolean> {
  validTimeZone(app.timezone);
  if (profile) useSession.getState().setProfile(profile);
  useSession.getState().setStartup('ready', app);
  setTimeout(() => useSession.getState().setLoaded(true), TIMINGS.loadedDelayMs);
  started = Promise.resolve(true);
  return started;
}

/**
 * Starts the start-up calls before the first render (main.tsx), so they run while the code and the
 * catalogues load and the first render already has their answers; useStartup then uses them
 * instead of asking again.
 */
export function startStartup(): Promise<boolean> {
  started = loadStartup();
  return started;
}

/**
 * The start-up, from useStartup's first run (or from startStartup when main.tsx began it). On
 * failure the user goes to /error/api. Returns `retry` for that page.
 */
export function useStartup(): { retry: () => Promise<boolean> } {
  const navigate = useNavigate();
  const settle = useCallback(
    async (load: Promise<boolean>): Promise<boolean> => {
      const ok = await load;
      if (!ok) navigate('/error/api', { replace: true });
      return ok;
    },
    [navigate],
  );
  const run = useCallback(() => settle(loadStartup()), [settle]);

  useEffect(() => {
    const first = started ?? loadStartup();
    started = null;
    void settle(first);
  }, [settle]);

  // The start-up data carries texts in the request's language (the landing's title and subtitle):
  // a language switch asks for them again, and an answer that arrives after another switch is dropped.
  const language = useSession((s) => s.language);
  const asked = useRef(language);
  useEffect(() => {
    if (asked.current === language) return;
    asked.current = language;
    api('home.get', { view: 'home' })
      .then((app) => {
        const session = useSession.getState();
        if (session.language === language && session.status === 'ready') session.setStartup('ready', app);
      })
      .catch(() => undefined);
  }, [language]);
  return { retry: run };
}

/**
 * One language for everything a person sees: the account (which words live pop-ups, mails and
 * other server-made texts) follows the language shown in this browser whenever they differ: after
 * start-up, after login on a device set to the other language, and after a change in the selector.
 */
export function useAccountLanguageSync(): void {
  const language = useSession((s) => s.language);
  const accountLanguage = useSession((s) => s.profile?.language);
  useEffect(() => {
    if (!accountLanguage || accountLanguage === language) return;
    let stale = false;
    api('user.updateProfile', { language })
      .then((profile) => {
        if (!stale && useSession.getState().token) useSession.getState().setProfile(profile);
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [language, accountLanguage]);
}

/** Ends the session on this device: server logout (best effort), token removed, socket closed. */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await api('auth.logout', {}).catch(() => undefined);
    useSession.getState().logout();
    queryClient.clear();
    navigate('/');
  }, [navigate, queryClient]);
}

/** Socket connects when a session exists after start-up, disconnects on logout (spec §4). */
export function useSocketLifecycle(): void {
  const token = useSession((s) => s.token);
  const ready = useSession((s) => s.status === 'ready');
  useEffect(() => {
    // With a session, the client library loads during the start-up call, so the socket opens
    // as soon as the app is ready (visitors never fetch it).
    if (token) loadSocketClient().catch(() => undefined);
  }, [token]);
  useEffect(() => {
    if (!token || !ready) return;
    connectSocket(token);
    return () => disconnectSocket();
  }, [token, ready]);
  useEffect(
    () =>
      onUnauthorized(() => {
        useSession.getState().logout();
      }),
    [],
  );
}

/**
 * Staff whose account has no two-step sign-in yet: the server withholds their admin roles and
 * answers TWO_FACTOR_REQUIRED, and the app takes them to the security page to turn it on.
 */
export function useTwoFactorRequiredRedirect(): void {
  const navigate = useNavigate();
  useEffect(() => onTwoFactorRequired(() => navigate('/user/security?required=1')), [navigate]);
}

/** Presence heartbeat of spec §7: POST /report/connection every 60 s while logged in. */
export function useHeartbeat(): void {
  const token = useSession((s) => s.token);
  const ready = useSession((s) => s.status === 'ready');
  useEffect(() => {
    if (!token || !ready) return;
    const report = () => {
      api('report.connection', { time: Date.now() })
        .then(({ counter, online, lastConnection }) => {
          const store = useSession.getState();
          store.setCounters(counter);
          store.setPresence(online, lastConnection);
        })
        .catch(() => undefined);
    };
    report();
    const timer = setInterval(report, TIMINGS.connectionReportMs);
    return () => clearInterval(timer);
  }, [token, ready]);
}

/** Screen class of spec §4 as state and as a class on <html>. */
export function useScreenClassWatcher(): void {
  const setScreen = useUi((s) => s.setScreen);
  // Before the browser paints: the first screen is laid out for its class (no shift after it).
  useLayoutEffect(() => {
    let applied: string | undefined;
    const apply = () => {
      const screen = screenClassOf(window.innerWidth);
      // A resize fires many times; only a change of class has anything to do.
      if (screen === applied) return;
      applied = screen;
      const root = document.documentElement;
      for (const name of ['mobile', 'tablet', 'desktop', 'tv']) root.classList.toggle(name, name === screen);
      root.dataset.screen = screen;
      setScreen(screen);
      // The next page load's first view is laid out for this class (ADR 0048).
      setScreenCookie(screen);
    };
    apply();
    window.addEventListener('resize', apply);
    return () => window.removeEventListener('resize', apply);
  }, [setScreen]);
}

export function useScreenClass() {
  return useUi((s) => s.screen);
}

function isVisible(element: HTMLElement): boolean {
  if (element.closest('[inert]')) return false;
  const rect = element.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0 && getComputedStyle(element).visibility !== 'hidden';
}

/**
 * Document-wide behaviours of spec §2: Ctrl+Enter admin menu, Escape clicks a close element,
 * link attributes navigate, right-click on media and the save shortcut are blocked.
 */
export function useGlobalBehaviours(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        return;
      }
      if (event.ctrlKey && event.key === 'Enter') {
        if (hasSomeRole(useSession.getState().user, ADMIN_ROLES)) {
          event.preventDefault();
          useUi.getState().setAdminMenuOpen(true);
        }
        return;
      }
      if (event.key === 'Escape') {
        const closers = Array.from(document.querySelectorAll<HTMLElement>('[data-close]')).filter(isVisible);
        const top = closers[closers.length - 1];
        if (top) {
          event.preventDefault();
          top.click();
        }
      }
    };
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || !(event.target instanceof Element)) return;
      const element = event.target.closest<HTMLElement>('[data-link],[link]');
      if (!element || element.closest('a[href]')) return;
      const path = element.getAttribute('data-link') ?? element.getAttribute('link');
      if (!path?.startsWith('/')) return;
      event.preventDefault();
      navigate(path);
    };
    const onContextMenu = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest('img,video,picture,[data-media]')) {
        event.preventDefault();
      }
    };
    const onDragStart = (event: DragEvent) => {
      if (event.target instanceof Element && event.target.closest('img,video')) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('click', onClick);
    document.addEventListener('contextmenu', onContextMenu);
    document.addEventListener('dragstart', onDragStart);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('click', onClick);
      document.removeEventListener('contextmenu', onContextMenu);
      document.removeEventListener('dragstart', onDragStart);
    };
  }, [navigate]);
}

/** CSS chunk failures (Vite's vite:preloadError) switch the app to the error screen. */
export function usePreloadErrorWatcher(): void {
  useEffect(() => {
    const onPreloadError = (event: Event) => {
      const payload = (event as Event & { payload?: unknown }).payload;
      const message = payload instanceof Error ? payload.message : String(payload ?? '');
      useUi.getState().setFatal(/css/i.test(message) ? 'css' : 'chunk');
    };
    window.addEventListener('vite:preloadError', onPreloadError);
    return () => window.removeEventListener('vite:preloadError', onPreloadError);
  }, []);
}

/** True 6 s after load when the logged-in username has special characters (spec §2). */
export function useSpecialUsernameDialog(): [boolean, () => void] {
  const username = useSession((s) => s.user?.user ?? null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!username || !hasSpecialCharacters(username)) {
      setOpen(false);
      return;
    }
    const timer = setTimeout(() => setOpen(true), TIMINGS.specialUsernameDialogMs);
    return () => clearTimeout(timer);
  }, [username]);
  return [open, () => setOpen(false)];
}
