import type { Post } from '@fanverse/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useOverlay } from '../../app/navigation.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Author, Avatar } from '../feed/Author.tsx';
import { ContentIcon } from '../feed/ContentIcon.tsx';
import { useSwipe } from '../feed/swipe.ts';
import { VideoPlayer } from '../video/VideoPlayer.tsx';

const IMAGE_MS = 5000;

/**
 * Story viewer (?story_view=handle[:index or story id]): progress bars, tap left/right for previous/next,
 * swipe, hold to pause, auto-advance; a 1080×1920 portrait frame. Videos start muted; the sound
 * button (top right, above the tap zones) turns the sound on for the rest of this viewing. Ends by
 * calling onDone.
 */
export function StoryViewer({ value, onDone }: { value: string; onDone: () => void }) {
  const { t } = useTranslation('content');
  const [handle = '', start = '0'] = value.split(':');
  // A story id (from a story card anywhere) starts at that story once the list is in.
  const [chosen, setIndex] = useState<number | null>(/^\d+$/.test(start) ? Number(start) : null);
  const [paused, setPaused] = useState(false);
  // Kept across the stories of this viewing, like Instagram's: one press and every video has sound.
  const [muted, setMuted] = useState(true);
  // A video story's element: holding the picture pauses the video too, letting go plays it again.
  const videoEl = useRef<HTMLVideoElement | null>(null);
  const heldVideo = useRef(false);
  const hold = (on: boolean) => {
    setPaused(on);
    const v = videoEl.current;
    if (!v) return;
    if (on && !v.paused) {
      heldVideo.current = true;
      v.pause();
    } else if (!on && heldVideo.current) {
      heldVideo.current = false;
      void v.play().catch(() => {});
    }
  };
  const stories = useQuery({
    queryKey: ['stories.list', handle.toLowerCase()],
    queryFn: () => api('stories.list', { creator: handle }),
    enabled: !!handle,
  });
  const list = stories.data?.stories ?? [];
  const index =
    chosen ??
    Math.max(
      0,
      list.findIndex((s) => s._id === start),
    );
  const story = list[index];
  const media = story?.media[0];
  const next = () => (index + 1 < list.length ? setIndex(index + 1) : onDone());
  const prev = () => setIndex(Math.max(0, index - 1));
  const swipe = useSwipe((direction) => (direction === 'left' ? next() : prev()));

  // Images advance after 5 s; videos when they end.
  // biome-ignore lint/correctness/useExhaustiveDependencies: next reads the current index.
  useEffect(() => {
    if (!story || paused || media?.type === 'video') return;
    const timer = setTimeout(next, IMAGE_MS);
    return () => clearTimeout(timer);
  }, [story, paused, media?.type]);

  if (stories.isPending) return <Loader />;
  if (stories.isError) return <Alert>{errorText(stories.error)}</Alert>;
  if (!story) return <p className="empty-state">{t('stories.none')}</p>;
  const video = media?.type === 'video';
  const src = media?.src ?? media?.blur ?? null;
  // A video plays through the protected player (its file is never sent, ADR 0043): it needs access,
  // not a `src`; a picture needs its (marked) `src`.
  const open = story.access && !!media && !media.locked && (video || !!media.src);
  return (
    <div className="story-viewer" data-testid="story-viewer" data-index={index}>
      <div className="story-viewer__bars" aria-hidden="true">
        {list.map((s, i) => (
          <span key={s._id} className="story-viewer__bar">
            <span
              className={`story-viewer__fill${i < index ? ' is-done' : ''}${i === index && !video ? ' is-running' : ''}${paused ? ' is-paused' : ''}`}
              style={i === index ? { animationDuration: `${IMAGE_MS}ms` } : undefined}
              key={i === index ? `${s._id}-run` : s._id}
            />
          </span>
        ))}
      </div>
      <div className="story-viewer__author">
        <Author user={story.user} date={story.date} />
        {story.adminStatus !== 'approved' && (
          <span className="story-pending" data-testid="story-pending">
            {t('stories.pending')}
          </span>
        )}
      </div>
      <div
        className="story-viewer__frame"
        {...swipe}
        onPointerDown={(event) => {
          swipe.onPointerDown(event);
          hold(true);
        }}
        onPointerUp={(event) => {
          swipe.onPointerUp(event);
          hold(false);
        }}
      >
        {!open ? (
          <div className="story-viewer__locked">
            {src && <img src={src} alt="" />}
            <span className="story-viewer__lock">
              <ContentIcon name="lock" /> {t('locked.subscribers')}
            </span>
          </div>
        ) : video ? (
          // The same player as posts (hls.js, Safari's native HLS), autoplaying (muted until the
          // sound button is pressed: browsers refuse sound before the viewer acts).
          <VideoPlayer
            key={story._id}
            media={media}
            className="story-viewer__video"
            autoPlay
            muted={muted}
            controls={false}
            onEnded={next}
            onVideo={(v) => {
              videoEl.current = v;
            }}
          />
        ) : (
          <img key={story._id} src={media.src ?? undefined} alt="" />
        )}
        {story.message && <p className="story-viewer__text">{story.message}</p>}
        <button
          type="button"
          className="story-viewer__tap story-viewer__tap--prev"
          onClick={() => !swipe.wasSwipe() && prev()}
          aria-label={t('stories.prev')}
          disabled={index === 0}
        />
        <button
          type="button"
          className="story-viewer__tap story-viewer__tap--next"
          onClick={() => !swipe.wasSwipe() && next()}
          aria-label={t('stories.next')}
          data-testid="story-next"
        />
        {open && video && (
          // After the tap zones, and above them: a press here is neither a tap, a swipe nor a hold.
          <button
            type="button"
            className="story-viewer__sound"
            onClick={() => setMuted((m) => !m)}
            onPointerDown={(event) => event.stopPropagation()}
            onPointerUp={(event) => event.stopPropagation()}
            aria-label={t('stories.sound')}
            aria-pressed={!muted}
            title={muted ? t('stories.soundOn') : t('stories.soundOff')}
            data-testid="story-sound"
          >
            <ContentIcon name={muted ? 'soundOff' : 'soundOn'} size={22} />
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * The visitors' story row on the home page (ADR 0038): one bubble per creator with stories free to
 * everyone in the last 24 h, most followed creators first; a click opens that creator's stories in
 * the story viewer above (?story_view=handle:0). It lives in the viewer's chunk, which the home page
 * loads lazily (no new chunk in its start-up JS). Nothing shows when there are none.
 */
export function VisitorStories() {
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
