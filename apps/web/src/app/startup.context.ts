import { createContext, useContext } from 'react';

/** Runs the start-up call again (the Retry of /error/api); resolves true on success. */
export const StartupContext = createContext<() => Promise<boolean>>(() => Promise.resolve(false));

export function useStartupRetry(): () => Promise<boolean> {
  return useContext(StartupContext);
}
