import type { AdminStatisticsPage, StatisticsPeriod } from '@fanverse/contract';
import { useSearchParams } from 'react-router';
import { usePatchQuery } from '../../ui/queryParams.ts';
import { isStatsPage, isStatsPeriod } from './statsPages.ts';

/** The statistics link of a page, keeping the period; sales and bags keep their own admin areas. */
export function statsLink(page: AdminStatisticsPage, period: StatisticsPeriod): string {
  const query = new URLSearchParams({ admin: 'statistics', page });
  if (period !== 'month') query.set('period', period);
  return `/?${query.toString()}`;
}

/**
 * Page, period, sort and list page of the statistics, kept in the query so Back and links work.
 * `page` names the statistics page (spec §2), so the list page travels as `p`.
 */
export function useStatsParams(fallback: AdminStatisticsPage) {
  const [params] = useSearchParams();
  const rawPage = params.get('page');
  const page = isStatsPage(rawPage) ? rawPage : fallback;
  const rawPeriod = params.get('period');
  const period: StatisticsPeriod = isStatsPeriod(rawPeriod) ? rawPeriod : 'month';
  const sort: 'asc' | 'desc' = params.get('sort') === 'asc' ? 'asc' : 'desc';
  const listPage = Math.max(1, Number(params.get('p')) || 1);
  const patchQuery = usePatchQuery();
  const update = (patch: { period?: StatisticsPeriod; sort?: 'asc' | 'desc'; p?: number }) =>
    // A new period or order starts on the first page.
    patchQuery(
      {
        ...(patch.period && { period: patch.period }),
        ...(patch.sort && { sort: patch.sort }),
        p: patch.p && patch.p > 1 ? String(patch.p) : undefined,
      },
      { push: true },
    );
  return { page, period, sort, listPage, update };
}
