import { type Media, type PublicUser, TIMINGS } from '@fanverse/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { onSocketEvent, setOpenChat } from '../../app/socket.ts';
import {
  belongsToChat,
  type ChatEntry,
  markFailed,
  prependPage,
  previewMessage,
  upsertMessage,
} from './messageList.ts';

export interface Outgoing {
  text: string;
  files: File[];
  /** Vault files attached by id, without an upload (creators). */
  vault: Media[];
  price: number;
}

/**
 * One conversation: page 1 (newest, marks read), older pages on demand, live `message` events
 * of this chat, and sending with an optimistic preview keyed by a new messageUUID (spec §4).
 * The chat is announced as open on the socket while mounted (no notification for it).
 */
export function useChat(handle: string) {
  const me = useSession((s) => s.user?.user ?? '');
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [contact, setContact] = useState<PublicUser | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [loadError, setLoadError] = useState('');
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  /** Files of previews still being sent, for a retry after a failure. */
  const pending = useRef(new Map<string, Outgoing>());
  /** Object URLs of previews, revoked when the chat closes. */
  const urls = useRef<string[]>([]);

  useEffect(() => {
    let alive = true;
    setStatus('loading');
    setEntries([]);
    api('message.conversation', { user: handle, page: 1 })
      .then((answer) => {
        if (!alive) return;
        setContact(answer.user);
        setEntries((current) => answer.messages.reduce(upsertMessage, current));
        setPage(1);
        setHasMore(answer.statistics.hasMore);
        setStatus('ready');
      })
      .catch((error: unknown) => {
        if (!alive) return;
        setLoadError(errorText(error));
        setStatus('error');
      });
    setOpenChat(handle);
    let markTimer: ReturnType<typeof setTimeout> | undefined;
    const off = onSocketEvent('message', ({ message }) => {
      if (!belongsToChat(message, handle)) return;
      setEntries((current) => upsertMessage(current, message));
      // A message from the contact shows that they are connected right now.
      if (!message.isMe) setContact((current) => (current ? { ...current, online: true } : current));
      if (!message.isMe && !message.read) {
        // Seen in the open chat: page 1 again marks it read (and the server updates the badge).
        clearTimeout(markTimer);
        markTimer = setTimeout(() => {
          api('message.conversation', { user: handle, page: 1, limit: 1 }).catch(() => {});
        }, TIMINGS.markReadDelayMs);
      }
    });
    return () => {
      alive = false;
      clearTimeout(markTimer);
      off();
      setOpenChat(null);
    };
  }, [handle]);

  useEffect(
    () => () => {
      for (const url of urls.current) URL.revokeObjectURL(url);
    },
    [],
  );

  const loadOlder = useCallback(async (): Promise<boolean> => {
    if (!hasMore || loadingOlder) return false;
    setLoadingOlder(true);
    try {
      const answer = await api('message.conversation', { user: handle, page: page + 1 });
      setEntries((current) => prependPage(current, answer.messages));
      setPage(page + 1);
      setHasMore(answer.statistics.hasMore);
      return answer.messages.length > 0;
    } catch {
      return false;
    } finally {
      setLoadingOlder(false);
    }
  }, [handle, hasMore, loadingOlder, page]);

  const transmit = useCallback(
    (messageUUID: string, outgoing: Outgoing) => {
      api(
        'message.send',
        {
          to: handle,
          message: outgoing.text,
          messageUUID,
          price: outgoing.price,
          vaultMedia: outgoing.vault.map((m) => m._id),
        },
        { files: outgoing.files },
      )
        .then(({ message }) => {
          pending.current.delete(messageUUID);
          setEntries((current) => upsertMessage(current, message));
        })
        .catch((error: unknown) => {
          // Spec §4: a 504 means the server is still working; the socket delivers the message.
          if (error instanceof ApiError && error.status === 504) return;
          setEntries((current) => markFailed(current, messageUUID, errorText(error)));
        });
    },
    [handle],
  );

  const send = useCallback(
    (outgoing: Outgoing) => {
      const messageUUID = crypto.randomUUID();
      const uploads = outgoing.files.map((file) => URL.createObjectURL(file));
      urls.current.push(...uploads);
      const previews = [...outgoing.vault.map((m) => m.thumb ?? m.poster ?? m.blur ?? ''), ...uploads];
      pending.current.set(messageUUID, outgoing);
      const preview = previewMessage({
        messageUUID,
        from: me,
        to: handle,
        message: outgoing.text,
        price: outgoing.price,
        previews,
      });
      setEntries((current) => upsertMessage(current, preview));
      transmit(messageUUID, outgoing);
    },
    [handle, me, transmit],
  );

  /** Sends a failed preview again with the same messageUUID (the server stores it once). */
  const retry = useCallback(
    (messageUUID: string) => {
      const outgoing = pending.current.get(messageUUID);
      if (!outgoing) return;
      setEntries((current) => markFailed(current, messageUUID, undefined));
      transmit(messageUUID, outgoing);
    },
    [transmit],
  );

  /** Reloads the newest page (after an unlock, so the media arrive). */
  const refresh = useCallback(async () => {
    const answer = await api('message.conversation', { user: handle, page: 1 });
    setEntries((current) => answer.messages.reduce(upsertMessage, current));
  }, [handle]);

  return { entries, contact, status, loadError, hasMore, loadingOlder, loadOlder, send, retry, refresh };
}
