import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { onSocketEvent } from '../../app/socket.ts';
import './live-badge.css';

const KEY = ['lives.now'];

/**
 * The lives in progress the caller may know about (its own, followed and subscribed creators';
 * staff: all), by creator handle (lower case) → live id. One query shared by every badge on the
 * page; asked again every minute and as soon as a "went live" notification arrives.
 */
export function useLivesNow(): Map<string, string> {
  const loggedIn = useSession((s) => !!s.token);
  const client = useQueryClient();
  const { data } = useQuery({
    queryKey: KEY,
    queryFn: () => api('lives.now'),
    enabled: loggedIn,
    staleTime: 30_000,
    refetchInterval: 60_000,
    select: (d) => new Map(d.lives.map((l) => [l.creator.user.toLowerCase(), l._id])),
  });
  useEffect(
    () =>
      onSocketEvent('notification', ({ notification }) => {
        // Every badge on the page listens; the first one refetches, the others join that request.
        if (notification.kind === 'live')
          void client.invalidateQueries({ queryKey: KEY }, { cancelRefetch: false });
      }),
    [client],
  );
  return data ?? new Map();
}

/** "LIVE" on a creator's avatar (stories, feeds) while the creator is live. */
export function LiveBadge({ handle }: { handle: string }) {
  const { t } = useTranslation('content');
  const live = useLivesNow().get(handle.toLowerCase());
  if (!live) return null;
  return (
    <span className="live-badge" data-testid="live-badge" data-live={live}>
      {t('author.live')}
    </span>
  );
}
