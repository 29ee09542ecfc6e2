import type { CategoryTag, PublicUser } from '@fanverse/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { useSearchParamText } from '../../ui/queryParams.ts';
import { Avatar } from '../feed/Author.tsx';
import { PostCard } from '../feed/PostCard.tsx';
import { PostFeed } from '../feed/PostFeed.tsx';

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

/**
 * Explore's lists (explore.sections): categories creators chose, the creators of the chosen one,
 * creators you may like (fans), trending and new creators, and popular free posts.
 */
function ExploreSections({ tag }: { tag: string | null }) {
  const { t } = useTranslation('content');
  const id = useId();
  const sections = useQuery({
    queryKey: ['explore.sections', tag],
    queryFn: ({ signal }) => api('explore.sections', tag ? { tag: tag as CategoryTag } : {}, { signal }),
    placeholderData: keepPreviousData,
  });
  if (sections.isPending) return <Loader />;
  if (sections.isError) return <Alert>{errorText(sections.error)}</Alert>;
  const { tags, tagCreators, trending, newCreators, mayLike } = sections.data;
  const list = (key: string, users: readonly PublicUser[], testId: string) =>
    users.length > 0 && (
      <section aria-labelledby={`${id}-${key}`}>
        <h2 id={`${id}-${key}`}>{t(`explore.${key}`, { tag: tag ? t(`categories.${tag}`) : '' })}</h2>
        <CreatorGrid users={users} testId={testId} />
      </section>
    );
  return (
    <>
      {tags.length > 0 && (
        <nav className="tabs explore__tags" aria-label={t('explore.categories')} data-testid="explore-tags">
          {tags.map(({ tag: name, creators }) => (
            <Link
              key={name}
              to={tag === name ? '/?explore=1' : `/?explore=1&tag=${name}`}
              className={`tab${tag === name ? ' tab--active' : ''}`}
              aria-current={tag === name ? 'page' : undefined}
            >
              {t(`categories.${name}`)} <span className="explore__count">{creators}</span>
            </Link>
          ))}
        </nav>
      )}
      {tag && list('inCategory', tagCreators, 'explore-category')}
      {list('mayLike', mayLike, 'explore-may-like')}
      {list('trending', trending, 'explore-trending')}
      {list('newCreators', newCreators, 'explore-new')}
      <section aria-labelledby={`${id}-popular`}>
        <h2 id={`${id}-popular`}>{t('explore.popularPosts')}</h2>
        <PostFeed query={{ explore: '1' }} empty={t('explore.noPosts')} testId="explore-popular" />
      </section>
    </>
  );
}

/** Posts whose text or hashtags match the word (search.posts), under the creators found. */
function PostResults({ word, headingId }: { word: string; headingId: string }) {
  const { t } = useTranslation('content');
  const found = useQuery({
    queryKey: ['search.posts', word],
    queryFn: ({ signal }) => api('search.posts', { q: word }, { signal }),
  });
  if (found.isPending) return <Loader />;
  if (found.isError) return <Alert>{errorText(found.error)}</Alert>;
  return (
    <section aria-labelledby={headingId} data-testid="explore-posts">
      <h2 id={headingId}>{t('explore.posts')}</h2>
      {found.data.posts.length === 0 ? (
        <p className="empty-state">{t('explore.noPosts')}</p>
      ) : (
        found.data.posts.map((post) => <PostCard key={post._id} post={post} />)
      )}
    </section>
  );
}

/**
 * ?explore (&q=word from the header's search): typo-tolerant creator search (creator.search),
 * matching posts (search.posts) and the top creators.
 */
export function ExploreView() {
  const { t } = useTranslation('content');
  const inputId = useId();
  const [params] = useSearchParams();
  const loggedIn = useSession((s) => !!s.token);
  const { text, setText, words: word } = useSearchParamText();
  const search = useQuery({
    queryKey: ['creator.search', word],
    queryFn: ({ signal }) => api('creator.search', { q: word }, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="panel explore" data-testid="view-explore">
      <h1 className="panel__title">{t('explore.title')}</h1>
      <nav className="tabs" aria-label={t('explore.directories')}>
        <Link to="/?view=creator" className="tab" data-testid="explore-all-creators">
          {t('explore.allCreators')}
        </Link>
        {loggedIn && (
          <Link to="/?view=user" className="tab" data-testid="explore-people">
            {t('explore.people')}
          </Link>
        )}
      </nav>
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
          {word && <PostResults word={word} headingId={`${inputId}-posts`} />}
          <ExploreSections tag={params.get('tag')} />
        </>
      )}
    </section>
  );
}
