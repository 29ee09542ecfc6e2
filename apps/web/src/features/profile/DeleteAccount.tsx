import { DELETE_ACCOUNT_WORDS } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { storeNotice } from '../../app/navigation.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Field } from '../../ui/Field.tsx';
import { Modal } from '../../ui/Modal.tsx';

/** Account deletion (spec §5): type delete / eliminar and the password, then log out. */
export function DeleteAccount() {
  const { t } = useTranslation('profile');
  const language = useSession((s) => s.language);
  const word = DELETE_ACCOUNT_WORDS[language];
  const [open, setOpen] = useState(false);
  const [confirm, setConfirm] = useState('');
  const [password, setPassword] = useState('');
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => api('user.delete', { confirm, password }),
    onSuccess: () => {
      setOpen(false);
      useSession.getState().logout();
      queryClient.clear();
      storeNotice('accountDeleted');
      // A fresh load of the landing page: nothing of the deleted account stays in memory, and no
      // logged-in page's guard (router updates run as transitions) sends the visitor to /login.
      window.location.replace('/');
    },
  });
  const matches = confirm.trim().toLowerCase() === word;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (matches && password) mutation.mutate();
  };
  return (
    <section className="danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">{t('delete.title')}</h2>
      <p>{t('delete.intro')}</p>
      <button
        type="button"
        className="button button--danger"
        onClick={() => setOpen(true)}
        data-testid="delete-account-open"
      >
        {t('delete.open')}
      </button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={t('delete.title')}
        testId="delete-account-dialog"
      >
        <form className="form" onSubmit={onSubmit} noValidate>
          <p>{t('delete.warning', { word })}</p>
          {mutation.isError && <Alert>{errorText(mutation.error)}</Alert>}
          <Field
            name="confirm"
            label={t('delete.confirmLabel', { word })}
            hint={word}
            value={confirm}
            onChange={setConfirm}
            autoComplete="off"
          />
          <Field
            name="password"
            type="password"
            label={t('delete.password')}
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
          />
          <button
            type="submit"
            className="button button--danger"
            disabled={!matches || !password || mutation.isPending}
            data-testid="delete-account-submit"
          >
            {t('delete.submit')}
          </button>
        </form>
      </Modal>
    </section>
  );
}
