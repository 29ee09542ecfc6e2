import { type PointerEvent, type RefObject, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clock, parseSeekThumbnails, tileAt } from './seekThumbnails.ts';

/**
 * The player's seek strip (ADR 0037): a range under the picture that follows the video, and, while
 * the pointer hovers or drags over it, the thumbnail sprite's tile of that moment with its time.
 * `thumbnails` is `media.play`'s WebVTT index (entitled viewers only).
 */
export default function SeekStrip({
  video: videoRef,
  thumbnails,
  duration: known,
}: {
  video: RefObject<HTMLVideoElement | null>;
  thumbnails: string;
  duration: number | null;
}) {
  const { t } = useTranslation('video');
  const tiles = useMemo(() => parseSeekThumbnails(thumbnails), [thumbnails]);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [hover, setHover] = useState<{ t: number; left: number } | null>(null);
  const hoverTile = hover ? tileAt(tiles, hover.t) : null;

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const onTime = () => setTime(video.currentTime);
    const onMeta = () => setDuration(Number.isFinite(video.duration) ? video.duration : 0);
    onMeta();
    video.addEventListener('timeupdate', onTime);
    video.addEventListener('seeked', onTime);
    video.addEventListener('durationchange', onMeta);
    return () => {
      video.removeEventListener('timeupdate', onTime);
      video.removeEventListener('seeked', onTime);
      video.removeEventListener('durationchange', onMeta);
    };
  }, [videoRef]);
  const length = duration || known || 0;
  if (tiles.length === 0 || length <= 0) return null;

  /** Where the pointer is over the strip: the preview follows it (hover and drag). */
  const onPointer = (e: PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    if (!rect.width) return;
    const x = Math.min(Math.max(0, e.clientX - rect.left), rect.width);
    const half = (tiles[0]?.w ?? 160) / 2;
    setHover({
      t: (x / rect.width) * length,
      left: Math.min(Math.max(half, x), Math.max(half, rect.width - half)),
    });
  };

  return (
    <div
      className="video-player__seek"
      onPointerMove={onPointer}
      onPointerDown={onPointer}
      onPointerLeave={() => setHover(null)}
    >
      <input
        type="range"
        min={0}
        max={length}
        step="any"
        value={Math.min(time, length)}
        aria-label={t('seek')}
        aria-valuetext={`${clock(time)} / ${clock(length)}`}
        onChange={(e) => {
          const to = Number(e.target.value);
          setTime(to);
          if (videoRef.current) videoRef.current.currentTime = to;
        }}
        data-testid="video-seek"
      />
      {hover && hoverTile && (
        <div
          className="video-player__seek-preview"
          role="img"
          aria-label={t('seekPreview', { time: clock(hover.t) })}
          style={{
            left: hover.left,
            width: hoverTile.w,
            height: hoverTile.h,
            backgroundImage: `url("${hoverTile.url}")`,
            backgroundPosition: `-${hoverTile.x}px -${hoverTile.y}px`,
          }}
          data-testid="video-seek-preview"
          data-tile={`${hoverTile.x},${hoverTile.y}`}
        >
          <span>{clock(hover.t)}</span>
        </div>
      )}
    </div>
  );
}
