import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/** How long typing pauses before a search field's words go to the address (and the server). */
export const SEARCH_DELAY_MS = 300;

/** Values for query parameters: an empty string or `undefined` removes the parameter. */
export type QueryPatch = Record<string, string | undefined>;

/**
 * Changes some query parameters of the address, keeping the others. Controls whose value lives
 * in the address (filters, switches, periods) call this: the change is flushed at once
 * (`flushSync`, wired by `react-router/dom`'s RouterProvider in main.tsx) rather than in a
 * transition, because React puts a controlled checkbox or select back to its old value the moment
 * its event ends, so a deferred address change made a ticked switch flip back and tick again
 * later (CI: directory.spec "Clicking the checkbox did not change its state").
 * `push` adds a history entry (a list's status tab, so Back returns to it); by default the
 * current entry is replaced.
 */
export function usePatchQuery(): (patch: QueryPatch, options?: { push?: boolean }) => void {
  const [, setParams] = useSearchParams();
  return (patch, options) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(patch)) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      },
      { replace: !options?.push, flushSync: true },
    );
}

/** Sets one query parameter of the address in place (an empty value removes it). */
export function useSetQueryParam(): (name: string, value: string) => void {
  const patch = usePatchQuery();
  return (name, value) => patch({ [name]: value });
}

/**
 * A search field kept in the address (`?q=`): the typed text, and the trimmed words once typing
 * pauses, so a search can be shared and survives a reload.
 */
export function useSearchParamText(name = 'q') {
  const [params] = useSearchParams();
  const set = useSetQueryParam();
  const words = (params.get(name) ?? '').trim();
  const [text, setText] = useState(words);
  useEffect(() => setText(words), [words]);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (text.trim() !== words) set(name, text.trim());
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  });
  return { text, setText, words };
}
