import { LIMITS, resetCodeRequestSchema, resetPasswordRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Form, FormError, TextField, useZodForm } from '../../ui/Form.tsx';

const codeSchema = resetPasswordRequestSchema.pick({ code: true });

/** Reset by code, step 1: ask for a code by email, then type it to go on to the password step. */
export default function ResetCodePage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const request = useZodForm(resetCodeRequestSchema, { email: '' });
  const enter = useZodForm(codeSchema, { code: '' });
  const mutation = useMutation({
    mutationFn: (body: { email: string }) => api('auth.code', body),
  });
  // The password step names the account the code was sent to (the code only matches that one).
  const onCode = ({ code }: { code: string }) =>
    navigate(`/auth/pass?${new URLSearchParams({ email: mutation.variables?.email ?? '', code })}`);
  return (
    <div className="auth-page">
      <div className="card">
        <h1>{t('code.title')}</h1>
        {mutation.isSuccess ? (
          <Form form={enter} onSubmit={onCode} className="form" testId="reset-code-step">
            <Alert tone="success" testId="reset-code-sent">
              {t('code.sent')}
            </Alert>
            <TextField
              name="code"
              label={t('fields.code')}
              hint={t('code.codeHint', { n: LIMITS.resetCodeLength })}
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
          </Form>
        ) : (
          <Form form={request} onSubmit={mutation.mutateAsync} className="form" testId="reset-code-form">
            <p>{t('code.intro')}</p>
            <FormError />
            <TextField
              name="email"
              type="email"
              label={t('fields.email')}
              hint={t('signup.hints.email')}
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
          </Form>
        )}
        <p className="form__links">
          <Link to="/login">{t('code.backToLogin')}</Link>
        </p>
      </div>
    </div>
  );
}
