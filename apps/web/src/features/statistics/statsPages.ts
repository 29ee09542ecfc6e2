import {
  ADMIN_STATISTICS_PAGES,
  type AdminStatistics,
  type AdminStatisticsPage,
  SALE_CATEGORIES,
  STATISTICS_PERIODS,
  type StatisticsPeriod,
} from '@fanverse/contract';

/** How a column's figures read: the label (date or name), money (integer cents) or a count. */
export type ColumnKind = 'date' | 'name' | 'money' | 'count';

/** One series of the chart: a column, on the money or the count axis. */
export interface ChartSeries {
  key: string;
  axis: 'money' | 'count';
  /** Drawn as a line over the bars (counts next to money). */
  line?: boolean;
}

/** What a statistics page draws (spec §9: charts where people would rather look than read). */
export interface ChartSpec {
  series: ChartSeries[];
  stacked: boolean;
  /** Names are long and many: horizontal bars read better. */
  horizontal: boolean;
}

interface PageSpec {
  columns: Record<string, ColumnKind>;
  chart: ChartSpec;
  /** Ranked pages (creators, fans, sales by creator) are paged and sorted by amount, not by date. */
  ranked: boolean;
}

const money = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, 'money' as const]));
const moneySeries = (keys: readonly string[]): ChartSeries[] => keys.map((key) => ({ key, axis: 'money' }));

export const STATS_PAGES: Record<AdminStatisticsPage, PageSpec> = {
  home: {
    columns: { date: 'date', sales: 'money', revenue: 'money', signups: 'count' },
    chart: {
      series: [
        { key: 'sales', axis: 'money' },
        { key: 'revenue', axis: 'money' },
        { key: 'signups', axis: 'count', line: true },
      ],
      stacked: false,
      horizontal: false,
    },
    ranked: false,
  },
  sales: {
    columns: { date: 'date', ...money(SALE_CATEGORIES) },
    chart: { series: moneySeries(SALE_CATEGORIES), stacked: true, horizontal: false },
    ranked: false,
  },
  users: {
    columns: { date: 'date', users: 'count', creators: 'count', fans: 'count' },
    chart: {
      series: [
        { key: 'creators', axis: 'count' },
        { key: 'fans', axis: 'count' },
      ],
      stacked: true,
      horizontal: false,
    },
    ranked: false,
  },
  bags: {
    columns: { bag: 'name', credits: 'count', price: 'money', sold: 'count', amount: 'money' },
    chart: {
      series: [
        { key: 'amount', axis: 'money' },
        { key: 'sold', axis: 'count' },
      ],
      stacked: false,
      horizontal: false,
    },
    ranked: false,
  },
  creators: {
    columns: { creator: 'name', sales: 'money', earnings: 'money', subscribers: 'count', posts: 'count' },
    chart: { series: moneySeries(['sales', 'earnings']), stacked: false, horizontal: true },
    ranked: true,
  },
  fans: {
    columns: { fan: 'name', spent: 'money', paid: 'money', subscriptions: 'count' },
    chart: { series: moneySeries(['paid', 'spent']), stacked: false, horizontal: true },
    ranked: true,
  },
  salesByCreator: {
    columns: { creator: 'name', ...money(SALE_CATEGORIES), total: 'money' },
    chart: {
      series: moneySeries(SALE_CATEGORIES.filter((c) => c !== 'dollars')),
      stacked: true,
      horizontal: true,
    },
    ranked: true,
  },
};

/** Totals that count people or things; every other total is an amount in cents. */
const COUNT_TOTALS = new Set(['users', 'creators', 'fans', 'activeSubscriptions', 'sold']);

export function columnKind(page: AdminStatisticsPage, column: string, index: number): ColumnKind {
  return STATS_PAGES[page].columns[column] ?? (index === 0 ? 'name' : 'count');
}

/** The total of a column: the page's totals keyed by the column, or its alias (home sales = cash). */
export function columnTotal(stats: AdminStatistics, column: string): number | undefined {
  const totals = stats.statistics.totals;
  if (totals[column] !== undefined) return totals[column];
  return stats.page === 'home' && column === 'sales' ? totals.cash : undefined;
}

export function totalKind(key: string): 'money' | 'count' {
  return COUNT_TOTALS.has(key) ? 'count' : 'money';
}

/** Rows per page of the ranked (paged) pages. */
export const RANKED_LIMIT = 10;

export function isStatsPage(value: string | null): value is AdminStatisticsPage {
  return (ADMIN_STATISTICS_PAGES as readonly string[]).includes(value ?? '');
}

export function isStatsPeriod(value: string | null): value is StatisticsPeriod {
  return (STATISTICS_PERIODS as readonly string[]).includes(value ?? '');
}

export interface ChartData {
  labels: string[];
  series: { key: string; axis: 'money' | 'count'; line: boolean; values: number[] }[];
}

/**
 * The chart's points from the answer's rows. Dates always run oldest to newest, whatever order the
 * table is sorted in; ranked pages keep the server's order. Missing cells count as 0.
 */
export function chartData(stats: AdminStatistics): ChartData {
  const spec = STATS_PAGES[stats.page];
  const labelKey = stats.columns[0] ?? '';
  const dated = columnKind(stats.page, labelKey, 0) === 'date';
  const rows = dated
    ? [...stats.items].sort((a, b) => String(a[labelKey]).localeCompare(String(b[labelKey])))
    : stats.items;
  return {
    labels: rows.map((row) => String(row[labelKey] ?? '')),
    series: spec.chart.series
      .filter((s) => stats.columns.includes(s.key))
      .map((s) => ({
        key: s.key,
        axis: s.axis,
        line: s.line ?? false,
        values: rows.map((row) => Number(row[s.key] ?? 0) || 0),
      })),
  };
}

/** True when the chart would show nothing but zeros. */
export function chartIsEmpty(data: ChartData): boolean {
  return data.labels.length === 0 || data.series.every((s) => s.values.every((v) => v === 0));
}
