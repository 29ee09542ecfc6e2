import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/** How long typing pauses before a search field's words go to the address (and the server). */
export const SEARCH_DELAY_MS = 300;

/** Sets one query parameter of the address in place (an empty value removes it). */
export function useSetQueryParam(): (name: string, value: string) => void {
  const [, setParams] = useSearchParams();
  return (name, value) =>
    setParams(
      (p) => {
        if (value) p.set(name, value);
        else p.delete(name);
        return p;
      },
      { replace: true },
    );
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
