import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  type ChartDataset,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';
import type { StatsFormatters } from './statsFormat.ts';
import type { ChartData, ChartSpec } from './statsPages.ts';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

/** Distinct colours that keep their contrast on white (one per series, in series order). */
const PALETTE = ['#bd0909', '#1a5fd0', '#146c2e', '#b35900', '#6b3fa0', '#00796b', '#5b5b66'];

type Kind = 'bar' | 'line';

/**
 * A Chart.js chart of one statistics page. The canvas is an image with a summary as its label;
 * the figures themselves are in the table beside it.
 */
export default function StatsChart({
  data,
  spec,
  names,
  summary,
  format,
}: {
  data: ChartData;
  spec: ChartSpec;
  /** The translated name of each series key. */
  names: Record<string, string>;
  summary: string;
  format: StatsFormatters;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (!canvas.current) return;
    const hasCount = data.series.some((s) => s.axis === 'count');
    const hasMoney = data.series.some((s) => s.axis === 'money');
    const valueAxis = spec.horizontal ? 'x' : 'y';
    const datasets: ChartDataset<Kind, number[]>[] = data.series.map((s, i) => {
      const color = PALETTE[i % PALETTE.length] ?? '#5b5b66';
      const axisId = s.axis === 'count' && hasMoney ? 'count' : valueAxis;
      const base = {
        label: names[s.key] ?? s.key,
        data: s.values,
        backgroundColor: color,
        borderColor: color,
        ...(spec.horizontal ? { xAxisID: axisId } : { yAxisID: axisId }),
      };
      return s.line
        ? { ...base, type: 'line' as const, borderWidth: 2, pointRadius: 2, tension: 0.2, order: 0 }
        : { ...base, type: 'bar' as const, borderWidth: 0, maxBarThickness: 28, order: 1 };
    });
    const moneyTicks = (value: string | number) => format.compactMoney(Number(value));
    const countTicks = (value: string | number) =>
      Number.isInteger(Number(value)) ? format.count(Number(value)) : '';
    const tickText = (label: string) =>
      data.bucket === 'day' ? format.shortDay(label) : data.bucket === 'month' ? format.month(label) : label;
    const labelTicks = (index: number) => tickText(data.labels[index] ?? '');
    const config: ChartConfiguration<Kind, number[], string> = {
      type: 'bar',
      data: { labels: data.labels, datasets },
      options: {
        indexAxis: spec.horizontal ? 'y' : 'x',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        plugins: {
          legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12 } },
          tooltip: {
            callbacks: {
              title: (items) => {
                const index = items[0]?.dataIndex ?? 0;
                const label = data.labels[index] ?? '';
                return data.bucket === 'day' ? format.day(label) : tickText(label);
              },
              label: (item) => {
                const series = data.series[item.datasetIndex];
                const value = series?.values[item.dataIndex] ?? 0;
                const text = series?.axis === 'count' ? format.count(value) : format.money(value);
                return `${item.dataset.label ?? ''}: ${text}`;
              },
            },
          },
        },
        scales: {
          [spec.horizontal ? 'y' : 'x']: {
            stacked: spec.stacked,
            ticks: { callback: (_value, index) => labelTicks(index), autoSkip: true, maxRotation: 0 },
            grid: { display: false },
          },
          [valueAxis]: {
            stacked: spec.stacked,
            beginAtZero: true,
            ticks: { callback: hasMoney ? moneyTicks : countTicks },
          },
          ...(hasCount && hasMoney
            ? {
                count: {
                  axis: spec.horizontal ? 'x' : 'y',
                  position: spec.horizontal ? 'top' : 'right',
                  beginAtZero: true,
                  grid: { display: false },
                  ticks: { callback: countTicks },
                },
              }
            : {}),
        },
      },
    };
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [data, spec, names, format]);

  return (
    <div
      className="stats-chart"
      data-testid="stats-chart"
      style={spec.horizontal ? { height: `${Math.max(220, 60 + data.labels.length * 34)}px` } : undefined}
    >
      <canvas ref={canvas} role="img" aria-label={summary}>
        {summary}
      </canvas>
    </div>
  );
}
