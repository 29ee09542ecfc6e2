import { TIMINGS } from '@fanverse/contract';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

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

const cache = new Map<string, LazyExoticComponent<ComponentType>>();

/** A React.lazy page; a failed, slow or missing chunk is thrown to the route's error screen. */
export function lazyPage(name: string): LazyExoticComponent<ComponentType> {
  let page = cache.get(name);
  if (!page) {
    page = lazy(() => loadPage(name));
    cache.set(name, page);
  }
  return page;
}
