import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader, Panel } from '../../ui/Feedback.tsx';
import { PersonLink } from '../feed/Author.tsx';
import { CreditsCard } from './CreditsView.tsx';
import { useMoneyFormat } from './moneyFormat.ts';
import './money.css';

function MoreButton({ onMore, busy }: { onMore: () => void; busy: boolean }) {
  const { t } = useTranslation('money');
  return (
    <button type="button" className="button button--small" onClick={onMore} disabled={busy}>
      {t('list.more')}
    </button>
  );
}

/** /?feed=my-credits-history: purchases, free credits and every spend, newest first. */
export function CreditsHistoryView() {
  const { t, i18n } = useTranslation('money');
  const format = useMoneyFormat();
  const history = useInfiniteQuery({
    queryKey: ['wallet.history'],
    queryFn: ({ pageParam }) => api('wallet.history', { page: pageParam, limit: 24 }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.statistics.hasMore ? last.statistics.page + 1 : undefined),
  });
  const items = history.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Panel title={t('history.title')} testId="view-feed-my-credits-history">
      <CreditsCard />
      {history.isPending && <Loader skeleton="rows" />}
      {history.isError && <Alert>{errorText(history.error)}</Alert>}
      {history.data && items.length === 0 && <p className="money-empty">{t('history.empty')}</p>}
      <ul className="money-list" data-testid="credits-history">
        {items.map((item) => (
          <li key={item._id} className="money-list__row" data-kind={item.kind}>
            <span className="money-list__main">
              <strong>{i18n.exists(`money:kinds.${item.kind}`) ? t(`kinds.${item.kind}`) : item.kind}</strong>
              {item.creator && (
                <>
                  {' · '}
                  <PersonLink user={item.creator} />
                </>
              )}
              <span className="money-list__date">{format.date(item.date)}</span>
            </span>
            <span className={`money-amount${item.credits < 0 ? ' money-amount--out' : ' money-amount--in'}`}>
              {item.credits > 0 ? '+' : ''}
              {t('credits.count', { count: item.credits, formatted: format.number(item.credits) })}
            </span>
          </li>
        ))}
      </ul>
      {history.hasNextPage && (
        <MoreButton onMore={() => void history.fetchNextPage()} busy={history.isFetchingNextPage} />
      )}
    </Panel>
  );
}

/** /?feed=my-transactions: purchase ID, transaction ID, amount, type, date, date review (spec §3). */
export function TransactionsView() {
  const { t, i18n } = useTranslation('money');
  const format = useMoneyFormat();
  const list = useInfiniteQuery({
    queryKey: ['user.transactions'],
    queryFn: ({ pageParam }) => api('user.transactions', { page: pageParam, limit: 24 }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.statistics.hasMore ? last.statistics.page + 1 : undefined),
  });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Panel title={t('transactions.title')} testId="view-feed-my-transactions">
      {list.isPending && <Loader skeleton="rows" />}
      {list.isError && <Alert>{errorText(list.error)}</Alert>}
      {list.data && items.length === 0 && <p className="money-empty">{t('transactions.empty')}</p>}
      <div className="money-table-wrap">
        <table className="money-table" data-testid="transactions-table">
          <caption className="sr-only">{t('transactions.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('transactions.purchaseId')}</th>
              <th scope="col">{t('transactions.transactionId')}</th>
              <th scope="col">{t('transactions.amount')}</th>
              <th scope="col">{t('transactions.type')}</th>
              <th scope="col">{t('transactions.date')}</th>
              <th scope="col">{t('transactions.dateReview')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={`${item.type}-${item.transactionId}-${item.purchaseId}-${item.date}-${item.credits}`}>
                <td data-label={t('transactions.purchaseId')} className="money-id">
                  {item.purchaseId ?? '—'}
                </td>
                <td data-label={t('transactions.transactionId')} className="money-id">
                  {item.transactionId ?? '—'}
                </td>
                <td data-label={t('transactions.amount')}>
                  {item.amount !== 0
                    ? format.cents(item.amount)
                    : t('credits.count', { count: item.credits, formatted: format.number(item.credits) })}
                </td>
                <td data-label={t('transactions.type')}>
                  {i18n.exists(`money:kinds.${item.type}`) ? t(`kinds.${item.type}`) : item.type}
                  {item.creator && (
                    <>
                      {' · '}
                      <PersonLink user={item.creator} />
                    </>
                  )}
                </td>
                <td data-label={t('transactions.date')}>{format.date(item.date)}</td>
                <td data-label={t('transactions.dateReview')}>{format.date(item.dateReview)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.hasNextPage && (
        <MoreButton onMore={() => void list.fetchNextPage()} busy={list.isFetchingNextPage} />
      )}
    </Panel>
  );
}
