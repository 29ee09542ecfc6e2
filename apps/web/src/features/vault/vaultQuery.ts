import type { VaultQuery } from '@fanverse/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
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

/** The creator's folders with their file counts. */
export function useVaultFolders() {
  return useQuery({ queryKey: ['vault.folders'], queryFn: () => api('vault.folders') });
}

/** Query keys that change when files move or folders change. */
export const VAULT_KEYS = [['vault.list'], ['vault.folders'], ['vault.file']] as const;
