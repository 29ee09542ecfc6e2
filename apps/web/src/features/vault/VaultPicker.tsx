import type { VaultItem } from '@fanverse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { VaultFilters } from './VaultFilters.tsx';
import { VaultGrid } from './VaultGrid.tsx';
import { NO_FILTERS, useVaultPicks } from './vaultQuery.ts';

/**
 * "From the vault": a button that opens the creator's vault to pick files already uploaded; they
 * are attached by id (no new upload). The vault's search and filters, pages appended by "load more"
 * (picks stay across pages and filters). Processing or failed files are not offered.
 */
export function VaultPicker({
  onPick,
  max,
  testId = 'vault-picker',
}: {
  onPick: (items: VaultItem[]) => void;
  max?: number;
  testId?: string;
}) {
  const { t } = useTranslation('vault');
  const [open, setOpen] = useState(false);
  const [filters, setFilters] = useState(NO_FILTERS);
  const [picked, setPicked] = useState<Map<string, VaultItem>>(new Map());
  const list = useVaultPicks(filters, open);
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.statistics.total ?? 0;
  const toggle = (item: VaultItem) =>
    setPicked((old) => {
      const next = new Map(old);
      if (next.has(item._id)) next.delete(item._id);
      else if (max === undefined || next.size < max) next.set(item._id, item);
      return next;
    });
  const close = () => {
    setOpen(false);
    setPicked(new Map());
  };
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)} data-testid={`${testId}-open`}>
        {t('picker.open')}
      </button>
      <Modal
        open={open}
        onClose={close}
        title={t('picker.title')}
        testId={testId}
        className="vault-picker"
        footer={
          <div className="button-row">
            <button type="button" className="button" onClick={close}>
              {t('picker.cancel')}
            </button>
            <button
              type="button"
              className="button button--primary"
              disabled={picked.size === 0}
              onClick={() => {
                onPick([...picked.values()]);
                close();
              }}
              data-testid={`${testId}-attach`}
            >
              {t('picker.attach', { count: picked.size })}
            </button>
          </div>
        }
      >
        <VaultFilters value={filters} onChange={setFilters} />
        {list.isPending && <Loader />}
        {list.isError && <Alert>{errorText(list.error)}</Alert>}
        {list.data && items.length === 0 && <p className="muted">{t('empty')}</p>}
        {items.length > 0 && (
          <p className="muted" aria-live="polite" data-testid={`${testId}-count`}>
            {t('picker.shown', { shown: items.length, count: total })}
          </p>
        )}
        <VaultGrid items={items} picked={new Set(picked.keys())} onPick={toggle} />
        {list.hasNextPage && (
          <div className="button-row vault__pages">
            <button
              type="button"
              className="button"
              disabled={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
              data-testid={`${testId}-more`}
            >
              {t('picker.more')}
            </button>
          </div>
        )}
      </Modal>
    </>
  );
}
