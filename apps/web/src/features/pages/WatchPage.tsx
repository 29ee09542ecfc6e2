import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session.store.ts';
import { ContentIcon } from '../feed/ContentIcon.tsx';
import { type FeedQuery, feedPosts, usePostsFeed } from '../feed/usePostsFeed.ts';
import { ReelsViewer, videoOf } from '../video/ReelsViewer.tsx';
import '../video/video.css';

type Tab = 'latest' | 'popular' | 'following';

const QUERIES: Record<Tab, FeedQuery> = {
  latest: { video: true, limit: 24 },
  popular: { video: true, explore: '', limit: 24 },
  following: { video: true, feed: 'my_content', limit: 24 },
};

/** /watch (spec §2): videos of the platform — latest, popular, from followed creators — opening reels. */
export default function WatchPage() {
  const { t } = useTranslation('pages');
  const signedIn = useSession((s) => s.user !== null);
  const [tab, setTab] = useState<Tab>('latest');
  const [open, setOpen] = useState<number | null>(null);
  const feed = usePostsFeed(QUERIES[tab]);
  const posts = feedPosts(feed.data).filter((p) => videoOf(p));
  const tabs: Tab[] = signedIn ? ['latest', 'popular', 'following'] : ['latest', 'popular'];
  return (
    <main className="watch-page" data-testid="watch-page">
      <h1>{t('watch.title')}</h1>
      <div className="watch-page__tabs" role="tablist" aria-label={t('watch.title')}>
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={`watch-page__tab${tab === name ? ' is-active' : ''}`}
            onClick={() => setTab(name)}
            data-testid={`watch-tab-${name}`}
          >
            {t(`watch.tabs.${name}`)}
          </button>
        ))}
      </div>
      {feed.isSuccess && posts.length === 0 && <p className="watch-page__empty">{t('watch.empty')}</p>}
      <ul className="watch-grid">
        {posts.map((post, index) => {
          const video = videoOf(post);
          const picture = video?.locked ? video.blur : (video?.poster ?? video?.thumb ?? video?.blur);
          return (
            <li key={post._id}>
              <button
                type="button"
                className="watch-card"
                onClick={() => setOpen(index)}
                data-testid="watch-card"
                data-post-id={post._id}
                aria-label={t('watch.open', { creator: post.user.name || post.user.user })}
              >
                {picture ? (
                  <img src={picture} alt="" loading="lazy" />
                ) : (
                  <span className="watch-card__empty" />
                )}
                <span className="watch-card__play" aria-hidden="true">
                  <ContentIcon name={video?.locked ? 'lock' : 'play'} size={28} />
                </span>
                <span className="watch-card__meta">
                  <strong>@{post.user.user}</strong>
                  {video?.info?.format.duration ? (
                    <span>{formatDuration(video.info.format.duration)}</span>
                  ) : null}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {feed.hasNextPage && (
        <button type="button" className="button" onClick={() => void feed.fetchNextPage()}>
          {t('watch.more')}
        </button>
      )}
      {open !== null && <ReelsViewer posts={posts} start={open} onClose={() => setOpen(null)} />}
    </main>
  );
}

function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
