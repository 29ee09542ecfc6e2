import type { AdminStatistics } from '@fanverse/contract';
import { useTranslation } from 'react-i18next';
import type { StatsFormatters } from './statsFormat.ts';
import { type ColumnKind, columnKind, columnTotal } from './statsPages.ts';

function cellText(value: string | number | null | undefined, kind: ColumnKind, format: StatsFormatters) {
  if (value === null || value === undefined || value === '') return '—';
  if (kind === 'date') return format.day(String(value));
  if (kind === 'name') return String(value);
  const n = Number(value);
  if (Number.isNaN(n)) return String(value);
  return kind === 'money' ? format.money(n) : format.count(n);
}

/** The figures of a statistics page, with a totals row where the page answers totals per column. */
export function StatsTable({ stats, format }: { stats: AdminStatistics; format: StatsFormatters }) {
  const { t } = useTranslation('statistics');
  const kinds = stats.columns.map((column, index) => columnKind(stats.page, column, index));
  const totals = stats.columns.map((column) => columnTotal(stats, column));
  const hasTotals = totals.slice(1).some((total) => total !== undefined);
  const name = (column: string) => t(`columns.${column}`, { defaultValue: column });
  return (
    <div className="stats-table-wrap">
      <table className="admin-table stats-table" data-testid="stats-table">
        <caption className="sr-only">{t('tableCaption', { page: t(`pages.${stats.page}`) })}</caption>
        <thead>
          <tr>
            {stats.columns.map((column, i) => (
              <th
                key={column}
                scope="col"
                className={kinds[i] === 'money' || kinds[i] === 'count' ? 'num' : ''}
              >
                {name(column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {stats.items.map((row) => (
            <tr key={String(row[stats.columns[0] ?? ''])} data-testid="stats-row">
              {stats.columns.map((column, i) =>
                i === 0 ? (
                  <th key={column} scope="row" data-label={name(column)}>
                    {cellText(row[column], kinds[i] ?? 'name', format)}
                  </th>
                ) : (
                  <td key={column} data-label={name(column)} className="num">
                    {cellText(row[column], kinds[i] ?? 'count', format)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
        {hasTotals && stats.items.length > 0 && (
          <tfoot>
            <tr data-testid="stats-total-row">
              <th scope="row">{t('total')}</th>
              {stats.columns.slice(1).map((column, i) => (
                <td key={column} data-label={name(column)} className="num">
                  {cellText(totals[i + 1], kinds[i + 1] ?? 'count', format)}
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
