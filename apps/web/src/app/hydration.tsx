// biome-ignore lint/style/noRestrictedImports: the app's one Suspense, wrapped as Boundary below.
import { type ReactNode, Suspense, useLayoutEffect, useRef } from 'react';

/**
 * When the server's first view is fully hydrated (ADR 0048).
 *
 * React hydrates the root at once, but each Suspense boundary of the server's markup later, in a
 * pass of its own (nested ones in turn): until then that part is the server's inert HTML, and a
 * click on it can be lost. So the app takes over the first view (main.tsx) only once the root and
 * every boundary the server rendered are hydrated. The server marks each boundary with a comment
 * (`<!--$-->`; `$?` and `$!` for one pending or left to the client), counted before hydrating; each
 * Boundary reports when its content commits.
 */
let pending = 0;
let done: (() => void) | null = null;
let fallback: ReturnType<typeof setTimeout> | undefined;

/** Past this after the root hydrated, the app takes over anyway (said in the console). */
const HYDRATION_PATIENCE_MS = 10_000;

function takeOver(): void {
  const run = done;
  done = null;
  clearTimeout(fallback);
  run?.();
}

function partHydrated(): void {
  if (!done) return;
  pending -= 1;
  if (pending <= 0) takeOver();
}

/** The Suspense boundaries in the server's markup of `container`. */
function boundariesIn(container: Element): number {
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_COMMENT);
  let count = 0;
  while (walker.nextNode()) {
    const data = (walker.currentNode as Comment).data;
    if (data === '$' || data === '$?' || data === '$!') count += 1;
  }
  return count;
}

/**
 * Calls `run` once the root has committed and, when `hydrating`, every boundary of `container`'s
 * server markup has too. Returns what the root's first commit calls (AppTree's `onCommitted`).
 */
export function whenHydrated(container: Element, hydrating: boolean, run: () => void): () => void {
  pending = 1 + (hydrating ? boundariesIn(container) : 0);
  done = run;
  return () => {
    if (!done) return;
    fallback = setTimeout(() => {
      if (!done) return;
      console.warn(`The first view took over with ${pending - 1} part(s) not hydrated yet`);
      takeOver();
    }, HYDRATION_PATIENCE_MS);
    partHydrated();
  };
}

/** Reports its boundary's content committed, once (StrictMode runs layout effects twice). */
function Hydrated() {
  const reported = useRef(false);
  useLayoutEffect(() => {
    if (reported.current) return;
    reported.current = true;
    partHydrated();
  }, []);
  return null;
}

/**
 * The app's Suspense boundary: Suspense that tells the first view's takeover when its content is
 * hydrated. Use it instead of React's Suspense (lint enforces it).
 */
export function Boundary({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      {children}
      <Hydrated />
    </Suspense>
  );
}
