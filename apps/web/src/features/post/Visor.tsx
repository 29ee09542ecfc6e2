import type { Media } from '@fanverse/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal.tsx';
import { ContentIcon } from '../feed/ContentIcon.tsx';
import { useSwipe } from '../feed/swipe.ts';
import { VideoPlayer } from '../video/VideoPlayer.tsx';

/** Full-screen media visor: arrows, arrow keys and swipe move; Escape or × closes. */
export function Visor({
  media,
  index,
  onIndex,
}: {
  media: readonly Media[];
  index: number | null;
  onIndex: (index: number | null) => void;
}) {
  const { t } = useTranslation('content');
  const count = media.length;
  const current = index === null ? null : media[index];
  const go = (step: number) => {
    if (index === null || count === 0) return;
    onIndex((index + step + count) % count);
  };
  const swipe = useSwipe((direction) => go(direction === 'left' ? 1 : -1));
  // biome-ignore lint/correctness/useExhaustiveDependencies: go reads the current index.
  useEffect(() => {
    if (index === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowRight') go(1);
      if (event.key === 'ArrowLeft') go(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, count]);

  return (
    <Modal
      open={index !== null}
      onClose={() => onIndex(null)}
      title={t('visor.title', { index: (index ?? 0) + 1, count })}
      testId="visor"
      className="visor"
    >
      <div className="visor__stage" {...swipe}>
        {current?.type === 'video' ? (
          <VideoPlayer key={current._id} media={current} className="visor__media" autoPlay />
        ) : current ? (
          <img
            key={current._id}
            className="visor__media"
            src={current.src ?? current.thumb ?? current.blur ?? ''}
            alt=""
          />
        ) : null}
        {count > 1 && (
          <>
            <button
              type="button"
              className="visor__nav visor__nav--prev"
              onClick={() => go(-1)}
              aria-label={t('visor.prev')}
            >
              <ContentIcon name="prev" size={28} />
            </button>
            <button
              type="button"
              className="visor__nav visor__nav--next"
              onClick={() => go(1)}
              aria-label={t('visor.next')}
            >
              <ContentIcon name="next" size={28} />
            </button>
          </>
        )}
      </div>
    </Modal>
  );
}
