import type { AdminStatistics } from '@fanverse/contract';
import { useTranslation } from 'react-i18next';

/** Previous / next over a ranked page (spec §3: page, limit, totalCreators, hasMore). */
export function StatsPager({
  stats,
  busy,
  onPage,
}: {
  stats: AdminStatistics;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation('statistics');
  const { page, limit, total, hasMore, totalCreators } = stats.statistics;
  const all = totalCreators ?? total;
  const pages = Math.max(1, Math.ceil(all / limit));
  return (
    <nav
      className="admin-pager"
      aria-label={t('pager.label')}
      data-testid="stats-pager"
      data-has-more={hasMore ? 'true' : 'false'}
    >
      <button
        type="button"
        className="button button--small"
        disabled={page <= 1 || busy}
        onClick={() => onPage(page - 1)}
        data-testid="stats-prev"
      >
        {t('pager.prev')}
      </button>
      <span aria-live="polite">
        {t(totalCreators === undefined ? 'pager.status' : 'pager.statusCreators', {
          page,
          pages,
          total: all,
        })}
      </span>
      <button
        type="button"
        className="button button--small"
        disabled={!hasMore || busy}
        onClick={() => onPage(page + 1)}
        data-testid="stats-next"
      >
        {t('pager.next')}
      </button>
    </nav>
  );
}
