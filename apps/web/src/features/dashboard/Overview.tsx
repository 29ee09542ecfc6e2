import { STATISTICS_PERIODS, type StatisticsPeriod } from '@fanverse/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { statsFormatters } from '../statistics/statsFormat.ts';

const CARDS = [
  { key: 'users', as: 'count' },
  { key: 'creators', as: 'count' },
  { key: 'fans', as: 'count' },
  { key: 'activeSubscriptions', as: 'count' },
  { key: 'cash', as: 'money' },
  { key: 'creditSpends', as: 'money' },
  { key: 'revenue', as: 'money' },
  // Honest billing (issue 19): how many paid periods renew, how many subscriptions are cancelled.
  { key: 'renewalRate', as: 'percent' },
  { key: 'cancelRate', as: 'percent' },
] as const;

/** Overview cards from the totals of the home statistics (spec §3), for a chosen period. */
export function Overview() {
  const { t, i18n } = useTranslation('dashboard');
  const { t: ts } = useTranslation('statistics');
  const [period, setPeriod] = useState<StatisticsPeriod>('month');
  const format = useMemo(() => statsFormatters(i18n.language), [i18n.language]);
  const query = useQuery({
    queryKey: ['admin-statistics', 'home', period, 'desc', 1],
    queryFn: () => api('admin.statistics', { period, sort: 'desc', limit: 100 }, { params: { id: 'home' } }),
    placeholderData: keepPreviousData,
  });
  return (
    <section
      className="dashboard-section"
      data-testid="dashboard-overview"
      aria-labelledby="dashboard-overview-title"
    >
      <div className="dashboard-section__head">
        <h2 id="dashboard-overview-title">{t('overview.title')}</h2>
        <label className="stats-control">
          <span>{t('overview.period')}</span>
          <select
            value={period}
            onChange={(event) => setPeriod(event.target.value as StatisticsPeriod)}
            data-testid="overview-period"
          >
            {STATISTICS_PERIODS.map((option) => (
              <option key={option} value={option}>
                {ts(`period.${option}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {query.isPending ? (
        <Loader />
      ) : query.isError ? (
        <Alert>{errorText(query.error)}</Alert>
      ) : (
        <dl className="stats-totals dashboard-cards" aria-busy={query.isFetching}>
          {CARDS.map(({ key, as }) => {
            const value = query.data.statistics.totals[key] ?? 0;
            return (
              <div key={key} className="stats-total" data-testid={`overview-${key}`}>
                <dt>{t(`overview.${key}`)}</dt>
                <dd>{format[as](value)}</dd>
              </div>
            );
          })}
        </dl>
      )}
      <p className="muted dashboard-note">{t('overview.periodNote')}</p>
      <Link to={`/?admin=statistics&page=home&period=${period}`}>{t('overview.more')}</Link>
    </section>
  );
}
