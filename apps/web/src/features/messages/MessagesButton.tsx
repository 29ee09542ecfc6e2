import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../app/navigation.ts';
import { useSession } from '../../app/session.store.ts';
import { CountButton } from '../../shell/CountButton.tsx';
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
    <CountButton
      icon="message"
      count={unread}
      label={label}
      ariaLabel={t('open', { count: unread })}
      onClick={() => open('messages', MESSAGES_WALL)}
      testId="messages-button"
      badgeTestId="messages-badge"
    />
  );
}
