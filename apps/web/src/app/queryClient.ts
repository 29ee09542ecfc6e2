import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api.ts';

/** The app's query client: client errors (4xx) are answers, not glitches, so they are not retried. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      },
    },
  });
}
