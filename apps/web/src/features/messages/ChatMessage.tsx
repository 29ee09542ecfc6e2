import type { Message } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, api, errorText } from '../../app/api.ts';
import { TimeAgo } from '../feed/Author.tsx';
import { WALLET_KEY } from '../money/useWallet.ts';
import { VideoPlayer } from '../video/VideoPlayer.tsx';
import type { ChatEntry } from './messageList.ts';

/** One media item of a message: placeholder while processing, blurred while locked. */
function MessageMedia({ message, index }: { message: Message; index: number }) {
  const { t } = useTranslation('messages');
  const file = message.files[index];
  const dummy = message.filesDummy[index] ?? null;
  const poster = message.filesPosters[index] ?? null;
  if (message.processing || !file) {
    return (
      <div className="chat-media chat-media--processing">
        {dummy && <img src={dummy} alt="" className="chat-media__image" />}
        <span className="chat-media__label">{t('chat.processing')}</span>
      </div>
    );
  }
  if (message.locked || file.locked) {
    return (
      <div className="chat-media chat-media--locked">
        {(dummy ?? poster) && <img src={dummy ?? poster ?? ''} alt="" className="chat-media__image" />}
        <span className="chat-media__label">{t('chat.locked')}</span>
      </div>
    );
  }
  if (file.type === 'video') {
    // The same protected player as posts: a marked video's file is never sent (ADR 0043). Its
    // native controls are a bubble's one scrubber: no seek strip under them.
    return <VideoPlayer media={file} className="chat-media chat-media__video" seekStrip={false} />;
  }
  return (
    <a href={file.src ?? undefined} target="_blank" rel="noreferrer" className="chat-media">
      <img
        src={file.thumb ?? file.src ?? poster ?? ''}
        alt={t('chat.image')}
        className="chat-media__image"
        loading="lazy"
      />
    </a>
  );
}

/** Pays a paid message's price in credits; the media arrive with the refreshed conversation. */
function UnlockMessage({
  messageId,
  price,
  onUnlocked,
}: {
  messageId: string;
  price: number;
  onUnlocked: () => Promise<void>;
}) {
  const { t } = useTranslation('messages');
  const client = useQueryClient();
  const unlock = useMutation({
    mutationFn: () => api('messages.unlock', undefined, { params: { id: messageId } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: WALLET_KEY });
      await onUnlocked();
    },
  });
  const short = unlock.error instanceof ApiError && unlock.error.code === 'INSUFFICIENT_CREDITS';
  return (
    <div className="chat-message__unlock">
      <button
        type="button"
        className="button button--small button--primary"
        disabled={unlock.isPending}
        onClick={() => unlock.mutate()}
        data-testid="chat-unlock"
      >
        {t('chat.unlock', { price })}
      </button>
      {unlock.isError &&
        (short ? (
          <Link to="/?feed=my-credits" data-testid="chat-unlock-buy">
            {t('chat.buyCredits')}
          </Link>
        ) : (
          <span role="alert">{errorText(unlock.error)}</span>
        ))}
    </div>
  );
}

/** A message bubble: mine on the right, with date, media, price and send state. */
export function ChatMessage({
  entry,
  onRetry,
  onUnlocked,
}: {
  entry: ChatEntry;
  onRetry: (messageUUID: string) => void;
  onUnlocked: () => Promise<void>;
}) {
  const { t } = useTranslation('messages');
  const { message, error } = entry;
  const mediaCount = Math.max(message.files.length, message.filesDummy.length);
  return (
    <li
      className={`chat-message ${message.isMe ? 'chat-message--mine' : ''} ${error ? 'chat-message--failed' : ''}`}
      data-testid="chat-message"
      data-processing={String(message.processing)}
      data-mine={String(message.isMe)}
      data-uuid={message.messageUUID}
    >
      <div className="chat-message__bubble">
        {mediaCount > 0 && (
          <div className="chat-message__media">
            {Array.from({ length: mediaCount }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: files keep their order within a message
              <MessageMedia key={index} message={message} index={index} />
            ))}
          </div>
        )}
        {message.price > 0 && (
          <p className="chat-message__price">
            {message.locked ? null : t('chat.price', { price: message.price })}
          </p>
        )}
        {message.locked && !message.isMe && (
          <UnlockMessage messageId={message._id} price={message.price} onUnlocked={onUnlocked} />
        )}
        {message.message && <p className="chat-message__text">{message.message}</p>}
        <span className="chat-message__meta">
          {error ? (
            <>
              <span role="alert">{t('chat.failed', { error })}</span>{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => onRetry(message.messageUUID)}
                data-testid="chat-retry"
              >
                {t('chat.retry')}
              </button>
            </>
          ) : message._id.startsWith('local-') ? (
            t('chat.sending')
          ) : (
            <TimeAgo iso={message.date} />
          )}
        </span>
      </div>
    </li>
  );
}
