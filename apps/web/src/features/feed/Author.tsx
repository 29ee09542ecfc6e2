import type { PublicUser } from '@fanverse/contract';
import { useTranslation } from 'react-i18next';
import { useInstantFormat } from '../../app/dates.ts';
import { useNow } from '../../app/firstRender.tsx';
import { LiveBadge } from '../live/LiveBadge.tsx';
import { ContentIcon } from './ContentIcon.tsx';
import { relativeTime } from './format.ts';
import { UserLink } from './UserLink.tsx';

/** "5 minutes ago" by the relative time of spec §9. */
export function TimeAgo({ iso, prefix }: { iso: string; prefix?: 'posted' | 'seen' }) {
  const { t } = useTranslation('content');
  const { unit, count } = relativeTime(iso, useNow());
  const text = t(`time.${unit}`, { count });
  const exact = useInstantFormat(true);
  return (
    <time dateTime={iso} title={exact(iso)}>
      {prefix === 'seen' ? t('time.lastSeen', { when: text }) : text}
    </time>
  );
}

export function Avatar({
  user,
  size = 'medium',
  showOnline = false,
  showLive = false,
}: {
  user: { user: string; name: string; avatar: string | null; online?: boolean };
  size?: 'small' | 'medium' | 'large' | 'xl';
  showOnline?: boolean;
  /** "LIVE" on the avatar while this creator is live (features/live/LiveBadge). */
  showLive?: boolean;
}) {
  const { t } = useTranslation('content');
  const initial = (user.name || user.user).charAt(0).toUpperCase();
  return (
    <span className={`avatar-wrap avatar-wrap--${size}`}>
      {user.avatar ? (
        <img src={user.avatar} alt="" className={`avatar avatar--${size}`} />
      ) : (
        <span className={`avatar avatar--${size} avatar--initial avatar--brand`} aria-hidden="true">
          {initial}
        </span>
      )}
      {showOnline && user.online && (
        <span className="online-dot" role="img" aria-label={t('author.online')} title={t('author.online')} />
      )}
      {showLive && <LiveBadge handle={user.user} />}
    </span>
  );
}

/** Author line of a post or comment: avatar with online dot, name, handle, presence. */
export function Author({ user, date }: { user: PublicUser; date?: string }) {
  const { t } = useTranslation('content');
  return (
    <div className="author">
      <UserLink handle={user.user} className="author__avatar" decorative>
        <Avatar user={user} showOnline showLive />
      </UserLink>
      <div className="author__text">
        <UserLink handle={user.user} className="author__name" testId="author-name">
          {user.name || user.user}
          {user.verified && (
            <span className="verified" role="img" aria-label={t('author.verified')}>
              <ContentIcon name="check" size={12} />
            </span>
          )}
        </UserLink>
        <span className="author__meta">
          @{user.user}
          {date ? (
            <>
              {' · '}
              <TimeAgo iso={date} />
            </>
          ) : user.online ? (
            ` · ${t('author.online')}`
          ) : user.lastConnection ? (
            <>
              {' · '}
              <TimeAgo iso={user.lastConnection} prefix="seen" />
            </>
          ) : null}
        </span>
      </div>
    </div>
  );
}

/** A person named in a list (history rows, tables): small avatar, name and @handle, linking to their page. */
export function PersonLink({ user }: { user: Pick<PublicUser, 'user' | 'name' | 'avatar'> }) {
  return (
    <UserLink handle={user.user} className="person-link" testId="person-link">
      <Avatar user={user} size="small" />
      <span className="person-link__name">{user.name || user.user}</span>
      <span className="person-link__handle">@{user.user}</span>
    </UserLink>
  );
}
