import { type LoginRequest, loginRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { api } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Field } from '../../ui/Field.tsx';
import { useFormFields } from '../../ui/useFormFields.ts';
import { useAuthSuccess } from './useAuthSuccess.ts';

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const language = useSession((s) => s.language);
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const { values, errors, formError, set, fail, validate } = useFormFields<LoginRequest>({
    login: '',
    password: '',
  });
  const onAuth = useAuthSuccess();
  const mutation = useMutation({
    mutationFn: (body: LoginRequest) => api('auth.login', body),
    onSuccess: onAuth,
    onError: fail,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const data = validate(loginRequestSchema, values, language);
    if (data) mutation.mutate(data);
  };
  return (
    <div className="auth-page">
      <form className="form card" onSubmit={onSubmit} noValidate data-testid="login-form">
        <h1>{t('login.title')}</h1>
        {notice === 'passwordChanged' && (
          <Alert tone="success" testId="login-notice">
            {t('pass.done')}
          </Alert>
        )}
        {formError && <Alert testId="form-error">{formError}</Alert>}
        <Field
          name="login"
          label={t('login.login')}
          hint={t('login.loginHint')}
          value={values.login}
          onChange={set('login')}
          error={errors.login}
          required
          autoComplete="username"
          autoFocus
        />
        <Field
          name="password"
          type="password"
          label={t('fields.password')}
          hint={t('login.passwordHint')}
          value={values.password}
          onChange={set('password')}
          error={errors.password}
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
        <p className="form__links">
          <Link to="/auth/code" data-testid="forgot-link">
            {t('login.forgot')}
          </Link>
          <Link to="/signup" data-testid="signup-link-form">
            {t('login.noAccount')}
          </Link>
        </p>
      </form>
    </div>
  );
}
