import { LIMITS, resetPasswordRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Field } from '../../ui/Field.tsx';
import { type FieldErrors, serverFieldErrors, validateWith } from '../../ui/formErrors.ts';

/**
 * Reset by code, step 2: the account's email and the code (from the query or the mail's link,
 * editable) and the new password.
 */
export default function ResetPassPage() {
  const { t } = useTranslation('auth');
  const language = useSession((s) => s.language);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [code, setCode] = useState(params.get('code') ?? '');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: (body: { email: string; code: string; password: string }) => api('auth.pass', body),
    onSuccess: () => navigate('/login', { replace: true, state: { notice: 'passwordChanged' } }),
    onError: (error) => setErrors(serverFieldErrors(error)),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateWith(resetPasswordRequestSchema, { email, code, password }, language);
    const next: FieldErrors = result.ok ? {} : result.errors;
    if (password && repeat !== password) next.repeat = t('pass.mismatch');
    if (!result.ok || next.repeat) {
      setErrors(next);
      return;
    }
    mutation.mutate(result.data);
  };
  const clear = (key: string) => setErrors(({ [key]: _, ...rest }) => rest);
  return (
    <div className="auth-page">
      <form className="form card" onSubmit={onSubmit} noValidate data-testid="reset-pass-form">
        <h1>{t('pass.title')}</h1>
        <p>{t('pass.intro')}</p>
        {mutation.isError && <Alert>{errorText(mutation.error)}</Alert>}
        <Field
          name="email"
          type="email"
          label={t('fields.email')}
          hint={t('pass.emailHint')}
          value={email}
          onChange={(v) => {
            setEmail(v);
            clear('email');
          }}
          error={errors.email}
          autoComplete="email"
          inputMode="email"
          required
        />
        <Field
          name="code"
          label={t('fields.code')}
          hint={t('code.codeHint', { n: LIMITS.resetCodeLength })}
          value={code}
          onChange={(v) => {
            setCode(v);
            clear('code');
          }}
          error={errors.code}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={LIMITS.resetCodeLength}
          required
        />
        <Field
          name="password"
          type="password"
          label={t('pass.password')}
          hint={t('signup.hints.password', { min: LIMITS.passwordMin })}
          value={password}
          onChange={(v) => {
            setPassword(v);
            clear('password');
          }}
          error={errors.password}
          autoComplete="new-password"
          required
          autoFocus
        />
        <Field
          name="repeat"
          type="password"
          label={t('pass.repeat')}
          hint={t('pass.repeatHint')}
          value={repeat}
          onChange={(v) => {
            setRepeat(v);
            clear('repeat');
          }}
          error={errors.repeat}
          autoComplete="new-password"
          required
        />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={mutation.isPending}
          data-testid="reset-pass-submit"
        >
          {t('pass.submit')}
        </button>
        <p className="form__links">
          <Link to="/auth/code">{t('pass.newCode')}</Link>
        </p>
      </form>
    </div>
  );
}
