import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { MessageUserButton } from '../messages/MessageUserButton.tsx';
import { useMoneyFormat } from '../money/moneyFormat.ts';
import { Avatar } from './Author.tsx';
import { ContentIcon } from './ContentIcon.tsx';
import './user-card.css';

/** Location state asking a creator page to open its buy-subscription overlay at once. */
export interface SubscribeIntent {
  subscribe?: boolean;
}

/**
 * The user preview card's content (spec §2): avatar, name, handle, a creator's public counts,
 * and Subscribe / Message leading to the creator page's subscription overlay and the chat.
 */
export function UserPreviewCard({ handle, onAction }: { handle: string; onAction: () => void }) {
  const { t } = useTranslation('content');
  const navigate = useNavigate();
  const format = useMoneyFormat();
  const preview = useQuery({
    queryKey: ['user.preview', handle.toLowerCase()],
    queryFn: () => api('user.preview', undefined, { params: { handle } }),
    staleTime: 60_000,
    retry: false,
  });
  if (preview.isPending) return <Loader />;
  if (preview.isError) return <Alert>{errorText(preview.error)}</Alert>;
  const u = preview.data;
  const canSubscribe = u.isCreator && !u.isMe && u.subscriptionFinalPrice !== null;
  return (
    <div className="user-card__body" data-testid="user-card-body">
      <div className="user-card__who">
        <Avatar user={u} size="large" showOnline />
        <div>
          <p className="user-card__name">
            {u.name || u.user}
            {u.verified && (
              <span className="verified" role="img" aria-label={t('author.verified')}>
                <ContentIcon name="check" size={12} />
              </span>
            )}
          </p>
          <p className="user-card__handle">@{u.user}</p>
        </div>
      </div>
      {u.counts && (
        <ul className="user-card__counts" data-testid="user-card-counts">
          {(['posts', 'subscribers'] as const).map((key) => (
            <li key={key}>
              <strong>{format.number(u.counts?.[key] ?? 0)}</strong>{' '}
              {t(`creator.counts.${key}`, { count: u.counts?.[key] ?? 0 })}
            </li>
          ))}
        </ul>
      )}
      <div className="button-row user-card__actions">
        {canSubscribe &&
          (u.subscribed ? (
            <span className="user-card__subscribed">{t('creator.subscribed')}</span>
          ) : (
            <button
              type="button"
              className="button button--primary"
              data-testid="user-card-subscribe"
              onClick={() => {
                onAction();
                navigate(`/${u.user}`, { state: { subscribe: true } satisfies SubscribeIntent });
              }}
            >
              {t('creator.subscribe')} {format.cents(u.subscriptionFinalPrice ?? 0)}
            </button>
          ))}
        {!u.isMe && <MessageUserButton handle={u.user} testId="user-card-message" />}
        <Link to={`/${u.user}`} className="button" onClick={onAction} data-testid="user-card-profile">
          {t('userCard.viewProfile')}
        </Link>
      </div>
    </div>
  );
}
