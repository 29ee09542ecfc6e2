import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { ConfirmedNotice, useConfirmedRefresh } from './ConfirmEmailBanner.tsx';

/** /auth/confirm?token=…: the confirmation mail's link; works signed in or not, on any device. */
export default function ConfirmEmailPage() {
  const { t } = useTranslation('account');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const refresh = useConfirmedRefresh();
  const confirm = useMutation({
    mutationFn: () => api('auth.confirmEmail', { token }),
    onSuccess: refresh,
  });
  const { mutate } = confirm;
  useEffect(() => {
    if (token) mutate();
  }, [token, mutate]);
  return (
    <div className="auth-page">
      <div className="card" data-testid="confirm-page">
        <h1>{t('confirm.pageTitle')}</h1>
        {!token && <Alert>{t('confirm.noToken')}</Alert>}
        {confirm.isPending && <Loader label={t('confirm.checking')} />}
        {confirm.isError && <Alert testId="confirm-error">{errorText(confirm.error)}</Alert>}
        {confirm.isSuccess && <ConfirmedNotice freeCredits={confirm.data.freeCredits} />}
        <p className="form__links">
          <Link to="/">{t('confirm.home')}</Link>
        </p>
      </div>
    </div>
  );
}
