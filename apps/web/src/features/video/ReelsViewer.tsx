import type { Post } from '@fanverse/contract';
import { type PointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ContentIcon } from '../feed/ContentIcon.tsx';
import { useReactions } from '../feed/PostCard.tsx';
import { LockedMedia } from '../feed/PostMedia.tsx';
import { verticalSwipe } from '../feed/swipe.ts';
import { TipButton } from '../money/TipGift.tsx';
import { VideoPlayer } from './VideoPlayer.tsx';

/** The first video of a post, if any. */
export const videoOf = (post: Post) => post.media.find((m) => m.type === 'video');

function ReelActions({ post }: { post: Post }) {
  const { t } = useTranslation('content');
  const { state, like } = useReactions(post);
  return (
    <div className="reel__actions">
      <button
        type="button"
        className="reel__action"
        aria-pressed={state.liked}
        aria-label={t('reels.like')}
        onClick={() => like.mutate()}
        data-testid="reel-like"
      >
        <ContentIcon name="heart" filled={state.liked} size={28} />
        <span>{state.likes}</span>
      </button>
      <Link className="reel__action" to={`/post/${post._id}`} aria-label={t('reels.comment')}>
        <ContentIcon name="comment" size={28} />
        <span>{post.comments}</span>
      </Link>
      <TipButton creator={post.user.user} post={post._id} className="reel__action reel__tip" />
      <Link className="reel__action" to={`/${post.user.user}`} aria-label={t('reels.subscribe')}>
        <ContentIcon name="user" size={28} />
      </Link>
    </div>
  );
}

/**
 * Full-screen vertical feed of short videos (spec overlay): swipe up/down (over 50 px, faster than
 * 0.45 px/ms) or arrow keys, autoplay muted with tap to unmute, the next video preloaded, like /
 * comment / tip / subscribe, and the unlock sheet on a locked reel.
 */
export function ReelsViewer({
  posts,
  start,
  onClose,
}: {
  posts: Post[];
  start: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('content');
  const [index, setIndex] = useState(start);
  const [muted, setMuted] = useState(true);
  const from = useRef<{ y: number; t: number } | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const move = useCallback(
    (step: number) => setIndex((i) => Math.min(posts.length - 1, Math.max(0, i + step))),
    [posts.length],
  );

  useEffect(() => {
    dialog.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      // Keys inside another dialog over the reels (the unlock sheet, the tip dialog) are theirs.
      const target = e.target instanceof Node ? e.target : null;
      if (target && target !== document.body && !dialog.current?.contains(target)) return;
      if (e.key === 'ArrowDown') move(1);
      else if (e.key === 'ArrowUp') move(-1);
      else if (e.key === 'Escape') onClose();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [move, onClose]);

  const post = posts[index];
  const next = posts[index + 1];
  const onPointerDown = (e: PointerEvent) => {
    from.current = { y: e.clientY, t: e.timeStamp };
  };
  const onPointerUp = (e: PointerEvent) => {
    const start = from.current;
    from.current = null;
    if (!start) return;
    const dir = verticalSwipe(e.clientY - start.y, e.timeStamp - start.t);
    if (dir) move(dir === 'up' ? 1 : -1);
  };
  if (!post) return null;
  const video = videoOf(post);
  const locked = !post.access || !video || video.locked;
  const nextVideo = next ? videoOf(next) : undefined;

  return (
    <div
      ref={dialog}
      className="reels"
      role="dialog"
      aria-modal="true"
      aria-label={t('reels.title')}
      tabIndex={-1}
      data-testid="reels"
      data-index={index}
      data-post-id={post._id}
    >
      <div className="reel" onPointerDown={onPointerDown} onPointerUp={onPointerUp} data-testid="reel-stage">
        {locked ? (
          <div className="reel__locked" data-testid="reel-locked">
            <LockedMedia post={post} media={video} />
          </div>
        ) : (
          <VideoPlayer
            key={video._id}
            media={video}
            className="reel__player"
            autoPlay
            muted={muted}
            loop
            controls={false}
            preload
          />
        )}
        {!locked && (
          <button
            type="button"
            className="reel__unmute"
            onClick={() => setMuted((m) => !m)}
            aria-pressed={!muted}
            data-testid="reel-unmute"
          >
            {muted ? t('reels.unmute') : t('reels.mute')}
          </button>
        )}
        <div className="reel__info">
          <Link to={`/${post.user.user}`} className="reel__author">
            @{post.user.user}
          </Link>
          {post.message && <p className="reel__text">{post.message}</p>}
        </div>
        <ReelActions post={post} />
      </div>
      {/* The next reel loads while this one plays. */}
      {nextVideo && !nextVideo.locked && next?.access && (
        <div className="reel__preload" aria-hidden="true" data-testid="reel-preload">
          <VideoPlayer key={nextVideo._id} media={nextVideo} muted controls={false} preload />
        </div>
      )}
      <button type="button" className="reels__close" onClick={onClose} aria-label={t('reels.close')}>
        <ContentIcon name="close" size={24} />
      </button>
      <div className="reels__nav">
        <button
          type="button"
          onClick={() => move(-1)}
          disabled={index === 0}
          aria-label={t('reels.previous')}
        >
          <ContentIcon name="up" size={24} />
        </button>
        <button
          type="button"
          onClick={() => move(1)}
          disabled={index >= posts.length - 1}
          aria-label={t('reels.next')}
        >
          <ContentIcon name="down" size={24} />
        </button>
      </div>
    </div>
  );
}
