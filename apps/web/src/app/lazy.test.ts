import { createInstance } from 'i18next';
// biome-ignore lint/style/noRestrictedImports: a test of lazy() itself, outside the app's tree.
import { type ComponentType, createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, lazyPage, loadPage, MissingModuleError, pageModule, withTimeout } from './lazy.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('lazy pages', () => {
  it('rejects an unknown page with a missing-module error', async () => {
    await expect(loadPage('nowhere/NopePage')).rejects.toBeInstanceOf(MissingModuleError);
  });

  it('fails a chunk that has not arrived after the timeout, not before', async () => {
    vi.useFakeTimers();
    const never = new Promise<never>(() => undefined);
    let settled: unknown = null;
    const result = withTimeout(never, 120_000, 'SomePage').catch((error: unknown) => {
      settled = error;
    });
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await result;
    expect(settled).toBeInstanceOf(ChunkLoadError);
  });

  it('passes a chunk that arrives in time through', async () => {
    await expect(withTimeout(Promise.resolve(42), 1000, 'x')).resolves.toBe(42);
  });

  it('renders a page whose chunk was preloaded at once, and a page not yet loaded as its loader', async () => {
    const i18n = createInstance();
    await i18n.use(initReactI18next).init({ lng: 'en', ns: ['errors', 'legal'], resources: { en: {} } });
    const html = (Page: ComponentType) =>
      renderToString(
        createElement(
          I18nextProvider,
          { i18n },
          createElement(
            MemoryRouter,
            null,
            createElement(Suspense, { fallback: 'LOADING' }, createElement(Page)),
          ),
        ),
      );
    // As preloadPageOf does before the first render.
    await pageModule('errors/NotFoundPage');
    const preloaded = html(lazyPage('errors/NotFoundPage'));
    expect(preloaded).toContain('data-testid="not-found-page"');
    expect(preloaded).not.toContain('LOADING');
    expect(html(lazyPage('legal/TermsPage'))).toContain('LOADING');
  });
});
