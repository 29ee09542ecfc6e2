import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
// The DOM build of RouterProvider wires react-dom's flushSync, which usePatchQuery asks for.
import { RouterProvider } from 'react-router/dom';
import i18n, { i18nReady } from './app/i18n.ts';
import { createQueryClient } from './app/queryClient.ts';
import { createAppRouter, preloadPageOf } from './app/router.tsx';
import { registerServiceWorker } from './app/serviceWorker.ts';
import './styles/app.css';
import './styles/content.css';

const queryClient = createQueryClient();

const router = createAppRouter();
preloadPageOf(window.location.pathname);
registerServiceWorker();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// The first render waits for the active language's start-up catalogues (app/i18n.ts); a
// namespace needed later suspends its component until its catalogue arrives.
void i18nReady.finally(() => {
  createRoot(container).render(
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
