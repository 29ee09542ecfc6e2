import type { SubscriptionItem } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader, Panel } from '../../ui/Feedback.tsx';
import { Avatar } from '../feed/Author.tsx';
import { goToCheckout } from './checkout.ts';
import { useMoneyFormat } from './moneyFormat.ts';
import './money.css';

const KEY = ['subscriptions.mine'] as const;

function SubscriptionRow({ item }: { item: SubscriptionItem }) {
  const { t } = useTranslation('money');
  const format = useMoneyFormat();
  const client = useQueryClient();
  const params = { params: { creator: item.creator.user } };
  const done = () => {
    void client.invalidateQueries({ queryKey: KEY });
    void client.invalidateQueries({ queryKey: ['posts.list'] });
  };
  // One click, no questions: the row then says until when access lasts and offers to resume.
  const cancel = useMutation({
    mutationFn: () => api('subscriptions.cancel', undefined, params),
    onSuccess: done,
  });
  const renew = useMutation({
    mutationFn: () => api('subscriptions.renew', undefined, params),
    onSuccess: ({ redirectUrl }) => {
      if (redirectUrl)
        goToCheckout(redirectUrl, { kind: 'subscription', what: item.creator.user, balanceBefore: null });
      else done();
    },
  });
  const periodOpen = Date.parse(item.period.end) > Date.now();
  const facts: [string, string][] = [
    [t('subscriptions.date'), format.date(item.date)],
    [
      t('subscriptions.period'),
      t('subscriptions.periodValue', { days: item.period.days, end: format.date(item.period.end) }),
    ],
    [t('subscriptions.lastActivation'), format.date(item.lastActivation)],
    [t('subscriptions.lastRenewal'), format.date(item.lastRenewal)],
    [
      t('subscriptions.price'),
      item.priceCents === null ? '—' : t('subscriptions.perMonth', { price: format.cents(item.priceCents) }),
    ],
  ];
  return (
    <li
      className="subscription-row"
      data-testid="subscription-row"
      data-creator={item.creator.user}
      data-status={item.status}
    >
      <div className="subscription-row__who">
        <Avatar user={item.creator} />
        <Link to={`/${item.creator.user}`} className="subscription-row__name">
          {item.creator.name || item.creator.user} <span className="muted">@{item.creator.user}</span>
        </Link>
        <span className={`status-badge status-badge--${item.status}`} data-testid="subscription-status">
          {t(`subscriptions.status.${item.status}`)}
        </span>
      </div>
      <dl className="money-facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="subscription-next" data-testid="subscription-next-charge">
        {item.nextCharge
          ? t('subscriptions.nextCharge', {
              price: format.cents(item.nextCharge.amountCents),
              date: format.date(item.nextCharge.at),
            })
          : t('subscriptions.noNextCharge')}
      </p>
      {item.status === 'cancelled' && periodOpen && (
        <p className="money-note" data-testid="subscription-access-until">
          {t('subscriptions.accessUntil', { date: format.date(item.period.end) })}
        </p>
      )}
      <div className="button-row">
        {item.status === 'active' && (
          <button
            type="button"
            className="button button--small"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate()}
            data-testid="subscription-cancel"
          >
            {t('subscriptions.cancel')}
          </button>
        )}
        {item.status !== 'active' && (
          <button
            type="button"
            className="button button--small button--primary"
            disabled={renew.isPending}
            onClick={() => renew.mutate()}
            data-testid="subscription-renew"
          >
            {t('subscriptions.renew')}
          </button>
        )}
      </div>
      {(cancel.isError || renew.isError) && <Alert>{errorText(cancel.error ?? renew.error)}</Alert>}
    </li>
  );
}

/** /?feed=my-subscriptions: status, date, period, last activation, last renewal, price (spec §3). */
export function SubscriptionsView() {
  const { t } = useTranslation('money');
  const list = useQuery({ queryKey: KEY, queryFn: () => api('subscriptions.mine') });
  return (
    <Panel title={t('subscriptions.title')} testId="view-feed-my-subscriptions">
      {list.isPending && <Loader skeleton="rows" />}
      {list.isError && <Alert>{errorText(list.error)}</Alert>}
      {list.data && list.data.items.length === 0 && <p className="money-empty">{t('subscriptions.empty')}</p>}
      <ul className="subscriptions-list" data-testid="subscriptions-list">
        {list.data?.items.map((item) => (
          <SubscriptionRow key={item._id} item={item} />
        ))}
      </ul>
      <p className="money-note">{t('subscriptions.agent')}</p>
    </Panel>
  );
}
