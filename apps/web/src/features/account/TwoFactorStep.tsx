import type { AuthResponse } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';

/**
 * The second sign-in step (two-step sign-in on): the authenticator app's current code, or one of
 * the recovery codes. An expired challenge sends the person back to the password.
 */
export function TwoFactorStep({
  challenge,
  onAuth,
  onRestart,
}: {
  challenge: string;
  onAuth: (auth: AuthResponse) => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation('account');
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const mutation = useMutation({
    mutationFn: () =>
      api(
        'auth.twoFactor',
        recovery ? { challenge, recoveryCode: value.trim() } : { challenge, code: value.trim() },
      ),
    onSuccess: onAuth,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  const expired = mutation.error && 'code' in mutation.error && mutation.error.code === 'TWO_FACTOR_EXPIRED';
  return (
    <form className="form card" onSubmit={onSubmit} noValidate data-testid="two-factor-step">
      <h1>{t('twoFactor.title')}</h1>
      <p>{recovery ? t('twoFactor.recoveryIntro') : t('twoFactor.intro')}</p>
      {mutation.isError && <Alert testId="two-factor-error">{errorText(mutation.error)}</Alert>}
      <div className="field">
        <label htmlFor="two-factor-code">
          {recovery ? t('twoFactor.recoveryLabel') : t('twoFactor.codeLabel')}
        </label>
        <input
          id="two-factor-code"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          maxLength={recovery ? 20 : 6}
          required
          // biome-ignore lint/a11y/noAutofocus: the only field of this step, shown right after the password.
          autoFocus
          data-testid="two-factor-code"
        />
      </div>
      {expired ? (
        <button type="button" className="button button--primary button--block" onClick={onRestart}>
          {t('twoFactor.restart')}
        </button>
      ) : (
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={mutation.isPending || !value.trim()}
          data-testid="two-factor-submit"
        >
          {t('twoFactor.submit')}
        </button>
      )}
      <button
        type="button"
        className="link-button"
        onClick={() => {
          setRecovery(!recovery);
          setValue('');
          mutation.reset();
        }}
        data-testid="two-factor-switch"
      >
        {recovery ? t('twoFactor.useApp') : t('twoFactor.useRecovery')}
      </button>
    </form>
  );
}
