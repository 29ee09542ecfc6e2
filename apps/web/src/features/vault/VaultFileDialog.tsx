import type { VaultEarnings, VaultItem } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { MESSAGES_WALL } from '../messages/messagesQuery.ts';
import { useMoneyFormat } from '../money/moneyFormat.ts';
import { useVaultFolders, VAULT_KEYS } from './vaultQuery.ts';

/**
 * One vault file: its folder (move it in or out), every post, story and message holding it with
 * links and what each sold, the welcome message and gallery, and the file's total sales (ADR 0032:
 * an item with several files counts in full for each of them).
 */
export function VaultFileDialog({ item, onClose }: { item: VaultItem | null; onClose: () => void }) {
  const { t } = useTranslation('vault');
  const money = useMoneyFormat();
  const id = useId();
  const client = useQueryClient();
  const folders = useVaultFolders().data;
  const [error, setError] = useState<string | null>(null);
  const detail = useQuery({
    queryKey: ['vault.file', item?._id],
    queryFn: () => api('vault.file', undefined, { params: { id: item!._id } }),
    enabled: !!item,
  });
  const move = useMutation({
    mutationFn: (folder: string | null) => api('vault.move', { ids: [item!._id], folder }),
    onSuccess: () => {
      setError(null);
      for (const key of VAULT_KEYS) void client.invalidateQueries({ queryKey: key });
    },
    onError: (e) => setError(errorText(e)),
  });
  const data = detail.data;
  const sold = (e: VaultEarnings) =>
    e.sales > 0
      ? t('earned.line', { count: e.sales, credits: e.credits, amount: money.cents(e.earnings) })
      : t('earned.none');
  const folder = data?.item.folder ?? item?.folder ?? null;
  return (
    <Modal
      open={!!item}
      onClose={onClose}
      title={item?.name ?? ''}
      testId="vault-file"
      className="vault-file"
      footer={
        <div className="button-row">
          <button type="button" className="button" onClick={onClose}>
            {t('details.close')}
          </button>
        </div>
      }
    >
      {detail.isPending && <Loader />}
      {detail.isError && <Alert>{errorText(detail.error)}</Alert>}
      {data && (
        <>
          <div className="vault-filters__field">
            <label htmlFor={`${id}-move`}>{t('details.folder')}</label>
            <select
              id={`${id}-move`}
              value={folder ?? ''}
              disabled={move.isPending}
              onChange={(e) => move.mutate(e.target.value || null)}
              data-testid="vault-file-folder"
            >
              <option value="">{t('details.noFolder')}</option>
              {folders?.folders.map((f) => (
                <option key={f._id} value={f._id}>
                  {f.name}
                </option>
              ))}
            </select>
          </div>
          {error && <Alert>{error}</Alert>}
          <section aria-labelledby={`${id}-earned`} className="vault-file__section">
            <h3 id={`${id}-earned`}>{t('earned.title')}</h3>
            <p className="vault-file__total" data-testid="vault-file-earned">
              {sold(data.item.earned)}
            </p>
            <p className="muted">{t('earned.rule')}</p>
          </section>
          <section aria-labelledby={`${id}-uses`} className="vault-file__section">
            <h3 id={`${id}-uses`}>{t('details.usedIn')}</h3>
            {!data.posts.length && !data.messages.length && !data.welcome && !data.gallery && (
              <p className="muted">{t('uses.none')}</p>
            )}
            <ul className="vault-uses" data-testid="vault-file-uses">
              {data.posts.map((p) => (
                <li key={p._id} data-testid="vault-use-post">
                  <span className="vault-uses__what">
                    {p.live ? (
                      <Link to={`/post/${p._id}`}>{t(`details.${p.kind}`, { text: p.text || '…' })}</Link>
                    ) : (
                      t('details.deletedPost', { text: p.text || '…' })
                    )}
                  </span>
                  <span className="vault-tile__meta">
                    {p.price > 0 ? t('details.price', { count: p.price }) : t('details.free')} · {sold(p)}
                  </span>
                </li>
              ))}
              {data.messages.map((m) => (
                <li key={m._id} data-testid="vault-use-message">
                  <span className="vault-uses__what">
                    <Link to={`?messages=${encodeURIComponent(m.to ?? MESSAGES_WALL)}`}>
                      {m.to ? t('details.message', { to: m.to }) : t('details.mass', { count: m.recipients })}
                    </Link>
                  </span>
                  <span className="vault-tile__meta">
                    {m.price > 0 ? t('details.price', { count: m.price }) : t('details.free')} · {sold(m)}
                  </span>
                </li>
              ))}
              {data.welcome && (
                <li data-testid="vault-use-welcome">
                  <span className="vault-uses__what">
                    <Link to="/?feed=creator-statistics">{t('uses.welcome')}</Link>
                  </span>
                  <span className="vault-tile__meta">
                    {data.welcome.price > 0
                      ? t('details.price', { count: data.welcome.price })
                      : t('details.free')}
                  </span>
                </li>
              )}
              {data.gallery > 0 && (
                <li data-testid="vault-use-gallery">
                  <span className="vault-uses__what">
                    <Link to="/?feed=gallery">{t('uses.gallery', { count: data.gallery })}</Link>
                  </span>
                </li>
              )}
            </ul>
          </section>
        </>
      )}
    </Modal>
  );
}
