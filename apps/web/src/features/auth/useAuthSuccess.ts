import type { AuthResponse } from '@fanverse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSession } from '../../app/session.store.ts';

/**
 * Starts the session (token stored; the socket connects; cached comments and messages reset,
 * spec §4). The logged-out-only guard then sends the user to the stored target path.
 */
export function useAuthSuccess(): (auth: AuthResponse) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (auth) => {
      queryClient.clear();
      useSession.getState().login(auth.token, auth.user);
    },
    [queryClient],
  );
}
