import { EARNINGS_PERIODS } from '@fanverse/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Boundary } from '../../app/hydration.tsx';
import { isCreator, useSession } from '../../app/session.store.ts';
import { Alert, Loader, Panel } from '../../ui/Feedback.tsx';
import { PayoutMethodForm, PricingForm } from './CreatorMoneyForms.tsx';
import { CreatorOffersForm } from './CreatorOffersForm.tsx';
import { useMoneyFormat } from './moneyFormat.ts';
import './money.css';

/** Chart.js loads with the chart, not with the money views. */
const EarningsChart = lazy(() => import('./EarningsChart.tsx'));

type Period = (typeof EARNINGS_PERIODS)[number];
const EARNING_CATEGORIES = ['subscriptions', 'tips', 'unlockContent', 'credits'] as const;
const SALE_CATEGORIES = ['subscriptions', 'content', 'gifts', 'flowers', 'tips', 'dollars'] as const;

/** Earnings (4 categories), sales (6 categories), balance, next payout and payouts of one period. */
function Earnings() {
  const { t } = useTranslation('money');
  const format = useMoneyFormat();
  const [period, setPeriod] = useState<Period>('month');
  const query = useQuery({
    queryKey: ['creator.earnings', period],
    queryFn: () => api('creator.earnings', { period }),
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  return (
    <section className="earnings" data-testid="earnings" aria-labelledby="earnings-title">
      <div className="earnings__bar">
        <h2 id="earnings-title" className="money-subtitle">
          {t('earnings.title')}
        </h2>
        <label className="earnings__period">
          <span>{t('earnings.period')}</span>
          <select
            value={period}
            onChange={(e) => setPeriod(e.target.value as Period)}
            data-testid="earnings-period"
          >
            {EARNINGS_PERIODS.map((value) => (
              <option key={value} value={value}>
                {t(`earnings.periods.${value}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {query.isPending && <Loader />}
      {query.isError && <Alert>{errorText(query.error)}</Alert>}
      {data && (
        <>
          <ul className="stat-grid" aria-label={t('earnings.byCategory')}>
            {EARNING_CATEGORIES.map((name) => (
              <li key={name} className="stat-card" data-testid={`earnings-category-${name}`}>
                <span className="stat-card__label">{t(`earnings.categories.${name}`)}</span>
                <strong className="stat-card__value">{format.cents(data.earnings[name])}</strong>
              </li>
            ))}
          </ul>
          <h3 className="money-subtitle">{t('earnings.overTime')}</h3>
          <Boundary fallback={<Loader />}>
            <EarningsChart series={data.series} />
          </Boundary>
          <h3 className="money-subtitle">{t('earnings.balance')}</h3>
          <ul className="stat-grid">
            {(['pending', 'available', 'total'] as const).map((name) => (
              <li key={name} className="stat-card" data-testid={`earnings-balance-${name}`}>
                <span className="stat-card__label">{t(`earnings.balances.${name}`)}</span>
                <strong className="stat-card__value">{format.cents(data.balance[name])}</strong>
              </li>
            ))}
          </ul>
          <p className="money-note" data-testid="earnings-next-payout">
            {t('earnings.nextPayout', {
              date: format.date(data.nextPayoutDate),
              period: t(`earnings.payoutPeriods.${data.payoutPeriod}`),
            })}
          </p>
          <h3 className="money-subtitle">{t('earnings.sales')}</h3>
          <div className="money-table-wrap">
            <table className="money-table money-table--compact">
              <thead>
                <tr>
                  <th scope="col">{t('earnings.category')}</th>
                  <th scope="col">{t('earnings.count')}</th>
                  <th scope="col">{t('earnings.amount')}</th>
                </tr>
              </thead>
              <tbody>
                {SALE_CATEGORIES.map((name) => (
                  <tr key={name} data-testid={`sales-category-${name}`}>
                    <th scope="row">{t(`earnings.saleCategories.${name}`)}</th>
                    <td>{format.number(data.sales[name].count)}</td>
                    <td>{format.cents(data.sales[name].amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3 className="money-subtitle">{t('earnings.payouts')}</h3>
          {data.payouts.length === 0 ? (
            <p className="money-empty">{t('earnings.noPayouts')}</p>
          ) : (
            <ul className="money-list" data-testid="payouts-list">
              {data.payouts.map((payout) => (
                <li key={payout._id} className="money-list__row" data-status={payout.status}>
                  <span className="money-list__main">
                    <strong>{format.date(payout.date)}</strong>
                    <span className="money-list__date">
                      {t(`earnings.payoutStatus.${payout.status}`, { defaultValue: payout.status })}
                      {payout.decidedAt && ` · ${format.date(payout.decidedAt)}`}
                    </span>
                  </span>
                  <span className="money-amount">{format.cents(payout.amount)}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** /?feed=creator-statistics (and /user/gifts): earnings, sales, payouts, price and payout method. */
export function CreatorStatisticsView() {
  const { t } = useTranslation('money');
  const user = useSession((s) => s.user);
  return (
    <Panel title={t('earnings.pageTitle')} testId="view-feed-creator-statistics">
      {user && isCreator(user) ? (
        <>
          <Earnings />
          <div className="money-columns">
            <PricingForm handle={user.user} />
            <CreatorOffersForm />
            <PayoutMethodForm />
          </div>
        </>
      ) : (
        <p className="money-empty">{t('creatorOnly')}</p>
      )}
    </Panel>
  );
}
