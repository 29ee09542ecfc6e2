import type { VaultItem } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { VaultFileDialog } from './VaultFileDialog.tsx';
import { VaultFilters } from './VaultFilters.tsx';
import { VaultFolderBar } from './VaultFolderBar.tsx';
import { VaultGrid } from './VaultGrid.tsx';
import { NO_FILTERS, useVault } from './vaultQuery.ts';

/**
 * /vault: the creator's media library — every upload once, in folders, where it is used and what
 * it sold, delete when unused.
 */
export default function VaultPage() {
  const { t } = useTranslation('vault');
  const client = useQueryClient();
  const [filters, setFilters] = useState(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<VaultItem | null>(null);
  const [open, setOpen] = useState<VaultItem | null>(null);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const list = useVault(filters, page);
  const remove = useMutation({
    mutationFn: (item: VaultItem) => api('vault.remove', undefined, { params: { id: item._id } }),
    onSuccess: (_, item) => {
      setNotice({ tone: 'success', text: t('delete.done', { name: item.name }) });
      void client.invalidateQueries({ queryKey: ['vault.list'] });
    },
    onError: (error) => setNotice({ tone: 'error', text: errorText(error) }),
    onSettled: () => setDeleting(null),
  });
  const stats = list.data?.statistics;
  return (
    <section className="panel vault" data-testid="vault-page">
      <div className="vault__head">
        <h1 className="panel__title">{t('title')}</h1>
        <Link to="/post/create" className="button button--primary">
          {t('newPost')}
        </Link>
      </div>
      <p className="muted">{t('intro')}</p>
      <VaultFilters
        value={filters}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      <VaultFolderBar
        shown={filters.folder}
        onShow={(folder) => {
          setFilters({ ...filters, folder });
          setPage(1);
        }}
      />
      {notice && (
        <p
          className={`alert alert--${notice.tone === 'error' ? 'error' : 'success'}`}
          role={notice.tone === 'error' ? 'alert' : 'status'}
          data-testid="vault-notice"
        >
          {notice.text}
        </p>
      )}
      {list.isPending && <Loader />}
      {list.isError && <Alert>{errorText(list.error)}</Alert>}
      {stats && (
        <p className="muted" aria-live="polite" data-testid="vault-count">
          {t('count', { count: stats.total })}
        </p>
      )}
      {list.data && list.data.items.length === 0 && <p className="muted">{t('empty')}</p>}
      {list.data && <VaultGrid items={list.data.items} onDelete={setDeleting} onOpen={setOpen} />}
      {stats && (page > 1 || stats.hasMore) && (
        <div className="button-row vault__pages">
          <button type="button" className="button" disabled={page === 1} onClick={() => setPage(page - 1)}>
            {t('previous')}
          </button>
          <button
            type="button"
            className="button"
            disabled={!stats.hasMore}
            onClick={() => setPage(page + 1)}
          >
            {t('next')}
          </button>
        </div>
      )}
      <VaultFileDialog item={open} onClose={() => setOpen(null)} />
      <ConfirmModal
        open={!!deleting}
        title={t('delete.title')}
        danger
        busy={remove.isPending}
        confirmLabel={t('delete.button')}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
        testId="vault-delete-dialog"
      >
        <p>{t('delete.body', { name: deleting?.name ?? '' })}</p>
      </ConfirmModal>
    </section>
  );
}
