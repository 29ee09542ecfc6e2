import { LIMITS } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';

/** After a confirmation: the session's profile (verified now) and every cached page are refreshed. */
export function useConfirmedRefresh() {
  const client = useQueryClient();
  return async () => {
    if (useSession.getState().token) useSession.getState().setProfile(await api('user.profile'));
    await client.invalidateQueries();
  };
}

/** "Your email is confirmed", with the free credits this confirmation granted. */
export function ConfirmedNotice({ freeCredits }: { freeCredits: number }) {
  const { t } = useTranslation('account');
  return (
    <Alert tone="success" testId="confirm-done">
      {freeCredits > 0 ? t('confirm.doneCredits', { count: freeCredits }) : t('confirm.done')}
    </Alert>
  );
}

/**
 * The verified flag's banner (issue 18): until the email is confirmed the account can browse, but
 * its picture, cover, display name and free credits wait. The person types the mailed code here
 * (or opens the mail's link) and can ask for a new mail.
 */
export function ConfirmEmailBanner() {
  const { t } = useTranslation('account');
  const user = useSession((s) => s.user);
  const [code, setCode] = useState('');
  const refresh = useConfirmedRefresh();
  const confirm = useMutation({
    mutationFn: (value: string) => api('auth.confirmEmail', { code: value }),
    onSuccess: refresh,
  });
  const resend = useMutation({ mutationFn: () => api('auth.resendConfirmation', {}) });
  if (!user || (user.verified && !confirm.isSuccess)) return null;
  if (confirm.isSuccess) {
    return (
      <section className="confirm-banner confirm-banner--done" data-testid="confirm-banner">
        <ConfirmedNotice freeCredits={confirm.data.freeCredits} />
      </section>
    );
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(code.trim());
  };
  const codeValid = new RegExp(`^\\d{${LIMITS.resetCodeLength}}$`).test(code.trim());
  return (
    <section className="confirm-banner" aria-labelledby="confirm-banner-title" data-testid="confirm-banner">
      <div className="confirm-banner__text">
        <h2 id="confirm-banner-title">{t('confirm.title')}</h2>
        <p>{t('confirm.body', { email: user.email })}</p>
      </div>
      <form className="confirm-banner__form" onSubmit={onSubmit} noValidate>
        <label htmlFor="confirm-code" className="sr-only">
          {t('confirm.code')}
        </label>
        <input
          id="confirm-code"
          className="confirm-banner__code"
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            confirm.reset();
          }}
          placeholder={t('confirm.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={LIMITS.resetCodeLength}
          aria-invalid={confirm.isError || undefined}
          data-testid="confirm-code"
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={!codeValid || confirm.isPending}
          data-testid="confirm-submit"
        >
          {t('confirm.submit')}
        </button>
        <button
          type="button"
          className="button"
          disabled={resend.isPending}
          onClick={() => resend.mutate()}
          data-testid="confirm-resend"
        >
          {t('confirm.resend')}
        </button>
      </form>
      {confirm.isError && <Alert testId="confirm-error">{errorText(confirm.error)}</Alert>}
      {resend.isError && <Alert testId="confirm-resend-error">{errorText(resend.error)}</Alert>}
      {resend.isSuccess && (
        <Alert tone="info" testId="confirm-resent">
          {t('confirm.resent', { email: user.email })}
        </Alert>
      )}
    </section>
  );
}
