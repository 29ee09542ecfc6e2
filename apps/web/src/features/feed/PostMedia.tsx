import type { Media, Post } from '@fanverse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUi } from '../../app/ui.store.ts';
import { Modal } from '../../ui/Modal.tsx';
import { UnlockPurchase } from '../money/UnlockPurchase.tsx';
import { Visor } from '../post/Visor.tsx';
import { ContentIcon } from './ContentIcon.tsx';
import { priceDisplay } from './format.ts';

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
function LockedMedia({ post, media }: { post: Post; media: Media | undefined }) {
  const { t } = useTranslation('content');
  const [open, setOpen] = useState(false);
  const screen = useUi((s) => s.screen);
  const ppv = post.visibility === 'ppv';
  return (
    <div className="media-locked">
      {media?.blur ? (
        <img src={media.blur} alt="" className="media-locked__blur" />
      ) : (
        <div className="media-locked__blur media-locked__blur--empty" />
      )}
      <div className="media-locked__cover">
        <span className="media-locked__icon" aria-hidden="true">
          <ContentIcon name="lock" size={40} />
        </span>
        {ppv ? <PostPrice post={post} /> : <span>{t('locked.subscribers')}</span>}
        <button
          type="button"
          className="button button--primary"
          onClick={() => setOpen(true)}
          data-testid="post-unlock"
        >
          {ppv ? t('locked.unlock', { count: post.finalPrice }) : t('locked.subscribe')}
        </button>
      </div>
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
}: {
  media: Media;
  onOpen: (index: number) => void;
  index: number;
}) {
  const { t } = useTranslation('content');
  if (media.status === 'processing') {
    return <div className="media-processing">{t('media.processing')}</div>;
  }
  if (media.status === 'failed') {
    return <div className="media-processing">{t('media.failed')}</div>;
  }
  if (media.type === 'video') {
    return (
      // biome-ignore lint/a11y/useMediaCaption: creators' videos have no caption tracks.
      <video
        className="media-item"
        controls
        preload="metadata"
        playsInline
        poster={media.poster ?? media.mediaPoster ?? undefined}
        src={media.src ?? undefined}
        controlsList="nodownload"
      />
    );
  }
  return (
    <button type="button" className="media-button" onClick={() => onOpen(index)} aria-label={t('media.open')}>
      <img
        className="media-item"
        src={media.src ?? media.thumb ?? ''}
        alt=""
        loading="lazy"
        width={media.width ?? undefined}
        height={media.height ?? undefined}
      />
    </button>
  );
}

/** The media of a post: visible ones (click opens the visor) or the locked preview. */
export function PostMedia({ post }: { post: Post }) {
  const [visor, setVisor] = useState<number | null>(null);
  if (post.media.length === 0) return null;
  const locked = !post.access || post.media.every((m) => m.locked);
  if (locked) {
    return (
      <div className="post-card__media">
        <LockedMedia post={post} media={post.media[0]} />
      </div>
    );
  }
  return (
    <div className={`post-card__media${post.media.length > 1 ? ' post-card__media--many' : ''}`}>
      {post.media.map((media, index) => (
        <MediaItem key={media._id} media={media} index={index} onOpen={setVisor} />
      ))}
      <Visor media={post.media} index={visor} onIndex={setVisor} />
    </div>
  );
}
