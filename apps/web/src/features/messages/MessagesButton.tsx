import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../app/navigation.ts';
import { useSession } from '../../app/session.store.ts';
import { Icon } from '../../shell/icons.tsx';
import { MESSAGES_WALL } from './messagesQuery.ts';

/**
 * Header button (bottom bar on phones, with its label): opens the messages overlay on the wall;
 * the badge counts unread messages.
 */
export function MessagesButton({ label }: { label?: string }) {
  const { t } = useTranslation('messages');
  const { open } = useOverlay();
  const unread = useSession((s) => s.counters?.messagesUnread ?? s.profile?.counters.messagesUnread ?? 0);
  return (
    <button
      type="button"
      className={label ? 'bottom-nav__item' : 'icon-button'}
      onClick={() => open('messages', MESSAGES_WALL)}
      aria-label={t('open', { count: unread })}
      data-testid="messages-button"
    >
      <span className="bottom-nav__icon">
        <Icon name="message" />
        {unread > 0 && (
          <span className="badge badge--corner" aria-hidden="true" data-testid="messages-badge">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </span>
      {label && (
        <span className="bottom-nav__label" aria-hidden="true">
          {label}
        </span>
      )}
    </button>
  );
}
