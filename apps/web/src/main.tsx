import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
// The DOM build of RouterProvider wires react-dom's flushSync, which usePatchQuery asks for.
import { RouterProvider } from 'react-router/dom';
import i18n, { i18nReady } from './app/i18n.ts';
import { startStartup } from './app/lifecycle.ts';
import { createQueryClient } from './app/queryClient.ts';
import { createAppRouter, preloadPageOf } from './app/router.tsx';
import { registerServiceWorker } from './app/serviceWorker.ts';
import './styles/app.css';
import './styles/content.css';

const queryClient = createQueryClient();

const router = createAppRouter();
// Everything the first screen needs is asked for at once, before anything renders: the start-up
// data (and profile), the current route's page chunk and the catalogues (app/i18n.ts).
const startup = startStartup();
preloadPageOf(window.location.pathname);
registerServiceWorker();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// The first render waits for the active language's start-up catalogues (app/i18n.ts) and the
// start-up data, so it shows the page rather than a loader; until then index.html's shell stays on
// screen. A namespace needed later suspends its component until its catalogue arrives. The render
// is a transition, so React yields to the browser while it builds the first screen instead of
// blocking it in one long task.
void Promise.allSettled([i18nReady, startup]).then(() => {
  const root = createRoot(container);
  startTransition(() => {
    root.render(
      <StrictMode>
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
