import type { VaultQuery } from '@fanverse/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/** The filters of the vault page and picker. */
export interface VaultFilters {
  type: 'all' | 'image' | 'video';
  used: 'all' | 'used' | 'unused';
  q: string;
  from: string;
  to: string;
}

export const NO_FILTERS: VaultFilters = { type: 'all', used: 'all', q: '', from: '', to: '' };

/** One page of the creator's vault (newest first) for these filters. */
export function useVault(filters: VaultFilters, page: number) {
  const query: VaultQuery = { ...filters, page };
  return useQuery({
    queryKey: ['vault.list', query],
    queryFn: () => api('vault.list', query),
    placeholderData: keepPreviousData,
  });
}
