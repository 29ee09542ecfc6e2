import type { AdminStatistics } from '@fanverse/contract';
import { describe, expect, it } from 'vitest';
import { statsFormatters } from './statsFormat.ts';
import { chartData, chartIsEmpty, columnKind, columnTotal, totalKind } from './statsPages.ts';

const stats = (patch: Partial<AdminStatistics>): AdminStatistics => ({
  page: 'sales',
  period: 'month',
  columns: ['date', 'subscriptions', 'content', 'gifts', 'flowers', 'tips', 'dollars'],
  items: [],
  statistics: { page: 1, limit: 100, total: 0, hasMore: false, totals: {} },
  ...patch,
});

describe('statistics pages', () => {
  it('charts dates from oldest to newest whatever the table order', () => {
    const data = chartData(
      stats({
        items: [
          { date: '2026-11-20', tips: 500, gifts: null },
          { date: '2026-11-18', tips: 100 },
        ],
      }),
    );
    expect(data.labels).toEqual(['2026-11-18', '2026-11-20']);
    expect(data.series.find((s) => s.key === 'tips')?.values).toEqual([100, 500]);
    expect(data.series.find((s) => s.key === 'gifts')?.values).toEqual([0, 0]);
    expect(chartIsEmpty(data)).toBe(false);
  });

  it('keeps the server order of ranked pages and knows an all-zero chart is empty', () => {
    const data = chartData(
      stats({
        page: 'creators',
        columns: ['creator', 'sales', 'earnings', 'subscribers', 'posts'],
        items: [
          { creator: 'b', sales: 0, earnings: 0 },
          { creator: 'a', sales: 0, earnings: 0 },
        ],
      }),
    );
    expect(data.labels).toEqual(['b', 'a']);
    expect(chartIsEmpty(data)).toBe(true);
  });

  it('reads columns and totals as money or counts by page', () => {
    expect(columnKind('sales', 'subscriptions', 1)).toBe('money');
    expect(columnKind('fans', 'subscriptions', 3)).toBe('count');
    expect(columnKind('bags', 'bag', 0)).toBe('name');
    expect(totalKind('activeSubscriptions')).toBe('count');
    expect(totalKind('revenue')).toBe('money');
    const home = stats({ page: 'home', columns: ['date', 'sales'], statistics: { ...stats({}).statistics, totals: { cash: 700 } } });
    expect(columnTotal(home, 'sales')).toBe(700);
  });

  it('formats cents as dollars in the UI language and days without shifting them', () => {
    const en = statsFormatters('en');
    expect(en.money(123456)).toBe('$1,234.56');
    expect(en.day('2026-01-01')).toBe('Jan 1, 2026');
    expect(statsFormatters('es').money(123456)).toMatch(/1234,56|1\.234,56/);
  });
});
