import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { type ReactNode, StrictMode, useLayoutEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { type FirstRender, FirstRenderContext } from './firstRender.tsx';
import { Boundary } from './hydration.tsx';

/** Runs `run` once the tree's first render is on the screen (never on the server). */
function Committed({ run }: { run?: () => void }) {
  useLayoutEffect(() => run?.(), [run]);
  return null;
}

/**
 * The app's root tree around its router: the same on the server (ssr/firstView.tsx) and in the
 * browser (main.tsx), so the browser can hydrate the server's first view (ADR 0048). Hydration
 * needs the same Suspense boundaries and the same component positions (useId) on both sides.
 */
export function AppTree({
  queryClient,
  i18n,
  firstRender,
  onCommitted,
  children,
}: {
  queryClient: QueryClient;
  i18n: I18n;
  /** The server's values for the render that makes or hydrates its first view (else null). */
  firstRender: FirstRender | null;
  onCommitted?: () => void;
  /** The router. */
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <Committed run={onCommitted} />
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          <FirstRenderContext value={firstRender}>
            <Boundary fallback={null}>{children}</Boundary>
          </FirstRenderContext>
        </I18nextProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
