import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session.store.ts';

/** Documented defaults of PAYOUT_PERIOD and EARNINGS_HOLD_DAYS; no admin call reports the values. */
const PAYOUT_DEFAULTS = { period: 'weekly', holdDays: 7 } as const;

/** Settings that live in the server configuration, shown read-only. */
export function PlatformSettings() {
  const { t } = useTranslation('dashboard');
  const features = useSession((s) => s.app?.features);
  const onOff = (value: boolean | undefined) =>
    value === undefined ? t('features.unknown') : value ? t('features.on') : t('features.off');
  return (
    <div className="dashboard-stack">
      <section
        className="dashboard-section"
        data-testid="dashboard-payouts-settings"
        aria-labelledby="payouts-settings-title"
      >
        <h2 id="payouts-settings-title">{t('payouts.title')}</h2>
        <dl className="dashboard-facts">
          <div>
            <dt>{t('payouts.period')}</dt>
            <dd data-testid="setting-payout-period">{t(`payouts.${PAYOUT_DEFAULTS.period}`)}</dd>
          </div>
          <div>
            <dt>{t('payouts.hold')}</dt>
            <dd data-testid="setting-hold-days">{t('payouts.days', { count: PAYOUT_DEFAULTS.holdDays })}</dd>
          </div>
        </dl>
        <p className="muted dashboard-note">{t('payouts.note')}</p>
      </section>
      <section className="dashboard-section" data-testid="dashboard-features" aria-labelledby="features-title">
        <h2 id="features-title">{t('features.title')}</h2>
        <dl className="dashboard-facts">
          <div>
            <dt>{t('features.paymentProvider')}</dt>
            <dd data-testid="feature-paymentProvider">{features?.paymentProvider ?? t('features.unknown')}</dd>
          </div>
          <div>
            <dt>{t('features.devOutbox')}</dt>
            <dd data-testid="feature-devOutbox">{onOff(features?.devOutbox)}</dd>
          </div>
          <div>
            <dt>{t('features.sandbox')}</dt>
            <dd data-testid="feature-sandbox">{t('features.unknown')}</dd>
          </div>
        </dl>
        <p className="muted dashboard-note">
          {t('features.note')} {t('features.sandboxNote')}
        </p>
      </section>
    </div>
  );
}
