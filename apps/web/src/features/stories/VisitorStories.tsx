import type { Post } from '@fanverse/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { useOverlay } from '../../app/navigation.ts';
import { Avatar } from '../feed/Author.tsx';

/**
 * The visitors' story row on the home page (ADR 0038): one bubble per creator with stories free to
 * everyone in the last 24 h, most followed creators first; a click opens that creator's stories in
 * the story viewer (?story_view=handle:0). Nothing shows when there are none.
 */
export default function VisitorStories() {
  const { t } = useTranslation('content');
  const { open } = useOverlay();
  const stories = useQuery({ queryKey: ['stories.list', ''], queryFn: () => api('stories.list', {}) });
  const creators = new Map<string, Post>();
  for (const story of stories.data?.stories ?? []) {
    if (!creators.has(story.user.user)) creators.set(story.user.user, story);
  }
  if (creators.size === 0) return null;
  return (
    <section className="stories-row" data-testid="visitor-stories" aria-label={t('stories.title')}>
      {[...creators.values()].map((story) => {
        const image = story.media[0]?.thumb ?? story.media[0]?.poster ?? null;
        return (
          <button
            key={story.user.user}
            type="button"
            className="story-bubble"
            onClick={() => open('story_view', `${story.user.user}:0`)}
            aria-label={t('stories.of', { name: story.user.name || story.user.user })}
            data-testid="story-bubble"
          >
            <span className="story-bubble__ring">
              {image ? (
                <img src={image} alt="" className="story-bubble__image" />
              ) : (
                <Avatar user={story.user} size="large" />
              )}
            </span>
            <span className="story-bubble__label">{story.user.name || story.user.user}</span>
          </button>
        );
      })}
    </section>
  );
}
