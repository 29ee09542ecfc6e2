import type { PostsResponse } from '@fanverse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, startTransition, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useOverlay, useResumeAction } from '../../app/navigation.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Avatar } from './Author.tsx';
import { ContentIcon } from './ContentIcon.tsx';
import { type FeedMode, PostCard } from './PostCard.tsx';
import { type FeedQuery, feedPosts, patchCachedPost, useNearBottom, usePostsFeed } from './usePostsFeed.ts';

/** Plus / grid switch (spec §2 feed_mode), kept in the query. */
export function FeedModeToggle({ mode, onChange }: { mode: FeedMode; onChange: (mode: FeedMode) => void }) {
  const { t } = useTranslation('content');
  return (
    <fieldset className="mode-toggle fieldset-plain">
      <legend className="sr-only">{t('feed.mode')}</legend>
      {(['plus', 'grid'] as const).map((value) => (
        <button
          key={value}
          type="button"
          className={`mode-toggle__button${mode === value ? ' is-active' : ''}`}
          aria-pressed={mode === value}
          onClick={() => onChange(value)}
          data-testid={`feed-mode-${value}`}
        >
          <ContentIcon name={value === 'plus' ? 'card' : 'grid'} size={18} /> {t(`feed.modes.${value}`)}
        </button>
      ))}
    </fieldset>
  );
}

/** Resumes like / comment attempted while logged out, on the page where they were attempted. */
export function useResumeReactions() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { open } = useOverlay();
  useResumeAction('like', ({ postId, creator }) => {
    if (!postId) return;
    void api('posts.like', { id: postId, creator }).then(({ liked, likes }) =>
      patchCachedPost(client, postId, { liked, likes }),
    );
  });
  useResumeAction('comment', ({ postId }) => {
    if (postId) open('comments', postId);
  });
  useResumeAction('message', ({ creator }) => open('messages', creator || 'wall'));
  useResumeAction('credits', () => navigate('/?feed=my-credits'));
}

/** Cards rendered with the data; the screen's first ones, the LCP among them. */
const FIRST_CARDS = 4;

/**
 * How many of `total` cards to render: the first few with the data, the others right after in a
 * transition, which React renders in slices, so a page of posts arriving is not one long task
 * that holds the page (it was the longest of the first load on a phone).
 */
function useProgressiveCount(total: number): number {
  const [count, setCount] = useState(FIRST_CARDS);
  useEffect(() => {
    if (count < total) startTransition(() => setCount(total));
  }, [count, total]);
  return Math.min(count, total);
}

/** A feed of posts with loader, empty state and infinite scroll (~200 px from the bottom). */
export function PostFeed({
  query,
  mode = 'plus',
  empty,
  onData,
  testId = 'post-feed',
}: {
  query: FeedQuery;
  mode?: FeedMode;
  empty?: ReactNode;
  onData?: (first: PostsResponse) => void;
  testId?: string;
}) {
  const { t } = useTranslation('content');
  const feed = usePostsFeed(query);
  useResumeReactions();
  const posts = feedPosts(feed.data);
  const shown = useProgressiveCount(posts.length);
  // The next page is asked for once every card of this one is on the page.
  const more = feed.hasNextPage && !feed.isFetchingNextPage && shown === posts.length;
  const sentinel = useNearBottom(() => {
    if (feed.hasNextPage && !feed.isFetchingNextPage) void feed.fetchNextPage();
  }, !!more);
  const first = feed.data?.pages[0];
  useEffect(() => {
    if (first) onData?.(first);
  }, [first, onData]);

  if (feed.isPending) return <Loader skeleton="cards" />;
  if (feed.isError) return <Alert>{errorText(feed.error)}</Alert>;
  return (
    <div className="post-feed-wrap" data-testid={testId}>
      {posts.length === 0 ? (
        <div className="empty-state" data-testid="feed-empty">
          {empty ?? t('feed.empty')}
        </div>
      ) : (
        <div className={mode === 'grid' ? 'post-grid' : 'post-list'} data-mode={mode}>
          {posts.slice(0, shown).map((post, index) => (
            <PostCard key={post._id} post={post} mode={mode} priority={index === 0} />
          ))}
        </div>
      )}
      <div ref={sentinel} className="feed-sentinel" aria-hidden="true" />
      {feed.isFetchingNextPage && <Loader />}
      {feed.hasNextPage && !feed.isFetchingNextPage && (
        <button type="button" className="button button--block" onClick={() => void feed.fetchNextPage()}>
          {t('feed.more')}
        </button>
      )}
    </div>
  );
}

/** Creators suggested to non-creators (posts.list `suggestions`). */
export function CreatorSuggestions({ users }: { users: PostsResponse['suggestions'] }) {
  const { t } = useTranslation('content');
  if (users.length === 0) return null;
  return (
    <section className="suggestions" aria-labelledby="feed-suggestions-title" data-testid="suggestions">
      <h2 id="feed-suggestions-title">{t('feed.suggestions')}</h2>
      <ul className="creator-list">
        {users.map((user) => (
          <li key={user._id}>
            <Link to={`/${user.user}`} className="creator-card">
              <Avatar user={user} size="large" showOnline />
              <span className="creator-card__name">{user.name}</span>
              <span className="creator-card__handle">@{user.user}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The feed_mode of the current query. */
export function useFeedMode(): [FeedMode, (mode: FeedMode) => string] {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const mode: FeedMode = params.get('feed_mode') === 'grid' ? 'grid' : 'plus';
  const hrefFor = (next: FeedMode) => {
    const copy = new URLSearchParams(location.search);
    copy.set('feed_mode', next);
    return `${location.pathname}?${copy}`;
  };
  return [mode, hrefFor];
}
