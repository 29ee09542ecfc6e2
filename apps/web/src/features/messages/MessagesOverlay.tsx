import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { isCreator, useSession } from '../../app/session.store.ts';
import { useUi } from '../../app/ui.store.ts';
import { ChatView } from './ChatView.tsx';
import { ContactsList } from './ContactsList.tsx';
import { MassMessage } from './MassMessage.tsx';
import { MESSAGES_WALL } from './messagesQuery.ts';
import './messages.css';

/**
 * Content of the `messages` overlay: `wall` shows the contacts, `<handle>` the chat with that
 * person. Phones show one screen at a time; wider screens show contacts and chat side by side.
 */
export function MessagesOverlay({ value }: { value: string }) {
  const { t } = useTranslation('messages');
  const navigate = useNavigate();
  const location = useLocation();
  const mobile = useUi((s) => s.screen === 'mobile');
  const creator = useSession((s) => isCreator(s.user));
  const loggedIn = useSession((s) => !!s.token);
  const handle = value && value !== MESSAGES_WALL ? value : null;

  // Switching chats replaces the entry, so Back still closes the whole overlay.
  const show = useCallback(
    (next: string) => {
      const params = new URLSearchParams(location.search);
      params.set('messages', next);
      navigate(
        { pathname: location.pathname, search: `?${params}` },
        { replace: true, state: location.state },
      );
    },
    [navigate, location],
  );

  if (!loggedIn) return <p>{t('loginFirst')}</p>;
  const contacts = (
    <div className="messages__contacts">
      {creator && (
        <div className="messages__tools">
          <MassMessage />
        </div>
      )}
      <ContactsList active={handle} onOpen={show} />
    </div>
  );
  if (mobile) {
    return (
      <div className="messages messages--mobile">
        {handle ? <ChatView key={handle} handle={handle} onBack={() => show(MESSAGES_WALL)} /> : contacts}
      </div>
    );
  }
  return (
    <div className="messages messages--split">
      {contacts}
      {handle ? (
        <ChatView key={handle} handle={handle} />
      ) : (
        <p className="messages__pick">{t('pickContact')}</p>
      )}
    </div>
  );
}
