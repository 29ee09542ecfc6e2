import type { PublicUser } from '@fanverse/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Avatar } from '../feed/Author.tsx';

function CreatorGrid({ users, testId }: { users: readonly PublicUser[]; testId?: string }) {
  return (
    <ul className="creator-list" data-testid={testId}>
      {users.map((user) => (
        <li key={user._id}>
          <Link to={`/${user.user}`} className="creator-card" data-testid="explore-creator">
            <Avatar user={user} size="large" showOnline />
            <span className="creator-card__name">{user.name}</span>
            <span className="creator-card__handle">@{user.user}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** ?explore: typo-tolerant creator search (creator.search) and the top creators. */
export function ExploreView() {
  const { t } = useTranslation('content');
  const inputId = useId();
  const [text, setText] = useState('');
  const [word, setWord] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setWord(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const search = useQuery({
    queryKey: ['creator.search', word],
    queryFn: ({ signal }) => api('creator.search', { q: word }, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="panel explore" data-testid="view-explore">
      <h1 className="panel__title">{t('explore.title')}</h1>
      <form className="explore__search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={inputId} className="sr-only">
          {t('explore.label')}
        </label>
        <input
          id={inputId}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('explore.placeholder')}
          maxLength={60}
          data-testid="explore-search"
        />
      </form>
      {search.isPending ? (
        <Loader />
      ) : search.isError ? (
        <Alert>{errorText(search.error)}</Alert>
      ) : (
        <>
          {word && (
            <section aria-labelledby={`${inputId}-results`}>
              <h2 id={`${inputId}-results`}>{t('explore.results', { word })}</h2>
              {search.data.creators.items.length === 0 ? (
                <p className="empty-state" data-testid="explore-results">
                  {t('explore.none')}
                </p>
              ) : (
                <CreatorGrid users={search.data.creators.items} testId="explore-results" />
              )}
            </section>
          )}
          <section aria-labelledby={`${inputId}-top`}>
            <h2 id={`${inputId}-top`}>{t('explore.top')}</h2>
            <CreatorGrid users={search.data.topCreators.items} testId="explore-top" />
          </section>
        </>
      )}
    </section>
  );
}
