import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense, startTransition, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
// The DOM build of RouterProvider wires react-dom's flushSync, which usePatchQuery asks for.
import { RouterProvider } from 'react-router/dom';
import { readFirstView } from './app/firstView.ts';
import { setAgeCookie, setLanguageCookie, syncSessionCookie } from './app/firstViewCookies.ts';
import i18n, { i18nReady } from './app/i18n.ts';
import { adoptStartup, startStartup } from './app/lifecycle.ts';
import { createQueryClient } from './app/queryClient.ts';
import { createAppRouter, preloadPageOf } from './app/router.tsx';
import { registerServiceWorker } from './app/serviceWorker.ts';
import { useSession } from './app/session.store.ts';
import { ageAccepted } from './shell/Gates.tsx';
import { cachedValue } from './ssr/firstViewData.ts';
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
}
if (usable) {
  for (const query of firstView.queries) queryClient.setQueryData(query.key, cachedValue(query));
}
// Everything the first screen needs is asked for at once, before anything renders: the start-up
// data (and profile) unless the first view brought it, the current route's page chunk and the
// catalogues (app/i18n.ts).
const startup = usable ? adoptStartup(firstView.app, firstView.profile) : startStartup();
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
// start-up data, so it shows the page rather than a loader; until then index.html's shell stays on
// screen. A namespace needed later suspends its component until its catalogue arrives. The render
// is a transition, so React yields to the browser while it builds the first screen instead of
// blocking it in one long task.
/**
 * Marks the server's first view as replaced: until then #root was inert and hidden from assistive
 * technology (app.css: no clicks either). A modal of the app makes #root inert again afterwards.
 */
function FirstViewTakeover() {
  useLayoutEffect(() => {
    if (!container?.hasAttribute('data-first-view')) return;
    container.removeAttribute('data-first-view');
    container.removeAttribute('aria-hidden');
    container.inert = false;
  }, []);
  return null;
}

void Promise.allSettled([i18nReady, startup, page]).then(() => {
  const root = createRoot(container);
  startTransition(() => {
    root.render(
      <StrictMode>
        <FirstViewTakeover />
        <QueryClientProvider client={queryClient}>
          <I18nextProvider i18n={i18n}>
            <Suspense fallback={null}>
              <RouterProvider router={router} />
            </Suspense>
          </I18nextProvider>
        </QueryClientProvider>
      </StrictMode>,
    );
  });
});
