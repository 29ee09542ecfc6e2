import { PAGE_LIMITS } from '@fanverse/contract';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { onSocketEvent } from '../../app/socket.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Avatar, TimeAgo } from '../feed/Author.tsx';
import { useNearBottom } from '../feed/usePostsFeed.ts';

const SEARCH_DELAY_MS = 300;

/** Conversations, newest first, 24 a page with infinite scroll, searchable (spec §7). */
export function ContactsList({
  active,
  onOpen,
}: {
  active: string | null;
  onOpen: (handle: string) => void;
}) {
  const { t } = useTranslation('messages');
  const client = useQueryClient();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');

  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const query = useInfiniteQuery({
    queryKey: ['message.contacts', q],
    queryFn: ({ pageParam }) => api('message.contacts', { q, page: pageParam, limit: PAGE_LIMITS.contacts }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.statistics.hasMore ? last.statistics.page + 1 : undefined),
  });

  useEffect(() => {
    // A new message or a read changes the order, the previews and the unread counts.
    const refresh = () => void client.invalidateQueries({ queryKey: ['message.contacts'] });
    const offMessage = onSocketEvent('message', refresh);
    const offUnread = onSocketEvent('unreadMessages', refresh);
    return () => {
      offMessage();
      offUnread();
    };
  }, [client]);

  const sentinel = useNearBottom(() => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  }, !!query.hasNextPage);

  const contacts = query.data?.pages.flatMap((page) => page.users) ?? [];
  return (
    <section className="contacts" aria-label={t('contacts.title')}>
      <label htmlFor={searchId} className="sr-only">
        {t('contacts.search')}
      </label>
      <input
        id={searchId}
        type="search"
        className="input contacts__search"
        placeholder={t('contacts.search')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        data-testid="contacts-search"
      />
      {query.isError && <Alert>{errorText(query.error)}</Alert>}
      <ul className="contacts__list" data-testid="contacts-list">
        {contacts.map((contact) => (
          <li key={contact.user._id}>
            <button
              type="button"
              className={`contact ${active?.toLowerCase() === contact.user.user.toLowerCase() ? 'contact--active' : ''}`}
              onClick={() => onOpen(contact.user.user)}
              aria-current={active?.toLowerCase() === contact.user.user.toLowerCase() ? 'true' : undefined}
              data-testid="contact-item"
              data-contact={contact.user.user}
              data-unread={contact.unread}
            >
              <Avatar user={contact.user} showOnline />
              <span className="contact__text">
                <span className="contact__top">
                  <strong className="contact__name">{contact.user.name || contact.user.user}</strong>
                  <span className="contact__date">
                    <TimeAgo iso={contact.date} />
                  </span>
                </span>
                <span className="contact__bottom">
                  <span className="contact__preview">
                    {contact.lastMessageIsMe && `${t('contacts.you')} `}
                    {contact.lastMessage || t('contacts.media')}
                  </span>
                  {contact.unread > 0 && (
                    <span className="badge">
                      <span aria-hidden="true">{contact.unread > 99 ? '99+' : contact.unread}</span>
                      <span className="sr-only">{t('contacts.unread', { count: contact.unread })}</span>
                    </span>
                  )}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {query.isPending && <Loader />}
      {query.isSuccess && contacts.length === 0 && (
        <p className="contacts__empty">{q ? t('contacts.noResults') : t('contacts.empty')}</p>
      )}
      <div ref={sentinel} aria-hidden="true" />
      {query.isFetchingNextPage && <Loader />}
    </section>
  );
}
