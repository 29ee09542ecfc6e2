import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';

export const WALLET_KEY = ['wallet'] as const;

/** The own credit balance (only with a session). */
export function useWallet() {
  const loggedIn = useSession((s) => !!s.token);
  return useQuery({ queryKey: WALLET_KEY, queryFn: () => api('wallet.get'), enabled: loggedIn });
}

/** Credit costs of flowers and a gift, as the server's start-up data reports them. */
export function useGiftCosts(): { flowers: number; gift: number } | undefined {
  return useSession((s) => s.app?.features.giftCosts);
}
