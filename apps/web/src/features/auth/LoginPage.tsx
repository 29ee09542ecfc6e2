import { type LoginRequest, loginRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { api } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Form, FormError, TextField, useZodForm } from '../../ui/Form.tsx';
import { PasskeySignIn } from '../account/Passkeys.tsx';
import { SocialSignIn, useSignInSteps } from './SocialSignIn.tsx';
import { useAuthSuccess } from './useAuthSuccess.ts';

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const form = useZodForm(loginRequestSchema, { login: '', password: '' });
  const onAuth = useAuthSuccess();
  // With two-step sign-in on, a right password (or provider) answers a challenge for the second step.
  const { handlers, step } = useSignInSteps(onAuth);
  const mutation = useMutation({
    mutationFn: (body: LoginRequest) => api('auth.login', body),
    onSuccess: (res) => ('twoFactor' in res ? handlers.onTwoFactor(res.twoFactor.challenge) : onAuth(res)),
  });
  if (step) return <div className="auth-page">{step}</div>;
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
        <SocialSignIn {...handlers} />
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
