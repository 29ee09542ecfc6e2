import {
  ADMIN_STATISTICS_PAGES,
  type AdminStatistics,
  type AdminStatisticsPage,
  STATISTICS_PERIODS,
  type StatisticsPeriod,
} from '@fanverse/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import StatsChart from './StatsChart.tsx';
import { StatsPager } from './StatsPager.tsx';
import { StatsTable } from './StatsTable.tsx';
import { StatsTotals } from './StatsTotals.tsx';
import { statsFormatters } from './statsFormat.ts';
import { chartData, chartIsEmpty, RANKED_LIMIT, STATS_PAGES } from './statsPages.ts';
import { statsLink, useStatsParams } from './useStatsParams.ts';
import './statistics.css';

export const STATS_KEY = 'admin-statistics';

/**
 * Admin statistics (spec §2, §3, §9): ?admin=statistics&page=<name>, ?admin=sales and ?admin=bags.
 * Period, order and list page live in the query; the chart is drawn from the same rows as the table.
 */
export default function StatisticsView({ fallback }: { fallback: AdminStatisticsPage }) {
  const { t, i18n } = useTranslation('statistics');
  const { page, period, sort, listPage, update } = useStatsParams(fallback);
  const spec = STATS_PAGES[page];
  const query = useQuery({
    queryKey: [STATS_KEY, page, period, sort, spec.ranked ? listPage : 1],
    queryFn: () =>
      api(
        'admin.statistics',
        spec.ranked ? { period, sort, page: listPage, limit: RANKED_LIMIT } : { period, sort, limit: 100 },
        { params: { id: page } },
      ),
    placeholderData: keepPreviousData,
  });
  const format = useMemo(() => statsFormatters(i18n.language), [i18n.language]);
  const title = t(`pages.${page}`);

  return (
    <section
      className="panel admin-view stats-view"
      data-testid={`stats-page-${page}`}
      aria-busy={query.isFetching}
    >
      <h1 className="panel__title">{title}</h1>
      <p className="muted">{t(`intro.${page}`)}</p>
      <nav className="tabs stats-tabs" aria-label={t('pagesLabel')}>
        {ADMIN_STATISTICS_PAGES.map((option) => (
          <Link
            key={option}
            to={statsLink(option, period)}
            className={`tab${option === page ? ' tab--active' : ''}`}
            aria-current={option === page ? 'page' : undefined}
            data-testid={`stats-tab-${option}`}
          >
            {t(`pages.${option}`)}
          </Link>
        ))}
      </nav>
      <div className="stats-controls">
        <label className="stats-control">
          <span>{t('period.label')}</span>
          <select
            value={period}
            onChange={(event) => update({ period: event.target.value as StatisticsPeriod })}
            data-testid="stats-period"
          >
            {STATISTICS_PERIODS.map((option) => (
              <option key={option} value={option}>
                {t(`period.${option}`)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button stats-sort"
          onClick={() => update({ sort: sort === 'asc' ? 'desc' : 'asc' })}
          data-testid="stats-sort"
          data-sort={sort}
          aria-label={t('sort.toggle', { current: t(`sort.${spec.ranked ? 'amount' : 'date'}.${sort}`) })}
        >
          <span aria-hidden="true">{sort === 'asc' ? '↑' : '↓'}</span>{' '}
          {t(`sort.${spec.ranked ? 'amount' : 'date'}.${sort}`)}
        </button>
      </div>
      {query.isPending ? (
        <Loader />
      ) : query.isError ? (
        <Alert>{errorText(query.error)}</Alert>
      ) : (
        <StatsBody stats={query.data} format={format} busy={query.isFetching} onPage={(p) => update({ p })} />
      )}
    </section>
  );
}

function StatsBody({
  stats,
  format,
  busy,
  onPage,
}: {
  stats: AdminStatistics;
  format: ReturnType<typeof statsFormatters>;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation('statistics');
  const spec = STATS_PAGES[stats.page];
  const data = useMemo(() => chartData(stats), [stats]);
  const names = useMemo(
    () => Object.fromEntries(stats.columns.map((c) => [c, t(`columns.${c}`, { defaultValue: c })])),
    [stats.columns, t],
  );
  const summary = t('chartSummary', {
    page: t(`pages.${stats.page}`),
    period: t(`period.${stats.period}`),
    series: data.series.map((s) => names[s.key]).join(', '),
    count: data.labels.length,
  });
  return (
    <>
      {chartIsEmpty(data) ? (
        <p className="stats-empty" data-testid="stats-chart-empty">
          {t('chartEmpty')}
        </p>
      ) : (
        <figure className="stats-figure">
          <StatsChart data={data} spec={spec.chart} names={names} summary={summary} format={format} />
        </figure>
      )}
      <StatsTotals stats={stats} format={format} />
      {stats.items.length === 0 ? (
        <p className="admin-empty" data-testid="stats-empty">
          {t('empty')}
        </p>
      ) : (
        <StatsTable stats={stats} format={format} />
      )}
      {spec.ranked && <StatsPager stats={stats} busy={busy} onPage={onPage} />}
    </>
  );
}
