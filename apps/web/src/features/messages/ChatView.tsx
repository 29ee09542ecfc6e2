import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { isCreator, useSession } from '../../app/session.store.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Avatar, TimeAgo } from '../feed/Author.tsx';
import { TipButton } from '../money/TipGift.tsx';
import { ChatMessage } from './ChatMessage.tsx';
import { Composer } from './Composer.tsx';
import { useChat } from './useChat.ts';

/** Distance from the top (px) at which older messages are loaded. */
const OLDER_THRESHOLD_PX = 200;

/** The chat with one person (spec §2 messages=<handle>): header, messages, composer. */
export function ChatView({ handle, onBack }: { handle: string; onBack?: () => void }) {
  const { t } = useTranslation('messages');
  const creator = useSession((s) => isCreator(s.user));
  const chat = useChat(handle);
  const listRef = useRef<HTMLOListElement>(null);
  /** Distance from the bottom kept while an older page is prepended. */
  const keepFromBottom = useRef<number | null>(null);
  const stickToBottom = useRef(true);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || chat.entries.length === 0) return;
    if (keepFromBottom.current !== null) {
      list.scrollTop = list.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (stickToBottom.current || chat.entries[chat.entries.length - 1]?.message.isMe) {
      list.scrollTop = list.scrollHeight;
    }
  }, [chat.entries]);

  // Images grow the list when they load: stay at the newest message if the reader was there.
  const keepAtBottom = () => {
    const list = listRef.current;
    if (list && stickToBottom.current && keepFromBottom.current === null) list.scrollTop = list.scrollHeight;
  };

  const onScroll = () => {
    const list = listRef.current;
    if (!list) return;
    stickToBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
    if (list.scrollTop < OLDER_THRESHOLD_PX && chat.hasMore && !chat.loadingOlder) {
      keepFromBottom.current = list.scrollHeight - list.scrollTop;
      void chat.loadOlder().then((added) => {
        if (!added) keepFromBottom.current = null;
      });
    }
  };

  return (
    <section
      className="chat"
      data-testid="chat"
      data-contact={handle}
      aria-label={t('chat.label', { name: handle })}
    >
      <ChatHeader handle={handle} contact={chat.contact} onBack={onBack} />
      {chat.status === 'loading' && <Loader />}
      {chat.status === 'error' && <Alert>{chat.loadError}</Alert>}
      <ol
        className="chat__messages"
        ref={listRef}
        onScroll={onScroll}
        onLoadCapture={keepAtBottom}
        aria-live="polite"
        aria-relevant="additions"
      >
        {chat.loadingOlder && (
          <li className="chat__older">
            <Loader label={t('chat.loadingOlder')} />
          </li>
        )}
        {chat.status === 'ready' && chat.entries.length === 0 && (
          <li className="chat__empty">{t('chat.empty')}</li>
        )}
        {chat.entries.map((entry) => (
          <ChatMessage
            key={entry.message.messageUUID}
            entry={entry}
            onRetry={chat.retry}
            onUnlocked={chat.refresh}
          />
        ))}
      </ol>
      <Composer onSend={chat.send} allowPrice={creator} disabled={chat.status !== 'ready'} />
    </section>
  );
}

function ChatHeader({
  handle,
  contact,
  onBack,
}: {
  handle: string;
  contact: ReturnType<typeof useChat>['contact'];
  onBack?: () => void;
}) {
  const viewerIsCreator = useSession((s) => isCreator(s.user));
  const { t } = useTranslation('messages');
  const [blocked, setBlocked] = useState<boolean | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    let alive = true;
    api('user.blocks')
      .then(({ users }) => {
        if (alive) setBlocked(users.some((u) => u.user.toLowerCase() === handle.toLowerCase()));
      })
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [handle]);

  const toggleBlock = () => {
    setBusy(true);
    api('user.block', { user: handle })
      .then((answer) => {
        setBlocked(answer.blocked);
        setConfirming(false);
        setError('');
      })
      .catch((e: unknown) => setError(errorText(e)))
      .finally(() => setBusy(false));
  };

  const user = contact ?? { user: handle, name: handle, avatar: null, online: false, lastConnection: null };
  return (
    <header className="chat__header" data-testid="chat-header">
      {onBack && (
        <button type="button" className="icon-button chat__back" onClick={onBack} aria-label={t('chat.back')}>
          <span aria-hidden="true">‹</span>
        </button>
      )}
      <Link to={`/${handle}`} className="chat__who">
        <Avatar user={user} showOnline />
        <span className="chat__names">
          <strong className="chat__name">{user.name || user.user}</strong>
          <span className="chat__presence">
            {`@${user.user}`}
            {user.online ? (
              <> · {t('chat.online')}</>
            ) : user.lastConnection ? (
              <>
                {' · '}
                <TimeAgo iso={user.lastConnection} prefix="seen" />
              </>
            ) : null}
          </span>
        </span>
      </Link>
      {!viewerIsCreator && <TipButton creator={handle} className="button button--small" />}
      <button
        type="button"
        className="button button--small"
        onClick={() => setConfirming(true)}
        disabled={blocked === null}
        aria-pressed={blocked ?? false}
        data-testid="chat-block"
      >
        {blocked ? t('block.unblock') : t('block.block')}
      </button>
      {error && <Alert>{error}</Alert>}
      <ConfirmModal
        open={confirming}
        title={blocked ? t('block.unblockTitle', { name: handle }) : t('block.blockTitle', { name: handle })}
        onConfirm={toggleBlock}
        onCancel={() => setConfirming(false)}
        busy={busy}
        danger={!blocked}
        testId="chat-block-dialog"
      >
        <p>{blocked ? t('block.unblockText') : t('block.blockText')}</p>
      </ConfirmModal>
    </header>
  );
}
