import { TIMINGS } from '@fanverse/contract';
import { type ComponentType, createElement, use } from 'react';

/** A route chunk did not arrive (network failure or the 120 s timeout of spec §8). */
export class ChunkLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkLoadError';
  }
}
/** A page was asked for that the build does not contain (spec §8: missing-module error). */
export class MissingModuleError extends Error {
  constructor(name: string) {
    super(`Missing module: ${name}`);
    this.name = 'MissingModuleError';
  }
}
/** A stylesheet of a lazy chunk failed (Vite's vite:preloadError for CSS). */
export class CssChunkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CssChunkError';
  }
}

type PageModule = { default: ComponentType };

/** Every lazily loaded page: src/features/<domain>/<Name>Page.tsx. */
const pageModules = import.meta.glob<PageModule>('../features/*/*Page.tsx');

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`Timed out loading ${what}`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Loads a page module by name, e.g. loadPage('legal/TermsPage'). */
export function loadPage(name: string): Promise<PageModule> {
  const loader = pageModules[`../features/${name}.tsx`];
  if (!loader) return Promise.reject(new MissingModuleError(name));
  return withTimeout(loader(), TIMINGS.chunkTimeoutMs, name).catch((error: unknown) => {
    if (error instanceof ChunkLoadError || error instanceof CssChunkError) throw error;
    if (error instanceof Error && /css/i.test(error.message)) throw new CssChunkError(error.message);
    throw new ChunkLoadError(error instanceof Error ? error.message : String(error));
  });
}

/** A promise that records its outcome where React's use() reads it. */
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/** The promise, marked with its outcome for use(). */
function track<T>(promise: Promise<T>): Tracked<T> {
  const tracked: Tracked<T> = promise;
  tracked.status = 'pending';
  tracked.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    (reason: unknown) => {
      tracked.status = 'rejected';
      tracked.reason = reason;
    },
  );
  return tracked;
}

const modules = new Map<string, Tracked<PageModule>>();

/**
 * A page's module, asked for once (preloadPageOf in router.tsx, or its first render). The promise
 * carries its outcome, so a page whose chunk is already in renders at once instead of suspending
 * for a turn (React.lazy always did, even for a preloaded chunk).
 */
export function pageModule(name: string): Promise<PageModule> {
  let promise = modules.get(name);
  if (!promise) {
    promise = track(loadPage(name));
    modules.set(name, promise);
  }
  return promise;
}

/** A lazily loaded part of a page whose chunk can be asked for ahead of its first render. */
export type LazyPart<P> = ComponentType<P> & { preload: () => Promise<unknown> };

/**
 * React.lazy for a part of a page that renders at once when its chunk is already in (React.lazy
 * suspends for a turn even then). The server's first view (ADR 0048) preloads the parts of its
 * pages (`firstViewParts` of a page module), so every render of a page has the same markup, from
 * the first: a part that suspended on the server would be rendered again in the browser.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let promise: Tracked<ComponentType<P>> | undefined;
  const preload = (): Promise<ComponentType<P>> => {
    promise ??= track(load());
    return promise;
  };
  const Part = (props: P) => createElement(use(preload()), props);
  return Object.assign(Part, { preload });
}

const pages = new Map<string, ComponentType>();

/**
 * A lazily loaded page: it suspends until its chunk arrives; a failed, slow or missing chunk is
 * thrown to the route's error screen.
 */
export function lazyPage(name: string): ComponentType {
  let page = pages.get(name);
  if (!page) {
    page = function LazyPage() {
      return createElement(use(pageModule(name)).default);
    };
    pages.set(name, page);
  }
  return page;
}
