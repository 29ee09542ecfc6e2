import { useQuery } from '@tanstack/react-query';
import type { RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';
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

/**
 * Where the card shows (UserLink): a popover under the link on desktop (the pointer may move onto
 * it; Escape closes it and returns focus to the link), a bottom sheet on phones.
 */
export default function UserCardFrame({
  phone,
  handle,
  anchor,
  cardId,
  link,
  onClose,
  onStay,
  onLeave,
}: {
  phone: boolean;
  handle: string;
  anchor: DOMRect | null;
  cardId: string;
  link: RefObject<HTMLAnchorElement | null>;
  onClose: () => void;
  onStay: () => void;
  onLeave: () => void;
}) {
  const { t } = useTranslation('content');
  if (phone) {
    return (
      <Modal open onClose={onClose} title={t('userCard.title')} variant="sheet" testId="user-card-sheet">
        <div className="user-card" data-testid="user-card">
          <UserPreviewCard handle={handle} onAction={onClose} />
        </div>
      </Modal>
    );
  }
  if (!anchor) return null;
  return createPortal(
    <div
      id={cardId}
      role="tooltip"
      className="user-card user-card--popover"
      style={popoverPosition(anchor)}
      data-testid="user-card"
      onMouseEnter={onStay}
      onMouseLeave={onLeave}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null) && e.relatedTarget !== link.current)
          onLeave();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          onClose();
          link.current?.focus();
        }
      }}
    >
      <UserPreviewCard handle={handle} onAction={onClose} />
    </div>,
    document.body,
  );
}

const CARD_WIDTH = 340;
/** Below the link (above it near the bottom of the window), kept inside the window. */
function popoverPosition(r: DOMRect): React.CSSProperties {
  const left = Math.max(8, Math.min(r.left, window.innerWidth - CARD_WIDTH - 8));
  const below = r.bottom + 260 < window.innerHeight;
  return below
    ? { position: 'fixed', left, top: r.bottom + 6, width: CARD_WIDTH }
    : { position: 'fixed', left, bottom: window.innerHeight - r.top + 6, width: CARD_WIDTH };
}
