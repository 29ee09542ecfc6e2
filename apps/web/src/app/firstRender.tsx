import { createContext, useContext, useSyncExternalStore } from 'react';

/**
 * What the server's first view (ADR 0048) was rendered with that the browser would read
 * differently: the instant time-ago texts count from and the visitor's age answer (the server
 * reads fv_age, the browser localStorage).
 */
export interface FirstRender {
  /** Milliseconds since the epoch. */
  now: number;
  ageAccepted: boolean;
}

/** The server's values, given by AppTree on the server and in the browser that hydrates its markup. */
export const FirstRenderContext = createContext<FirstRender | null>(null);

const never = () => () => {};
const none = () => null;

/**
 * The server's values while this component renders the first view: on the server, and while the
 * browser hydrates it (React reads the "server snapshot" then, for each part as it hydrates, even
 * a Suspense boundary hydrated later); null in any other render. Right after a component is
 * hydrated React renders it again with null, so it shows the browser's own values (the clock,
 * localStorage), as any component mounted later does at once.
 */
export function useFirstRender(): FirstRender | null {
  const server = useContext(FirstRenderContext);
  return useSyncExternalStore(never, none, () => server);
}

/** The instant to count time-ago texts from: the server's while hydrating its markup. */
export function useNow(): number {
  return useFirstRender()?.now ?? Date.now();
}
