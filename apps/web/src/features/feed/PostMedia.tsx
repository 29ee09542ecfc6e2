import type { Media, Post } from '@fanverse/contract';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUi } from '../../app/ui.store.ts';
import { Modal } from '../../ui/Modal.tsx';
import { UnlockPurchase } from '../money/UnlockPurchase.tsx';
import { Visor } from '../post/Visor.tsx';
import { VideoPlayer } from '../video/VideoPlayer.tsx';
import { ContentIcon } from './ContentIcon.tsx';
import { priceDisplay } from './format.ts';
import { imageLoading } from './imageLoading.ts';

/** Price with the discount of spec §9 shown only while active. */
export function PostPrice({ post }: { post: Post }) {
  const { t } = useTranslation('content');
  const shown = priceDisplay(post.price, post.finalPrice, post);
  return (
    <span className="price">
      <strong>{t('price.credits', { count: shown.price })}</strong>
      {shown.original !== null && (
        <>
          {' '}
          <s>{t('price.credits', { count: shown.original })}</s>{' '}
          <span className="discount-badge">{t('price.off', { percent: shown.percent })}</span>
        </>
      )}
    </span>
  );
}

/** What a viewer without access sees over the blurred preview, and the unlock / subscribe offer. */
export function LockedMedia({
  post,
  media,
  priority = false,
}: {
  post: Post;
  media: Media | undefined;
  priority?: boolean;
}) {
  const { t } = useTranslation('content');
  const [open, setOpen] = useState(false);
  // The free preview of a locked video: 'off' (cover), 'playing', 'ended' (cover again, said so).
  const [preview, setPreview] = useState<'off' | 'playing' | 'ended'>('off');
  const screen = useUi((s) => s.screen);
  const ppv = post.visibility === 'ppv';
  const previewSeconds = media?.type === 'video' && media.status === 'ready' ? media.preview : 0;
  return (
    <div className="media-locked">
      {media && preview === 'playing' ? (
        <>
          <VideoPlayer
            media={media}
            preview
            autoPlay
            className="media-item"
            onEnded={() => setPreview('ended')}
          />
          <span className="media-locked__badge" data-testid="preview-badge">
            {t('locked.previewBadge')}
          </span>
        </>
      ) : media?.blur ? (
        // The blurred preview is tiny: always fetched at once, first when it is the page's largest paint.
        <img
          src={media.blur}
          alt=""
          className="media-locked__blur"
          fetchPriority={priority ? 'high' : undefined}
        />
      ) : (
        <div className="media-locked__blur media-locked__blur--empty" />
      )}
      {preview !== 'playing' && (
        <div className="media-locked__cover">
          <span className="media-locked__icon" aria-hidden="true">
            <ContentIcon name="lock" size={40} />
          </span>
          {preview === 'ended' && (
            <span role="status" data-testid="preview-ended">
              {t('locked.previewEnded')}
            </span>
          )}
          {ppv ? <PostPrice post={post} /> : <span>{t('locked.subscribers')}</span>}
          <button
            type="button"
            className="button button--primary"
            onClick={() => setOpen(true)}
            data-testid="post-unlock"
          >
            {ppv ? t('locked.unlock', { count: post.finalPrice }) : t('locked.subscribe')}
          </button>
          {previewSeconds > 0 && (
            <button
              type="button"
              className="button media-locked__preview"
              onClick={() => setPreview('playing')}
              data-testid="post-preview"
            >
              <ContentIcon name="play" size={18} /> {t('locked.preview', { count: previewSeconds })}
            </button>
          )}
        </div>
      )}
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={ppv ? t('locked.unlockTitle') : t('locked.subscribeTitle')}
        testId="unlock-overlay"
        variant={screen === 'mobile' ? 'sheet' : 'dialog'}
      >
        {ppv ? (
          <>
            <p>{t('locked.unlockText', { creator: post.user.name || post.user.user })}</p>
            <UnlockPurchase post={post} onUnlocked={() => setOpen(false)} />
          </>
        ) : (
          <>
            <p>{t('locked.subscribeText', { creator: post.user.name || post.user.user })}</p>
            <Link to={`/${post.user.user}`} className="button button--primary button--block">
              {t('locked.seeProfile')}
            </Link>
          </>
        )}
      </Modal>
    </div>
  );
}

function MediaItem({
  media,
  onOpen,
  index,
  priority,
}: {
  media: Media;
  onOpen: (index: number) => void;
  index: number;
  priority: boolean;
}) {
  const { t } = useTranslation('content');
  if (media.status === 'processing') {
    return <div className="media-processing">{t('media.processing')}</div>;
  }
  if (media.status === 'failed') {
    return <div className="media-processing">{t('media.failed')}</div>;
  }
  if (media.type === 'video') {
    return <VideoPlayer media={media} className="media-item" />;
  }
  return (
    <button type="button" className="media-button" onClick={() => onOpen(index)} aria-label={t('media.open')}>
      <img
        className="media-item"
        src={media.src ?? media.thumb ?? ''}
        alt=""
        {...imageLoading(priority)}
        width={media.width ?? undefined}
        height={media.height ?? undefined}
      />
    </button>
  );
}

/** The media of a post: visible ones (click opens the visor) or the locked preview. */
export function PostMedia({ post, priority = false }: { post: Post; priority?: boolean }) {
  const [visor, setVisor] = useState<number | null>(null);
  if (post.media.length === 0) return null;
  const locked = !post.access || post.media.every((m) => m.locked);
  if (locked) {
    return (
      <div className="post-card__media">
        <LockedMedia post={post} media={post.media[0]} priority={priority} />
      </div>
    );
  }
  const items = post.media.map((media, index) => (
    <MediaItem
      key={media._id}
      media={media}
      index={index}
      onOpen={setVisor}
      priority={priority && index === 0}
    />
  ));
  return (
    <>
      {post.media.length > 1 ? (
        <MediaCarousel count={post.media.length}>{items}</MediaCarousel>
      ) : (
        <div className="post-card__media">{items}</div>
      )}
      <Visor media={post.media} index={visor} onIndex={setVisor} />
    </>
  );
}

/**
 * Several pictures of one post: a strip that snaps one picture at a time (phones swipe it with
 * the finger), with a counter (1/3), dots to jump and arrows on every width.
 */
function MediaCarousel({ count, children }: { count: number; children: ReactNode }) {
  const { t } = useTranslation('content');
  const strip = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  const go = (index: number) => {
    const el = strip.current;
    if (!el) return;
    const target = Math.max(0, Math.min(count - 1, index));
    el.scrollTo?.({ left: target * el.clientWidth, behavior: 'smooth' });
    setCurrent(target);
  };
  return (
    <section
      className="carousel"
      aria-roledescription={t('carousel.role')}
      aria-label={t('carousel.label', { count })}
      data-testid="media-carousel"
    >
      <div
        ref={strip}
        className="post-card__media post-card__media--many"
        onScroll={(event) => {
          const el = event.currentTarget;
          if (el.clientWidth > 0) setCurrent(Math.round(el.scrollLeft / el.clientWidth));
        }}
      >
        {children}
      </div>
      <span className="carousel__counter" aria-live="polite" data-testid="media-counter">
        {t('carousel.counter', { index: current + 1, count })}
      </span>
      <button
        type="button"
        className="carousel__arrow carousel__arrow--prev"
        onClick={() => go(current - 1)}
        disabled={current === 0}
        aria-label={t('visor.prev')}
        data-testid="media-prev"
      >
        <span aria-hidden="true">‹</span>
      </button>
      <button
        type="button"
        className="carousel__arrow carousel__arrow--next"
        onClick={() => go(current + 1)}
        disabled={current === count - 1}
        aria-label={t('visor.next')}
        data-testid="media-next"
      >
        <span aria-hidden="true">›</span>
      </button>
      <div className="carousel__dots">
        {Array.from({ length: count }, (_, index) => (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: one dot per position, never reordered.
            key={index}
            type="button"
            className="carousel__dot"
            aria-label={t('carousel.goTo', { index: index + 1, count })}
            aria-current={index === current ? 'true' : undefined}
            onClick={() => go(index)}
            data-testid="media-dot"
          />
        ))}
      </div>
    </section>
  );
}
