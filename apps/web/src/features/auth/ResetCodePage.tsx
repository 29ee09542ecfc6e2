import { LIMITS, resetCodeRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Field } from '../../ui/Field.tsx';
import { type FieldErrors, serverFieldErrors, validateWith } from '../../ui/formErrors.ts';

/** Reset by code, step 1: ask for a code by email, then type it to go on to the password step. */
export default function ResetCodePage() {
  const { t } = useTranslation('auth');
  const language = useSession((s) => s.language);
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: (body: { email: string }) => api('auth.code', body),
    onError: (error) => setErrors(serverFieldErrors(error)),
  });
  const onRequest = (event: FormEvent) => {
    event.preventDefault();
    const result = validateWith(resetCodeRequestSchema, { email }, language);
    if (!result.ok) setErrors(result.errors);
    else mutation.mutate(result.data);
  };
  const onCode = (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (!new RegExp(`^\\d{${LIMITS.resetCodeLength}}$`).test(value)) {
      setErrors({ code: t('code.invalid') });
      return;
    }
    // The password step names the account the code was sent to (the code only matches that one).
    navigate(
      `/auth/pass?${new URLSearchParams({ email: mutation.variables?.email ?? email.trim(), code: value })}`,
    );
  };
  return (
    <div className="auth-page">
      <div className="card">
        <h1>{t('code.title')}</h1>
        {mutation.isSuccess ? (
          <form className="form" onSubmit={onCode} noValidate data-testid="reset-code-step">
            <Alert tone="success" testId="reset-code-sent">
              {t('code.sent')}
            </Alert>
            <Field
              name="code"
              label={t('fields.code')}
              hint={t('code.codeHint', { n: LIMITS.resetCodeLength })}
              value={code}
              onChange={(value) => {
                setCode(value);
                setErrors({});
              }}
              error={errors.code}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={LIMITS.resetCodeLength}
              required
              autoFocus
            />
            <button
              type="submit"
              className="button button--primary button--block"
              data-testid="reset-code-continue"
            >
              {t('code.continue')}
            </button>
          </form>
        ) : (
          <form className="form" onSubmit={onRequest} noValidate data-testid="reset-code-form">
            <p>{t('code.intro')}</p>
            {mutation.isError && <Alert>{errorText(mutation.error)}</Alert>}
            <Field
              name="email"
              type="email"
              label={t('fields.email')}
              hint={t('signup.hints.email')}
              value={email}
              onChange={(value) => {
                setEmail(value);
                setErrors({});
              }}
              error={errors.email}
              autoComplete="email"
              inputMode="email"
              required
              autoFocus
            />
            <button
              type="submit"
              className="button button--primary button--block"
              disabled={mutation.isPending}
              data-testid="reset-code-submit"
            >
              {t('code.submit')}
            </button>
          </form>
        )}
        <p className="form__links">
          <Link to="/login">{t('code.backToLogin')}</Link>
        </p>
      </div>
    </div>
  );
}
