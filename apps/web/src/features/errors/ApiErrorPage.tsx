import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useStartupRetry } from '../../app/startup.context.ts';

/** /error/api: the start-up call failed (spec §4); Retry runs it again. */
export default function ApiErrorPage() {
  const { t } = useTranslation('errors');
  const retry = useStartupRetry();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failedAgain, setFailedAgain] = useState(false);
  return (
    <section className="error-page" data-testid="api-error-page">
      <h1>{t('api.title')}</h1>
      <p>{t('api.body')}</p>
      {failedAgain && (
        <p role="alert" data-testid="alert">
          {t('api.stillDown')}
        </p>
      )}
      <button
        type="button"
        className="button button--primary"
        disabled={busy}
        data-testid="retry-button"
        onClick={async () => {
          setBusy(true);
          const ok = await retry();
          setBusy(false);
          if (ok) navigate('/', { replace: true });
          else setFailedAgain(true);
        }}
      >
        {busy ? t('api.retrying') : t('api.retry')}
      </button>
    </section>
  );
}
