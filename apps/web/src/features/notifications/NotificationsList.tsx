import { PAGE_LIMITS, TIMINGS } from '@fanverse/contract';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { onSocketEvent } from '../../app/socket.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { TimeAgo } from '../feed/Author.tsx';
import { useNearBottom } from '../feed/usePostsFeed.ts';
import './notifications.css';

export const NOTIFICATIONS_KEY = ['notifications.list'] as const;

/**
 * Own notifications, 10 a page with infinite scroll (spec §9). Once seen, everything up to the
 * newest shown is marked read after TIMINGS.markReadDelayMs (spec §7 notifications/read).
 */
export function NotificationsList({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation('notifications');
  const client = useQueryClient();
  const setCounters = useSession((s) => s.setCounters);
  const query = useInfiniteQuery({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: ({ pageParam }) =>
      api('notifications.list', { page: pageParam, limit: PAGE_LIMITS.notifications }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.statistics.hasMore ? last.statistics.page + 1 : undefined),
  });

  const notifications = query.data?.pages.flatMap((page) => page.notifications) ?? [];
  const newest = notifications[0];
  const newestUnread = notifications.some((n) => !n.read);

  useEffect(() => {
    if (!newest || !newestUnread) return;
    const timestamp = Date.parse(newest.date);
    const timer = setTimeout(() => {
      api('notifications.read', { timestamp })
        .then(({ unread }) => setCounters({ notificationsUnread: unread }))
        .catch(() => {});
    }, TIMINGS.markReadDelayMs);
    return () => clearTimeout(timer);
  }, [newest, newestUnread, setCounters]);

  useEffect(
    () => onSocketEvent('notification', () => void client.invalidateQueries({ queryKey: NOTIFICATIONS_KEY })),
    [client],
  );

  const sentinel = useNearBottom(() => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  }, !!query.hasNextPage);

  return (
    <div className="notifications">
      {query.isError && <Alert>{errorText(query.error)}</Alert>}
      <ul className="notifications__list" data-testid="notifications-list">
        {notifications.map((notification) => {
          const image = notification.payload.product?.media[0]?.src ?? null;
          const link = notification.payload.link.startsWith('/') ? notification.payload.link : null;
          const body = (
            <>
              {image ? (
                <img src={image} alt="" className="notification__image" loading="lazy" />
              ) : (
                <span className="notification__image notification__image--none" aria-hidden="true" />
              )}
              <span className="notification__text">
                <span className="notification__message">{notification.message}</span>
                <span className="notification__date">
                  <TimeAgo iso={notification.date} />
                  {!notification.read && <span className="notification__new">{t('unread')}</span>}
                </span>
              </span>
            </>
          );
          return (
            <li
              key={notification._id}
              className={`notification ${notification.read ? '' : 'notification--unread'}`}
              data-testid="notification-item"
              data-kind={notification.kind}
              data-read={String(notification.read)}
            >
              {link ? (
                <Link to={link} className="notification__link" onClick={onNavigate}>
                  {body}
                </Link>
              ) : (
                <div className="notification__link">{body}</div>
              )}
            </li>
          );
        })}
      </ul>
      {query.isPending && <Loader skeleton="rows" />}
      {query.isSuccess && notifications.length === 0 && <p className="notifications__empty">{t('empty')}</p>}
      <div ref={sentinel} aria-hidden="true" />
      {query.isFetchingNextPage && <Loader />}
    </div>
  );
}
