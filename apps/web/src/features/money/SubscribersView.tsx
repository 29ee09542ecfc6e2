import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { isCreator, useSession } from '../../app/session.store.ts';
import { Alert, Loader, Panel } from '../../ui/Feedback.tsx';
import { Avatar } from '../feed/Author.tsx';
import { useMoneyFormat } from './moneyFormat.ts';
import './money.css';

const LIMIT = 10;

/** /?feed=my-subscribers: the creator's subscribers, 10 a page (spec §9). */
export function SubscribersView() {
  const { t } = useTranslation('money');
  const user = useSession((s) => s.user);
  const format = useMoneyFormat();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['creator.subscribers', page],
    queryFn: () => api('creator.subscribers', { page, limit: LIMIT }),
    placeholderData: keepPreviousData,
    enabled: isCreator(user),
  });
  if (!isCreator(user)) {
    return (
      <Panel title={t('subscribers.title')} testId="view-feed-my-subscribers">
        <p className="money-empty">{t('creatorOnly')}</p>
      </Panel>
    );
  }
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.limit)) : 1;
  return (
    <Panel title={t('subscribers.title')} testId="view-feed-my-subscribers">
      {list.data && <p className="money-note">{t('subscribers.total', { count: list.data.total })}</p>}
      {list.isPending && <Loader />}
      {list.isError && <Alert>{errorText(list.error)}</Alert>}
      {list.data && list.data.items.length === 0 && <p className="money-empty">{t('subscribers.empty')}</p>}
      <ul className="money-list" data-testid="subscribers-list">
        {list.data?.items.map((item) => (
          <li
            key={`${item.user._id}-${item.date}`}
            className="money-list__row"
            data-testid="subscriber-item"
            data-user={item.user.user}
          >
            <span className="money-list__main money-list__main--row">
              <Avatar user={item.user} />
              <span>
                <Link to={`/${item.user.user}`}>{item.user.name || item.user.user}</Link>{' '}
                <span className="muted">@{item.user.user}</span>
                <span className="money-list__date">
                  {t('subscribers.since', { date: format.date(item.date) })} ·{' '}
                  {t('subscribers.until', { date: format.date(item.periodEnd) })}
                </span>
              </span>
            </span>
            <span className={`status-badge status-badge--${item.status}`}>
              {t(`subscriptions.status.${item.status}`)}
            </span>
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <nav className="button-row money-pager" aria-label={t('list.pages')}>
          <button
            type="button"
            className="button button--small"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
            data-testid="pager-prev"
          >
            {t('list.prev')}
          </button>
          <span aria-live="polite">{t('list.page', { page, pages })}</span>
          <button
            type="button"
            className="button button--small"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
            data-testid="pager-next"
          >
            {t('list.next')}
          </button>
        </nav>
      )}
    </Panel>
  );
}
