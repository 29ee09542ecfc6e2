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

/** The chart's x axis: days, months, or the names of a ranked page. */
export type ChartBucket = 'day' | 'month' | 'name';

export interface ChartData {
  bucket: ChartBucket;
  labels: string[];
  series: { key: string; axis: 'money' | 'count'; line: boolean; values: number[] }[];
}

const MONTHS_BACK: Record<StatisticsPeriod, number | null> = {
  month: 1,
  '3months': 3,
  '6months': 6,
  year: 12,
  all: null,
};

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Every day (YYYY-MM-DD) or month (YYYY-MM) from `first` to `last`, both included. */
export function timeBuckets(bucket: 'day' | 'month', first: string, last: string): string[] {
  const out: string[] = [];
  const at = new Date(`${first.slice(0, 7)}${bucket === 'day' ? first.slice(7, 10) : '-01'}T00:00:00Z`);
  const end = bucket === 'day' ? last.slice(0, 10) : last.slice(0, 7);
  // Bounded: a wrong date must not loop for ever.
  for (let i = 0; i < 5000; i++) {
    const key = bucket === 'day' ? isoDay(at) : isoDay(at).slice(0, 7);
    if (key > end) break;
    out.push(key);
    if (bucket === 'day') at.setUTCDate(at.getUTCDate() + 1);
    else at.setUTCMonth(at.getUTCMonth() + 1);
  }
  return out;
}

/**
 * The chart's points from the answer's rows. Dates run oldest to newest whatever order the table is
 * sorted in, over the whole period with empty days (or months, beyond 3 months) as 0, so the chart
 * reads as time; ranked pages keep the server's order. Missing cells count as 0.
 */
export function chartData(stats: AdminStatistics, now: Date = new Date()): ChartData {
  const spec = STATS_PAGES[stats.page];
  const labelKey = stats.columns[0] ?? '';
  const keys = spec.chart.series.filter((s) => stats.columns.includes(s.key));
  const value = (row: AdminStatistics['items'][number], key: string) => Number(row[key] ?? 0) || 0;
  if (columnKind(stats.page, labelKey, 0) !== 'date') {
    return {
      bucket: 'name',
      labels: stats.items.map((row) => String(row[labelKey] ?? '')),
      series: keys.map((s) => ({
        key: s.key,
        axis: s.axis,
        line: s.line ?? false,
        values: stats.items.map((row) => value(row, s.key)),
      })),
    };
  }
  const bucket = stats.period === 'month' || stats.period === '3months' ? 'day' : 'month';
  const days = stats.items
    .map((row) => String(row[labelKey] ?? ''))
    .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d));
  const sorted = [...days].sort();
  const back = MONTHS_BACK[stats.period];
  const start = new Date(now);
  if (back !== null) start.setUTCMonth(start.getUTCMonth() - back);
  const first = back !== null ? isoDay(start) : sorted[0];
  const lastData = sorted[sorted.length - 1] ?? '';
  const last = lastData > isoDay(now) ? lastData : isoDay(now);
  // Rows older than the period start (the server's clock and zone may differ a little) still show.
  const from = [first, sorted[0]].filter((d): d is string => !!d).sort()[0];
  const labels = from ? timeBuckets(bucket, from, last) : [];
  const index = new Map(labels.map((label, i) => [label, i]));
  const series = keys.map((s) => ({
    key: s.key,
    axis: s.axis,
    line: s.line ?? false,
    values: labels.map(() => 0),
  }));
  for (const row of stats.items) {
    const day = String(row[labelKey] ?? '');
    const i = index.get(bucket === 'day' ? day : day.slice(0, 7));
    if (i === undefined) continue;
    for (const s of series) s.values[i] = (s.values[i] ?? 0) + value(row, s.key);
  }
  return { bucket, labels, series };
}

/** True when the chart would show nothing but zeros. */
export function chartIsEmpty(data: ChartData): boolean {
  return data.labels.length === 0 || data.series.every((s) => s.values.every((v) => v === 0));
}
