import type { AdminStatistics } from '@fanverse/contract';
import { useTranslation } from 'react-i18next';
import type { StatsFormatters } from './statsFormat.ts';
import { totalKind } from './statsPages.ts';

/** The period's totals as cards; ranked pages show how many creators or fans there are. */
export function StatsTotals({ stats, format }: { stats: AdminStatistics; format: StatsFormatters }) {
  const { t } = useTranslation('statistics');
  const entries = Object.entries(stats.statistics.totals);
  const { totalCreators } = stats.statistics;
  return (
    <dl className="stats-totals" data-testid="stats-totals">
      {totalCreators !== undefined && (
        <div className="stats-total" data-testid="stats-total-totalCreators">
          <dt>{t('totals.totalCreators')}</dt>
          <dd>{format.count(totalCreators)}</dd>
        </div>
      )}
      {stats.page === 'fans' && (
        <div className="stats-total" data-testid="stats-total-totalFans">
          <dt>{t('totals.totalFans')}</dt>
          <dd>{format.count(stats.statistics.total)}</dd>
        </div>
      )}
      {entries.map(([key, value]) => (
        <div key={key} className="stats-total" data-testid={`stats-total-${key}`}>
          <dt>{t(`totals.${key}`, { defaultValue: key })}</dt>
          <dd>{totalKind(key) === 'money' ? format.money(value) : format.count(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
