import {
  type AuthResponse,
  LIMITS,
  type OidcCallbackResponse,
  type OidcSignupOffer,
  type OidcSignupRequest,
  oidcSignupRequestSchema,
  type SignInProviderId,
} from '@fanverse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { CheckField, Form, FormError, TextField, useZodForm } from '../../ui/Form.tsx';
import { TwoFactorStep } from '../account/TwoFactorStep.tsx';
import { type Intent, isAbort, startSocial } from './social.ts';

export const PROVIDERS_KEY = ['auth.oidcProviders'];

/** The providers this server offers (none: no buttons). */
export function useSignInProviders() {
  return useQuery({ queryKey: PROVIDERS_KEY, queryFn: () => api('auth.oidcProviders'), staleTime: Infinity });
}

/** Starts provider flows of one kind; a new start or leaving the page abandons the one waiting. */
export function useProviderFlow(intent: Intent) {
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  return useMemo(
    () => ({
      start: (provider: SignInProviderId) => {
        abort.current?.abort();
        abort.current = new AbortController();
        return startSocial(provider, intent, abort.current.signal);
      },
      cancel: () => abort.current?.abort(),
    }),
    [intent],
  );
}

/** What a finished provider sign-in leads to, for the page that shows it. */
export interface SocialHandlers {
  onAuth: (auth: AuthResponse) => void;
  onTwoFactor: (challenge: string) => void;
  onSignup: (offer: OidcSignupOffer) => void;
}

export function handleSocialResult(res: OidcCallbackResponse, h: SocialHandlers): void {
  if ('twoFactor' in res) h.onTwoFactor(res.twoFactor.challenge);
  else if ('signup' in res) h.onSignup(res.signup);
  else if ('token' in res) h.onAuth(res);
}

/** "Continue with …" buttons of the login and sign-up pages (popup; full page when blocked). */
export function SocialSignIn(handlers: SocialHandlers) {
  const { t } = useTranslation('auth');
  const providers = useSignInProviders();
  const flow = useProviderFlow('login');
  const [waiting, setWaiting] = useState<string | null>(null);
  const sign = useMutation({
    mutationFn: flow.start,
    onMutate: (provider) => setWaiting(providers.data?.items.find((p) => p.id === provider)?.name ?? null),
    onSettled: () => setWaiting(null),
    onSuccess: (res) => res && handleSocialResult(res, handlers),
  });
  const items = providers.data?.items ?? [];
  if (!items.length) return null;
  return (
    <div className="social-sign-in" data-testid="social-sign-in">
      <p className="social-sign-in__or" aria-hidden="true">
        {t('social.or')}
      </p>
      {sign.isError && !isAbort(sign.error) && <Alert testId="social-error">{errorText(sign.error)}</Alert>}
      {items.map((p) => (
        <button
          key={p.id}
          type="button"
          className="button button--block"
          disabled={sign.isPending}
          onClick={() => sign.mutate(p.id)}
          data-testid={`social-${p.id}`}
        >
          {t('social.continue', { provider: p.name })}
        </button>
      ))}
      {waiting && (
        <p className="muted" role="status" data-testid="social-waiting">
          {t('social.waiting', { provider: waiting })}{' '}
          <button type="button" className="link-button" onClick={flow.cancel}>
            {t('social.cancel')}
          </button>
        </p>
      )}
    </div>
  );
}

/**
 * A first sign-in with a provider: what sign-up asks besides the provider's claims (username, date
 * of birth 18+, terms; an email only when the provider gave none).
 */
export function SocialSignupForm({
  offer,
  onAuth,
  onCancel,
}: {
  offer: OidcSignupOffer;
  onAuth: (auth: AuthResponse) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('auth');
  const form = useZodForm(oidcSignupRequestSchema, {
    ticket: offer.ticket,
    username: offer.username,
    birthdate: '',
    acceptTerms: false as never,
  });
  const mutation = useMutation({
    mutationFn: (body: OidcSignupRequest) => api('auth.oidcSignup', body),
    onSuccess: onAuth,
  });
  const name = offer.profile.name ?? offer.profile.given_name ?? offer.username;
  return (
    <Form form={form} onSubmit={mutation.mutateAsync} testId="social-signup-form">
      <h1>{t('social.signupTitle')}</h1>
      <p className="social-profile">
        <strong>{name}</strong>
        {offer.profile.email && <span className="muted">{offer.profile.email}</span>}
      </p>
      <p className="form__intro">
        {t('social.signupIntro', { provider: offer.providerName, age: LIMITS.minimumAge })}
      </p>
      {!offer.emailVerified && offer.profile.email && <Alert tone="info">{t('social.confirmLater')}</Alert>}
      <FormError />
      <TextField
        name="username"
        label={t('fields.username')}
        hint={t('signup.hints.username', { min: LIMITS.usernameMin, max: LIMITS.usernameMax })}
        required
        autoComplete="username"
        maxLength={LIMITS.usernameMax + 10}
        autoFocus
      />
      {!offer.profile.email && (
        <TextField
          name="email"
          type="email"
          label={t('fields.email')}
          hint={t('signup.hints.email')}
          required
          autoComplete="email"
          inputMode="email"
        />
      )}
      <TextField
        name="birthdate"
        type="date"
        label={t('fields.birthdate')}
        hint={t('signup.hints.birthdate', { age: LIMITS.minimumAge })}
        required
        autoComplete="bday"
      />
      <CheckField
        name="acceptTerms"
        hint={t('signup.hints.terms')}
        label={
          <Trans t={t} i18nKey="signup.terms" components={{ terms: <Link to="/terms" target="_blank" /> }} />
        }
      />
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={mutation.isPending}
        data-testid="social-signup-submit"
      >
        {mutation.isPending ? t('signup.submitting') : t('signup.submit')}
      </button>
      <p className="form__links">
        <button type="button" className="link-button" onClick={onCancel}>
          {t('social.back')}
        </button>
      </p>
    </Form>
  );
}

/**
 * The steps after a right password or a provider: the second factor (two-step sign-in on) or, for
 * a provider's first sign-in, the sign-up form. `step` replaces the page while one is due.
 */
export function useSignInSteps(onAuth: (auth: AuthResponse) => void): {
  handlers: SocialHandlers;
  step: ReactNode;
} {
  const [challenge, setChallenge] = useState<string | null>(null);
  const [offer, setOffer] = useState<OidcSignupOffer | null>(null);
  const handlers = { onAuth, onTwoFactor: setChallenge, onSignup: setOffer };
  const step = challenge ? (
    <TwoFactorStep challenge={challenge} onAuth={onAuth} onRestart={() => setChallenge(null)} />
  ) : offer ? (
    <SocialSignupForm offer={offer} onAuth={onAuth} onCancel={() => setOffer(null)} />
  ) : null;
  return { handlers, step };
}
