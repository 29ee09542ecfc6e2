import type { VaultQuery } from '@fanverse/contract';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/** The filters of the vault page and picker. `folder`: all files, files in no folder, or a folder id. */
export interface VaultFilters {
  folder: string;
  type: 'all' | 'image' | 'video';
  used: 'all' | 'used' | 'unused';
  q: string;
  from: string;
  to: string;
}

export const NO_FILTERS: VaultFilters = { folder: 'all', type: 'all', used: 'all', q: '', from: '', to: '' };

/** One page of the creator's vault (newest first) for these filters. */
export function useVault(filters: VaultFilters, page: number) {
  const query: VaultQuery = { ...filters, page };
  return useQuery({
    queryKey: ['vault.list', query],
    queryFn: () => api('vault.list', query),
    placeholderData: keepPreviousData,
  });
}

/**
 * The files a picker may attach (processed ones), newest first, a page at a time: each "load more"
 * appends the next page; a change of filters starts again from the first.
 */
export function useVaultPicks(filters: VaultFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['vault.list', 'picks', filters],
    queryFn: ({ pageParam }) => api('vault.list', { ...filters, status: 'ready', page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.statistics.hasMore ? last.statistics.page + 1 : undefined),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The creator's folders with their file counts. */
export function useVaultFolders() {
  return useQuery({ queryKey: ['vault.folders'], queryFn: () => api('vault.folders') });
}

/** Query keys that change when files move or folders change. */
export const VAULT_KEYS = [['vault.list'], ['vault.folders'], ['vault.file']] as const;
