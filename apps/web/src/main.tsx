import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
// The DOM build of RouterProvider wires react-dom's flushSync, which usePatchQuery asks for.
import { RouterProvider } from 'react-router/dom';
import { AppTree } from './app/AppTree.tsx';
import { dropFirstViewOutside, readFirstView } from './app/firstView.ts';
import { setAgeCookie, setLanguageCookie, syncSessionCookie } from './app/firstViewCookies.ts';
import { whenHydrated } from './app/hydration.tsx';
import i18n, { i18nReady } from './app/i18n.ts';
import { adoptStartup, startStartup } from './app/lifecycle.ts';
import { createQueryClient } from './app/queryClient.ts';
import { createAppRouter, preloadPageOf } from './app/router.tsx';
import { registerServiceWorker } from './app/serviceWorker.ts';
import { useSession } from './app/session.store.ts';
import { useUi } from './app/ui.store.ts';
import { ageAccepted } from './shell/Gates.tsx';
import { cachedValue, firstViewSession, setServerSnapshot } from './ssr/firstViewData.ts';
import { updateInert } from './ui/Modal.tsx';
import './styles/app.css';
import './styles/content.css';

const queryClient = createQueryClient();

const router = createAppRouter();
const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// The server's first view (ADR 0048): when it was rendered for this browser's viewer and language,
// its data seeds the start-up store and the query cache, and the first render (the same page)
// replaces its markup without asking anything again. Otherwise (a stale cookie, storage cleared)
// the app starts as without it; a view rendered for another viewer is taken off at once.
const firstView = readFirstView();
const session = useSession.getState();
const viewer = session.token && session.user ? session.user._id : null;
const usable = firstView && firstView.viewer === viewer && firstView.language === session.language;
if (firstView && firstView.viewer !== viewer) {
  void syncSessionCookie(session.token);
  // Someone else's page (or a visitor's for someone signed in): off the screen until the app renders.
  container.innerHTML =
    '<div class="loader loader--page"><span class="spinner" aria-hidden="true"></span></div>';
  dropFirstViewOutside();
}
if (usable) {
  for (const query of firstView.queries) queryClient.setQueryData(query.key, cachedValue(query));
}
// A usable first view is hydrated: React keeps the server's markup and attaches to it, which needs
// the first render to be the server's exactly. The stores' server snapshots (what a hydrating
// render reads) get the values the server rendered with, and AppTree gives its clock and age
// answer to the components that would read the browser's; both give way to the browser's right
// after hydration. (A view from a server without these values is replaced, as before.)
const hydrate = !!usable && typeof firstView.renderedAt === 'number' && !!firstView.screen;
// Everything the first screen needs is asked for at once, before anything renders: the start-up
// data (and profile) unless the first view brought it, the current route's page chunk and the
// catalogues (app/i18n.ts).
const startup = usable ? adoptStartup(firstView.app, firstView.profile) : startStartup();
if (hydrate) {
  setServerSnapshot(
    useSession,
    firstViewSession({
      // The store's user, made from the first view's profile by adoptStartup: the same object the
      // app reads after hydrating, so nothing that reads it renders again for a new object. It
      // keeps the subscriptions the browser stored, which the server's has not (nothing renders them).
      user: firstView.profile ? useSession.getState().user : null,
      profile: firstView.profile,
      language: firstView.language,
      app: firstView.app,
      token: session.token,
    }),
  );
  setServerSnapshot(useUi, { screen: firstView.screen });
}
const page = Promise.all(preloadPageOf(window.location.pathname));
registerServiceWorker();

// The first-view cookies follow this browser's storage: language, age notice, session.
setLanguageCookie(session.language);
if (ageAccepted()) setAgeCookie();
useSession.subscribe((state, previous) => {
  if (state.language !== previous.language) setLanguageCookie(state.language);
  if (state.token !== previous.token) void syncSessionCookie(state.token);
});

// The first render waits for the active language's start-up catalogues (app/i18n.ts) and the
// start-up data, so it shows the page rather than a loader; until then index.html's shell (or the
// first view) stays on screen. A namespace needed later suspends its component until its catalogue
// arrives. Hydration is concurrent and the first render a transition: React yields to the browser
// while it works through the first screen instead of blocking it in one long task.
/**
 * Marks the server's first view as the app's, once all of it is hydrated (app/hydration.tsx): until
 * then #root was inert and hidden from assistive technology (app.css: no clicks either; the age
 * notice of a visitor's page stood outside it, http/first-view.ts, and is the app's own by now, or
 * gone). Its test ids, renamed so that a browser test could not act on markup that was not live yet
 * (ssr/firstView.tsx), are the app's again. While a modal of the app is open, #root stays inert.
 */
function firstViewTakeover(): void {
  if (!container?.hasAttribute('data-first-view')) return;
  dropFirstViewOutside();
  container.removeAttribute('data-first-view');
  container.removeAttribute('aria-hidden');
  // Live now, but for a modal already open (the age notice): the page stays inert behind that.
  updateInert();
  if (!hydrate) return;
  for (const element of container.querySelectorAll('[data-fv-testid]')) {
    element.setAttribute('data-testid', element.getAttribute('data-fv-testid') ?? '');
    element.removeAttribute('data-fv-testid');
  }
}

void Promise.allSettled([i18nReady, startup, page]).then(() => {
  const app = (
    <AppTree
      queryClient={queryClient}
      i18n={i18n}
      firstRender={hydrate ? { now: firstView.renderedAt, ageAccepted: firstView.ageAccepted } : null}
      onCommitted={whenHydrated(container, hydrate, firstViewTakeover)}
    >
      <RouterProvider router={router} />
    </AppTree>
  );
  if (hydrate) {
    // In a transition: hydration at React's default priority is one task for the whole screen
    // (React does not time-slice its default hydration lane); a transition's hydration yields to
    // the browser every few milliseconds, and a tap on a part not hydrated yet still hydrates that
    // part first (ADR 0048).
    startTransition(() => {
      hydrateRoot(container, app, {
        // A mismatch makes React render that part again on the client: said in the console (the
        // hydration journey of the browser tests fails on it).
        onRecoverableError: (error, info) =>
          console.error('React recovered from an error:', error, info.componentStack),
      });
    });
    return;
  }
  const root = createRoot(container);
  startTransition(() => root.render(app));
});
