import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { takeLoginTarget } from '../../app/navigation.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { handleSocialResult, useSignInSteps } from './SocialSignIn.tsx';
import { deliverCallback } from './social.ts';
import { useAuthSuccess } from './useAuthSuccess.ts';

/**
 * /auth/oidc/callback, where the provider sends the person back. In a popup it hands the answer to
 * the window that opened it and closes; after a full-page trip (popup blocked) it finishes here and
 * goes on to what the person meant to do before signing in.
 */
export default function OidcCallbackPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const startSession = useAuthSuccess();
  const onAuth: typeof startSession = (auth) => {
    startSession(auth);
    navigate(takeLoginTarget() ?? '/', { replace: true });
  };
  const { handlers, step } = useSignInSteps(onAuth);
  const finish = useMutation({
    mutationFn: (input: { query: string; browserKey: string }) => api('auth.oidcCallback', input),
    onSuccess: (res) => {
      if ('linked' in res)
        navigate('/user/security', { replace: true, state: { linked: res.linked.provider } });
      else handleSocialResult(res, handlers);
    },
  });
  const [nothing, setNothing] = useState(false);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const query = window.location.search;
    const flow = deliverCallback(query);
    if (flow === 'nothing') setNothing(true);
    else if (flow !== 'posted') finish.mutate({ query, browserKey: flow.browserKey });
  }, [finish]);
  if (step) return <div className="auth-page">{step}</div>;
  return (
    <div className="auth-page">
      <div className="form card" data-testid="oidc-callback">
        <h1>{t('social.callbackTitle')}</h1>
        {finish.isError || nothing ? (
          <>
            <Alert testId="social-error">{nothing ? t('social.nothing') : errorText(finish.error)}</Alert>
            <p className="form__links">
              <Link to="/login">{t('social.backToLogin')}</Link>
            </p>
          </>
        ) : (
          <p role="status">{t('social.finishing')}</p>
        )}
      </div>
    </div>
  );
}
