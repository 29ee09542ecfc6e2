import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session.store.ts';

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
            <dd data-testid="setting-payout-period">
              {features ? t(`payouts.${features.payoutPeriod}`) : t('features.unknown')}
            </dd>
          </div>
          <div>
            <dt>{t('payouts.hold')}</dt>
            <dd data-testid="setting-hold-days">
              {features ? t('payouts.days', { count: features.earningsHoldDays }) : t('features.unknown')}
            </dd>
          </div>
        </dl>
        <p className="muted dashboard-note">{t('payouts.note')}</p>
      </section>
      <section
        className="dashboard-section"
        data-testid="dashboard-features"
        aria-labelledby="features-title"
      >
        <h2 id="features-title">{t('features.title')}</h2>
        <dl className="dashboard-facts">
          <div>
            <dt>{t('features.paymentProvider')}</dt>
            <dd data-testid="feature-paymentProvider">
              {features?.paymentProvider ?? t('features.unknown')}
            </dd>
          </div>
          <div>
            <dt>{t('features.devOutbox')}</dt>
            <dd data-testid="feature-devOutbox">{onOff(features?.devOutbox)}</dd>
          </div>
          <div>
            <dt>{t('features.sandbox')}</dt>
            <dd data-testid="feature-sandbox">{onOff(features?.sandboxControls)}</dd>
          </div>
        </dl>
        <p className="muted dashboard-note">{t('features.note')}</p>
      </section>
    </div>
  );
}
