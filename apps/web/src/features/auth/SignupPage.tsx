import { errorMessage, LIMITS, type SignupRequest, signupRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../app/api.ts';
import { useFeature } from '../../app/features.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { CheckField, Form, FormError, TextField, useZodForm } from '../../ui/Form.tsx';
import { SocialSignIn, useSignInSteps } from './SocialSignIn.tsx';
import { useAuthSuccess } from './useAuthSuccess.ts';

/** Sign-up with the contract's signupRequestSchema: the rules and texts of the server (spec §5). */
export default function SignupPage() {
  const { t } = useTranslation('auth');
  const language = useSession((s) => s.language);
  const signupsOn = useFeature('signups');
  const [params] = useSearchParams();
  const referral = params.get('ref') ?? undefined;
  const form = useZodForm(signupRequestSchema, {
    username: '',
    name: '',
    email: '',
    password: '',
    birthdate: '',
    acceptTerms: false as never,
    ...(referral ? { referral } : {}),
  });
  const onAuth = useAuthSuccess();
  const { handlers, step } = useSignInSteps(onAuth);
  const mutation = useMutation({
    mutationFn: (body: SignupRequest) => api('auth.signup', body),
    onSuccess: onAuth,
  });
  const hints = {
    username: t('signup.hints.username', { min: LIMITS.usernameMin, max: LIMITS.usernameMax }),
    name: t('signup.hints.name'),
    email: t('signup.hints.email'),
    password: t('signup.hints.password', { min: LIMITS.passwordMin }),
    birthdate: t('signup.hints.birthdate', { age: LIMITS.minimumAge }),
    acceptTerms: t('signup.hints.terms'),
  };
  if (!signupsOn) {
    // A super paused sign-ups: say so instead of a form the server would refuse.
    return (
      <div className="auth-page">
        <div className="form card" data-testid="signup-paused">
          <h1>{t('signup.title')}</h1>
          <Alert tone="info">{errorMessage('SIGNUPS_PAUSED', language)}</Alert>
          <p className="form__links">
            <Link to="/login">{t('signup.haveAccount')}</Link>
          </p>
        </div>
      </div>
    );
  }
  if (step) return <div className="auth-page">{step}</div>;
  return (
    <div className="auth-page">
      <Form form={form} onSubmit={mutation.mutateAsync} testId="signup-form">
        <h1>{t('signup.title')}</h1>
        <p className="form__intro">{t('signup.intro', { age: LIMITS.minimumAge })}</p>
        <FormError />
        <TextField
          name="username"
          label={t('fields.username')}
          hint={hints.username}
          required
          autoComplete="username"
          maxLength={LIMITS.usernameMax + 10}
          autoFocus
        />
        <TextField name="name" label={t('fields.name')} hint={hints.name} required autoComplete="name" />
        <TextField
          name="email"
          type="email"
          label={t('fields.email')}
          hint={hints.email}
          required
          autoComplete="email"
          inputMode="email"
        />
        <TextField
          name="password"
          type="password"
          label={t('fields.password')}
          hint={hints.password}
          required
          autoComplete="new-password"
        />
        <TextField
          name="birthdate"
          type="date"
          label={t('fields.birthdate')}
          hint={hints.birthdate}
          required
          autoComplete="bday"
        />
        <CheckField
          name="acceptTerms"
          hint={hints.acceptTerms}
          label={
            <Trans
              t={t}
              i18nKey="signup.terms"
              components={{ terms: <Link to="/terms" target="_blank" /> }}
            />
          }
        />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={mutation.isPending}
          data-testid="signup-submit"
        >
          {mutation.isPending ? t('signup.submitting') : t('signup.submit')}
        </button>
        <SocialSignIn {...handlers} />
        <p className="form__links">
          <Link to="/login">{t('signup.haveAccount')}</Link>
        </p>
      </Form>
    </div>
  );
}
