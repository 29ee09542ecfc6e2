import type { VaultFolder } from '@fanverse/contract';
import { VAULT_FOLDER_NAME_MAX } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { useVaultFolders, VAULT_KEYS } from './vaultQuery.ts';

/**
 * Folder management on the vault page: a new folder, and for the folder shown (the folder filter)
 * rename and delete (its files stay in the vault, in no folder). `onShow` switches the filter.
 */
export function VaultFolderBar({ shown, onShow }: { shown: string; onShow: (folder: string) => void }) {
  const { t } = useTranslation('vault');
  const id = useId();
  const client = useQueryClient();
  const folders = useVaultFolders().data?.folders ?? [];
  const current: VaultFolder | undefined = folders.find((f) => f._id === shown);
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const refresh = () => {
    for (const key of VAULT_KEYS) void client.invalidateQueries({ queryKey: key });
  };
  const fail = (e: unknown) => setNotice({ tone: 'error', text: errorText(e) });
  const create = useMutation({
    mutationFn: (n: string) => api('vault.createFolder', { name: n }),
    onSuccess: (folder) => {
      setName('');
      setNotice({ tone: 'success', text: t('folders.created', { name: folder.name }) });
      refresh();
      onShow(folder._id);
    },
    onError: fail,
  });
  const rename = useMutation({
    mutationFn: (n: string) => api('vault.renameFolder', { name: n }, { params: { id: shown } }),
    onSuccess: (folder) => {
      setRenaming(null);
      setNotice({ tone: 'success', text: t('folders.renamed', { name: folder.name }) });
      refresh();
    },
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: () => api('vault.deleteFolder', undefined, { params: { id: shown } }),
    onSuccess: () => {
      setNotice({ tone: 'success', text: t('folders.deleted', { name: current?.name ?? '' }) });
      onShow('all');
      refresh();
    },
    onError: fail,
    onSettled: () => setDeleting(false),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setNotice(null);
    if (renaming !== null) rename.mutate(renaming);
    else create.mutate(name);
  };
  return (
    <div className="vault-folders" data-testid="vault-folders">
      <form className="vault-folders__form" onSubmit={submit}>
        <label htmlFor={`${id}-name`}>
          {renaming !== null ? t('folders.renameLabel') : t('folders.newLabel')}
        </label>
        <div className="vault-folders__row">
          <input
            id={`${id}-name`}
            value={renaming ?? name}
            maxLength={VAULT_FOLDER_NAME_MAX}
            required
            onChange={(e) => (renaming !== null ? setRenaming(e.target.value) : setName(e.target.value))}
            data-testid="vault-folder-name"
          />
          <button
            type="submit"
            className="button button--primary"
            disabled={create.isPending || rename.isPending}
            data-testid="vault-folder-save"
          >
            {renaming !== null ? t('folders.rename') : t('folders.create')}
          </button>
          {renaming !== null ? (
            <button type="button" className="button" onClick={() => setRenaming(null)}>
              {t('folders.cancel')}
            </button>
          ) : (
            current && (
              <>
                <button
                  type="button"
                  className="button"
                  onClick={() => setRenaming(current.name)}
                  data-testid="vault-folder-rename"
                >
                  {t('folders.renameThis', { name: current.name })}
                </button>
                <button
                  type="button"
                  className="button button--danger"
                  onClick={() => setDeleting(true)}
                  data-testid="vault-folder-delete"
                >
                  {t('folders.deleteThis', { name: current.name })}
                </button>
              </>
            )
          )}
        </div>
      </form>
      {notice && (
        <p
          className={`alert alert--${notice.tone === 'error' ? 'error' : 'success'}`}
          role={notice.tone === 'error' ? 'alert' : 'status'}
          data-testid="vault-folder-notice"
        >
          {notice.text}
        </p>
      )}
      <ConfirmModal
        open={deleting}
        title={t('folders.deleteTitle')}
        danger
        busy={remove.isPending}
        confirmLabel={t('folders.delete')}
        onCancel={() => setDeleting(false)}
        onConfirm={() => remove.mutate()}
        testId="vault-folder-delete-dialog"
      >
        <p>{t('folders.deleteBody', { name: current?.name ?? '' })}</p>
      </ConfirmModal>
    </div>
  );
}
