import type { EarningsResponse } from '@fanverse/contract';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session.store.ts';
import { useMoneyFormat } from './moneyFormat.ts';

Chart.register(BarController, BarElement, CategoryScale, Legend, LinearScale, Tooltip);

const CATEGORIES = ['subscriptions', 'tips', 'unlockContent', 'credits'] as const;
/** One colour per category, readable on white and on the dark surface. */
const COLOURS = ['#bd0909', '#1a5fd0', '#146c2e', '#b35900'];

/** A bucket label: a day ("Nov 22") or a month ("Nov 2026") in the UI language. */
function bucketLabel(date: string, unit: 'day' | 'month', language: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const at = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1));
  return new Intl.DateTimeFormat(
    language,
    unit === 'day'
      ? { day: 'numeric', month: 'short', timeZone: 'UTC' }
      : { month: 'short', year: 'numeric', timeZone: 'UTC' },
  ).format(at);
}

/** Earnings over time by category (stacked bars), for the period chosen above it. */
export default function EarningsChart({ series }: { series: EarningsResponse['series'] }) {
  const { t } = useTranslation('money');
  const language = useSession((s) => s.language);
  const format = useMoneyFormat();
  const canvas = useRef<HTMLCanvasElement>(null);
  const total = series.points.reduce((n, p) => n + CATEGORIES.reduce((m, c) => m + p[c], 0), 0);

  useEffect(() => {
    if (!canvas.current || series.points.length === 0) return;
    const config: ChartConfiguration<'bar'> = {
      type: 'bar',
      data: {
        labels: series.points.map((p) => bucketLabel(p.date, series.unit, language)),
        datasets: CATEGORIES.map((category, i) => ({
          label: t(`earnings.categories.${category}`),
          data: series.points.map((p) => p[category] / 100),
          backgroundColor: COLOURS[i],
          stack: 'earnings',
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: { duration: 250 },
        scales: {
          x: { stacked: true },
          y: { stacked: true, beginAtZero: true, ticks: { callback: (v) => format.cents(Number(v) * 100) } },
        },
        plugins: {
          tooltip: {
            callbacks: { label: (c) => `${c.dataset.label}: ${format.cents(Number(c.raw) * 100)}` },
          },
        },
      },
    };
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [series, language, t, format]);

  if (series.points.length === 0) {
    return (
      <p className="money-empty" data-testid="earnings-chart-empty">
        {t('earnings.chartEmpty')}
      </p>
    );
  }
  return (
    <div className="earnings-chart">
      <canvas
        ref={canvas}
        role="img"
        aria-label={t('earnings.chartLabel', { total: format.cents(total), count: series.points.length })}
        data-testid="earnings-chart"
      />
    </div>
  );
}
