import { LIMITS, type ResetPasswordRequest, resetPasswordRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../app/api.ts';
import { Form, FormError, TextField, useZodFormOf } from '../../ui/Form.tsx';

interface Values extends ResetPasswordRequest {
  repeat: string;
}

/**
 * Reset by code, step 2: the account's email and the code (from the query or the mail's link,
 * editable) and the new password.
 */
export default function ResetPassPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const form = useZodFormOf<Values, typeof resetPasswordRequestSchema>(
    resetPasswordRequestSchema,
    { email: params.get('email') ?? '', code: params.get('code') ?? '', password: '', repeat: '' },
    ({ repeat: _, ...body }) => body,
    ({ password, repeat }) => ({ repeat: password && repeat !== password ? t('pass.mismatch') : undefined }),
  );
  const mutation = useMutation({
    mutationFn: (body: ResetPasswordRequest) => api('auth.pass', body),
    onSuccess: () => navigate('/login', { replace: true, state: { notice: 'passwordChanged' } }),
  });
  return (
    <div className="auth-page">
      <Form form={form} onSubmit={mutation.mutateAsync} testId="reset-pass-form">
        <h1>{t('pass.title')}</h1>
        <p>{t('pass.intro')}</p>
        <FormError />
        <TextField
          name="email"
          type="email"
          label={t('fields.email')}
          hint={t('pass.emailHint')}
          autoComplete="email"
          inputMode="email"
          required
        />
        <TextField
          name="code"
          label={t('fields.code')}
          hint={t('code.codeHint', { n: LIMITS.resetCodeLength })}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={LIMITS.resetCodeLength}
          required
        />
        <TextField
          name="password"
          type="password"
          label={t('pass.password')}
          hint={t('signup.hints.password', { min: LIMITS.passwordMin })}
          autoComplete="new-password"
          required
          autoFocus
        />
        <TextField
          name="repeat"
          type="password"
          label={t('pass.repeat')}
          hint={t('pass.repeatHint')}
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
      </Form>
    </div>
  );
}
