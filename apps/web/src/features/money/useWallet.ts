import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';

export const WALLET_KEY = ['wallet'] as const;

/** The own credit balance (only with a session). */
export function useWallet() {
  const loggedIn = useSession((s) => !!s.token);
  return useQuery({ queryKey: WALLET_KEY, queryFn: () => api('wallet.get'), enabled: loggedIn });
}

/**
 * Credit costs of flowers and a gift. The server's defaults (FLOWERS_CREDITS, GIFT_CREDITS); the
 * contract does not expose them yet, and a send answers what was actually charged.
 */
export const GIFT_COSTS = { flowers: 10, gift: 50 } as const;
