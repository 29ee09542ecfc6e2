import { type ContextType, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { type To, UNSAFE_DataRouterContext, useLocation, useNavigate } from 'react-router';
import { isCreator, useSession } from './session.store.ts';
import { useUi } from './ui.store.ts';

const LOGIN_TARGET_KEY = 'loginTarget';
const PENDING_ACTION_KEY = 'pendingAction';

/** Query parameters that open an overlay over the current page (spec §2). */
export const OVERLAY_PARAMS = [
  'comments',
  'likes',
  'messages',
  'statistics',
  'post_view',
  'story_view',
  'profile',
] as const;
export type OverlayParam = (typeof OVERLAY_PARAMS)[number];

function session(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}

/** Remembers where to go after login (spec §2). */
export function storeLoginTarget(path: string): void {
  if (path.startsWith('/login') || path.startsWith('/signup') || path.startsWith('/auth/')) return;
  session()?.setItem(LOGIN_TARGET_KEY, path);
}
/** The stored target path (consumed), or null. */
export function takeLoginTarget(): string | null {
  const target = session()?.getItem(LOGIN_TARGET_KEY) ?? null;
  session()?.removeItem(LOGIN_TARGET_KEY);
  return target;
}

const NOTICE_KEY = 'notice';
/** A notice the next page load shows once (e.g. after deleting the account, which reloads the app). */
export type PageNotice = 'accountDeleted';
export function storeNotice(notice: PageNotice): void {
  session()?.setItem(NOTICE_KEY, notice);
}
/**
 * The notice stored for this page load, shown once. It is read during render but removed only
 * after the page has been committed: a first render that React throws away (a lazy chunk or a
 * catalogue suspending) must not consume it.
 */
export function usePageNotice(): PageNotice | null {
  const [notice] = useState<PageNotice | null>(() =>
    session()?.getItem(NOTICE_KEY) === 'accountDeleted' ? 'accountDeleted' : null,
  );
  useEffect(() => {
    if (notice) session()?.removeItem(NOTICE_KEY);
  }, [notice]);
  return notice;
}

/** An action a logged-out visitor tried (spec §2); resumed after login. */
export interface PendingAction {
  kind: 'like' | 'comment' | 'message' | 'credits';
  /** What the action is about, e.g. { postId, creator }. */
  payload: Record<string, string>;
  /** The page where it was attempted; the action resumes there. */
  path: string;
}

export function readPendingAction(): PendingAction | null {
  const raw = session()?.getItem(PENDING_ACTION_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as PendingAction;
  } catch {
    return null;
  }
}
export function clearPendingAction(): void {
  session()?.removeItem(PENDING_ACTION_KEY);
}

function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * Guards an action that needs a session: `requireAuth({ kind: 'like', payload: { postId } }, like)`.
 * Logged in, `run` happens now; logged out, the action is stored and the visitor goes to /login,
 * then back to this page, where `useResumeAction` runs it.
 */
export function useRequireAuth(): (action: Omit<PendingAction, 'path'>, run: () => void) => void {
  const navigate = useStableNavigate();
  const token = useSession((s) => s.token);
  return useCallback(
    (action, run) => {
      if (token) {
        run();
        return;
      }
      const path = currentPath();
      session()?.setItem(PENDING_ACTION_KEY, JSON.stringify({ ...action, path } satisfies PendingAction));
      storeLoginTarget(path);
      navigate('/login');
    },
    [token, navigate],
  );
}

/** The page a history entry was pushed by the overlay mechanism (closing = history back). */
interface OverlayState {
  overlay?: boolean;
}

/**
 * The app's router, for what runs in event handlers: navigating and reading the location at the
 * moment of the call. `useLocation` and `useNavigate` subscribe their component to every
 * navigation (the location, and the route context rebuilt on each one): each feed card (it opens
 * overlays, navigates after a delete) rendered again whenever any overlay opened or closed. The app
 * runs in a data router (RouterProvider), whose context does not change on navigation.
 */
function useRouter(): () => DataRouter {
  const context = useContext(UNSAFE_DataRouterContext);
  return useCallback(() => {
    if (!context) throw new Error('the app navigates in a data router (RouterProvider)');
    return context.router;
  }, [context]);
}
type DataRouter = NonNullable<ContextType<typeof UNSAFE_DataRouterContext>>['router'];

/**
 * `navigate` for components that must not render again on every navigation (see useRouter):
 * absolute paths (or a history step) only, as no route is there to resolve a relative one against.
 */
export function useStableNavigate(): (
  to: To | number,
  options?: { replace?: boolean; state?: unknown },
) => void {
  const router = useRouter();
  return useCallback(
    (to, options) => void (typeof to === 'number' ? router().navigate(to) : router().navigate(to, options)),
    [router],
  );
}

/**
 * Opens and closes query overlays so that Back closes them first (spec §2). A component that only
 * opens or closes them does not render again on navigation (the location is read when called).
 */
export function useOverlay() {
  const router = useRouter();
  const navigate = useStableNavigate();
  const open = useCallback(
    (name: OverlayParam, value: string) => {
      const { location } = router().state;
      const params = new URLSearchParams(location.search);
      params.set(name, value);
      navigate({ pathname: location.pathname, search: `?${params}` }, { state: { overlay: true } });
    },
    [navigate, router],
  );
  const close = useCallback(
    (name: OverlayParam) => {
      const { location } = router().state;
      const state = location.state as OverlayState | null;
      if (state?.overlay) {
        navigate(-1);
        return;
      }
      const params = new URLSearchParams(location.search);
      params.delete(name);
      const search = params.toString();
      navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
    },
    [navigate, router],
  );
  return useMemo(() => ({ open, close }), [open, close]);
}

/** The overlay params present in a query, in stacking order. */
export function openOverlays(search: string): OverlayParam[] {
  const params = new URLSearchParams(search);
  return OVERLAY_PARAMS.filter((name) =>
    name === 'profile' ? params.get('profile') === 'review' : params.has(name),
  );
}

function hasHistory(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/** The app's Back (spec §2): close the top overlay, else history back, else home of the user. */
export function useAppBack(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  const { close } = useOverlay();
  const user = useSession((s) => s.user);
  return useCallback(() => {
    const overlays = openOverlays(location.search);
    const top = overlays[overlays.length - 1];
    if (top) {
      close(top);
      return;
    }
    if (hasHistory()) navigate(-1);
    else navigate(user && isCreator(user) ? `/${user.user}` : '/');
  }, [navigate, location.search, close, user]);
}

/** Home (spec §2): on mobile opens the explore query, elsewhere goes to /. */
export function useGoHome(): () => void {
  const navigate = useNavigate();
  const screen = useUi((s) => s.screen);
  return useCallback(() => navigate(screen === 'mobile' ? '/?explore=1' : '/'), [navigate, screen]);
}

/** "My feed" (spec §2): a creator's page, or the own profile feed. */
export function myFeedPath(user: { user: string; roles: readonly string[] } | null): string {
  if (!user) return '/login';
  return user.roles.includes('creator') ? `/${user.user}` : '/?feed=my-profile';
}

/**
 * Runs a stored action of this kind once the visitor is logged in and back on the page where
 * it was attempted (spec §2: the intended action is resumed after login).
 */
export function useResumeAction(
  kind: PendingAction['kind'],
  handler: (payload: Record<string, string>) => void,
): void {
  const token = useSession((s) => s.token);
  const location = useLocation();
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useEffect(() => {
    if (!token) return;
    const action = readPendingAction();
    if (!action || action.kind !== kind) return;
    if (action.path !== `${location.pathname}${location.search}`) return;
    clearPendingAction();
    handlerRef.current(action.payload);
  }, [token, kind, location.pathname, location.search]);
}
