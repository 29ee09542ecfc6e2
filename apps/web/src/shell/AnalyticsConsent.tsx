import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFirstRender } from '../app/firstRender.tsx';
import { useSession } from '../app/session.store.ts';

/** Where the visitor's answer is kept (this browser only). */
export const CONSENT_KEY = 'analyticsConsent';
type Consent = 'granted' | 'denied';

function readConsent(): Consent | null {
  const value = window.localStorage.getItem(CONSENT_KEY);
  return value === 'granted' || value === 'denied' ? value : null;
}

/** Adds the configured tag once (Plausible reads data-domain, Matomo-style tags data-site-id). */
function loadTag(tag: { scriptUrl: string; siteId: string }): void {
  if (document.querySelector('script[data-analytics-tag]')) return;
  const script = document.createElement('script');
  script.defer = true;
  script.src = tag.scriptUrl;
  script.dataset.analyticsTag = '';
  script.dataset.domain = tag.siteId;
  script.dataset.siteId = tag.siteId;
  document.head.appendChild(script);
}

/**
 * The analytics tag of spec §7, consent first: when the platform configures one
 * (ANALYTICS_SCRIPT_URL), a banner asks the visitor, and the script is added to the page only
 * after they agree (now or on an earlier visit). Nothing is requested before, nor after a refusal.
 */
export function AnalyticsConsent() {
  const { t } = useTranslation('shell');
  const tag = useSession((s) => s.app?.analytics ?? null);
  // The server's first view (and its hydration) does not know the answer yet: the banner, then
  // this browser's answer.
  const firstRender = useFirstRender();
  const [consent, setConsent] = useState<Consent | null>(() => (firstRender ? null : readConsent()));
  useEffect(() => {
    if (!firstRender) setConsent(readConsent());
  }, [firstRender]);
  useEffect(() => {
    if (tag && consent === 'granted') loadTag(tag);
  }, [tag, consent]);
  if (!tag || consent) return null;
  const answer = (value: Consent) => {
    window.localStorage.setItem(CONSENT_KEY, value);
    setConsent(value);
  };
  return (
    <section className="consent-banner" aria-label={t('consent.label')} data-testid="consent-banner">
      <p>{t('consent.text')}</p>
      <div className="button-row">
        <button type="button" className="button" onClick={() => answer('denied')} data-testid="consent-deny">
          {t('consent.deny')}
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={() => answer('granted')}
          data-testid="consent-accept"
        >
          {t('consent.accept')}
        </button>
      </div>
    </section>
  );
}
