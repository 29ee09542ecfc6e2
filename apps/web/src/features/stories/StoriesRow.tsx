import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../app/api.ts';
import { useOverlay } from '../../app/navigation.ts';
import { Avatar } from '../feed/Author.tsx';
import { LiveBadge } from '../live/LiveBadge.tsx';

/** The stories of a creator (last 24 h); a click opens the story viewer (?story_view=handle). */
export function StoriesRow({ creator, isMe }: { creator: string; isMe: boolean }) {
  const { t } = useTranslation('content');
  const { open } = useOverlay();
  const stories = useQuery({
    queryKey: ['stories.list', creator.toLowerCase()],
    queryFn: () => api('stories.list', { creator }),
  });
  const list = stories.data?.stories ?? [];
  if (list.length === 0 && !isMe) return null;
  return (
    <section className="stories-row" data-testid="stories-row" aria-label={t('stories.title')}>
      {isMe && (
        <Link to="/post/create?kind=story" className="story-bubble story-bubble--new" data-testid="story-new">
          <span className="story-bubble__ring" aria-hidden="true">
            +
          </span>
          <span className="story-bubble__label">{t('stories.new')}</span>
        </Link>
      )}
      {list.map((story, index) => {
        const image = story.media[0]?.thumb ?? story.media[0]?.poster ?? story.media[0]?.blur ?? null;
        return (
          <button
            key={story._id}
            type="button"
            className="story-bubble"
            onClick={() => open('story_view', `${creator}:${index}`)}
            data-testid="story-bubble"
          >
            <span className="story-bubble__ring">
              {image ? (
                <img src={image} alt="" className="story-bubble__image" />
              ) : (
                <Avatar user={story.user} size="large" />
              )}
              <LiveBadge handle={story.user.user} />
            </span>
            <span className="story-bubble__label">{t('stories.number', { index: index + 1 })}</span>
            {story.adminStatus !== 'approved' && (
              <span className="story-pending story-pending--bubble" data-testid="story-pending">
                {t('stories.pending')}
              </span>
            )}
          </button>
        );
      })}
    </section>
  );
}
