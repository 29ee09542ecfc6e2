import { errorMessage, LIMITS, type SignupRequest, signupRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../app/api.ts';
import { useFeature } from '../../app/features.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { CheckboxField, Field } from '../../ui/Field.tsx';
import { useFormFields } from '../../ui/useFormFields.ts';
import { useAuthSuccess } from './useAuthSuccess.ts';

interface Values {
  username: string;
  name: string;
  email: string;
  password: string;
  birthdate: string;
  acceptTerms: boolean;
}

/** Sign-up with the contract's signupRequestSchema: the rules and texts of the server (spec §5). */
export default function SignupPage() {
  const { t } = useTranslation('auth');
  const language = useSession((s) => s.language);
  const signupsOn = useFeature('signups');
  const [params] = useSearchParams();
  const referral = params.get('ref') ?? undefined;
  const { values, errors, formError, set, fail, validate } = useFormFields<Values>({
    username: '',
    name: '',
    email: '',
    password: '',
    birthdate: '',
    acceptTerms: false,
  });
  const onAuth = useAuthSuccess();
  const mutation = useMutation({
    mutationFn: (body: SignupRequest) => api('auth.signup', body),
    onSuccess: onAuth,
    onError: fail,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = { ...values, ...(referral ? { referral } : {}) };
    if (validate(signupRequestSchema, body, language)) mutation.mutate(body as SignupRequest);
  };
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
  return (
    <div className="auth-page">
      <form className="form card" onSubmit={onSubmit} noValidate data-testid="signup-form">
        <h1>{t('signup.title')}</h1>
        <p className="form__intro">{t('signup.intro', { age: LIMITS.minimumAge })}</p>
        {formError && <Alert testId="form-error">{formError}</Alert>}
        <Field
          name="username"
          label={t('fields.username')}
          hint={hints.username}
          value={values.username}
          onChange={set('username')}
          error={errors.username}
          required
          autoComplete="username"
          maxLength={LIMITS.usernameMax + 10}
          autoFocus
        />
        <Field
          name="name"
          label={t('fields.name')}
          hint={hints.name}
          value={values.name}
          onChange={set('name')}
          error={errors.name}
          required
          autoComplete="name"
        />
        <Field
          name="email"
          type="email"
          label={t('fields.email')}
          hint={hints.email}
          value={values.email}
          onChange={set('email')}
          error={errors.email}
          required
          autoComplete="email"
          inputMode="email"
        />
        <Field
          name="password"
          type="password"
          label={t('fields.password')}
          hint={hints.password}
          value={values.password}
          onChange={set('password')}
          error={errors.password}
          required
          autoComplete="new-password"
        />
        <Field
          name="birthdate"
          type="date"
          label={t('fields.birthdate')}
          hint={hints.birthdate}
          value={values.birthdate}
          onChange={set('birthdate')}
          error={errors.birthdate}
          required
          autoComplete="bday"
        />
        <CheckboxField
          name="acceptTerms"
          checked={values.acceptTerms}
          onChange={set('acceptTerms')}
          error={errors.acceptTerms}
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
        <p className="form__links">
          <Link to="/login">{t('signup.haveAccount')}</Link>
        </p>
      </form>
    </div>
  );
}
