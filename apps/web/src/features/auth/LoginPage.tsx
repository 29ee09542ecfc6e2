import { type LoginRequest, loginRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { api } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Form, FormError, TextField, useZodForm } from '../../ui/Form.tsx';
import { PasskeySignIn } from '../account/Passkeys.tsx';
import { TwoFactorStep } from '../account/TwoFactorStep.tsx';
import { useAuthSuccess } from './useAuthSuccess.ts';

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const form = useZodForm(loginRequestSchema, { login: '', password: '' });
  const onAuth = useAuthSuccess();
  // With two-step sign-in on, a right password answers a challenge for the second step.
  const [challenge, setChallenge] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (body: LoginRequest) => api('auth.login', body),
    onSuccess: (res) => ('twoFactor' in res ? setChallenge(res.twoFactor.challenge) : onAuth(res)),
  });
  if (challenge) {
    return (
      <div className="auth-page">
        <TwoFactorStep challenge={challenge} onAuth={onAuth} onRestart={() => setChallenge(null)} />
      </div>
    );
  }
  return (
    <div className="auth-page">
      <Form form={form} onSubmit={mutation.mutateAsync} testId="login-form">
        <h1>{t('login.title')}</h1>
        {notice === 'passwordChanged' && (
          <Alert tone="success" testId="login-notice">
            {t('pass.done')}
          </Alert>
        )}
        <FormError />
        <TextField
          name="login"
          label={t('login.login')}
          hint={t('login.loginHint')}
          required
          autoComplete="username"
          autoFocus
        />
        <TextField
          name="password"
          type="password"
          label={t('fields.password')}
          hint={t('login.passwordHint')}
          required
          autoComplete="current-password"
        />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={mutation.isPending}
          data-testid="login-submit"
        >
          {mutation.isPending ? t('login.submitting') : t('login.submit')}
        </button>
        <PasskeySignIn onAuth={onAuth} />
        <p className="form__links">
          <Link to="/auth/code" data-testid="forgot-link">
            {t('login.forgot')}
          </Link>
          <Link to="/signup" data-testid="signup-link-form">
            {t('login.noAccount')}
          </Link>
        </p>
      </Form>
    </div>
  );
}
