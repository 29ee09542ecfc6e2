import type { AdminStatistics } from '@fanverse/contract';
import { describe, expect, it } from 'vitest';
import { statsFormatters } from './statsFormat.ts';
import { chartData, chartIsEmpty, columnKind, columnTotal, timeBuckets, totalKind } from './statsPages.ts';

const stats = (patch: Partial<AdminStatistics>): AdminStatistics => ({
  page: 'sales',
  period: 'month',
  columns: ['date', 'subscriptions', 'content', 'gifts', 'flowers', 'tips', 'dollars'],
  items: [],
  statistics: { page: 1, limit: 100, total: 0, hasMore: false, totals: {} },
  ...patch,
});

describe('statistics pages', () => {
  it('charts every day of the month from oldest to newest whatever the table order', () => {
    const data = chartData(
      stats({
        items: [
          { date: '2026-11-20', tips: 500, gifts: null },
          { date: '2026-11-18', tips: 100 },
        ],
      }),
      new Date('2026-11-21T12:00:00Z'),
    );
    expect(data.bucket).toBe('day');
    expect(data.labels[0]).toBe('2026-10-21');
    expect(data.labels.at(-1)).toBe('2026-11-21');
    expect(data.labels).toHaveLength(32);
    const tips = data.series.find((s) => s.key === 'tips')?.values ?? [];
    expect(tips[data.labels.indexOf('2026-11-18')]).toBe(100);
    expect(tips[data.labels.indexOf('2026-11-20')]).toBe(500);
    expect(tips.reduce((a, b) => a + b, 0)).toBe(600);
    expect(data.series.find((s) => s.key === 'gifts')?.values.every((v) => v === 0)).toBe(true);
    expect(chartIsEmpty(data)).toBe(false);
  });

  it('sums a year by month, and all time from the first day with figures', () => {
    const items = [
      { date: '2026-11-20', tips: 500 },
      { date: '2026-11-02', tips: 100 },
      { date: '2026-03-01', tips: 7 },
    ];
    const now = new Date('2026-11-21T12:00:00Z');
    const year = chartData(stats({ period: 'year', items }), now);
    expect(year.bucket).toBe('month');
    expect(year.labels[0]).toBe('2025-11');
    expect(year.labels).toHaveLength(13);
    const tips = year.series.find((s) => s.key === 'tips')?.values ?? [];
    expect(tips[year.labels.indexOf('2026-11')]).toBe(600);
    expect(tips[year.labels.indexOf('2026-03')]).toBe(7);
    const all = chartData(stats({ period: 'all', items }), now);
    expect(all.labels[0]).toBe('2026-03');
    expect(all.labels.at(-1)).toBe('2026-11');
    expect(timeBuckets('month', '2025-12-31', '2026-02-01')).toEqual(['2025-12', '2026-01', '2026-02']);
    expect(chartIsEmpty(chartData(stats({ period: 'all', items: [] }), now))).toBe(true);
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
    const home = stats({
      page: 'home',
      columns: ['date', 'sales'],
      statistics: { ...stats({}).statistics, totals: { cash: 700 } },
    });
    expect(columnTotal(home, 'sales')).toBe(700);
  });

  it('formats cents as dollars in the UI language and days without shifting them', () => {
    const en = statsFormatters('en');
    expect(en.money(123456)).toBe('$1,234.56');
    expect(en.day('2026-01-01')).toBe('Jan 1, 2026');
    expect(en.month('2026-01')).toBe('Jan 2026');
    expect(statsFormatters('es').money(123456)).toMatch(/1234,56|1\.234,56/);
  });
});
