import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';

export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The crop in source pixels for an image of natural size (w, h) shown in a frame (fw, fh) at
 * `zoom` over the cover scale, its top-left corner at (ox, oy) relative to the frame (≤ 0).
 */
export function cropOf(
  natural: { w: number; h: number },
  frame: { w: number; h: number },
  zoom: number,
  offset: { x: number; y: number },
): Crop {
  const scale = Math.max(frame.w / natural.w, frame.h / natural.h) * zoom;
  const width = Math.min(natural.w, Math.round(frame.w / scale));
  const height = Math.min(natural.h, Math.round(frame.h / scale));
  const x = Math.min(natural.w - width, Math.max(0, Math.round(-offset.x / scale)));
  const y = Math.min(natural.h - height, Math.max(0, Math.round(-offset.y / scale)));
  return { x, y, width: Math.max(1, width), height: Math.max(1, height) };
}

/** Keeps the image covering the frame: ox in [fw − w·s, 0]. */
function clampOffset(
  natural: { w: number; h: number },
  frame: { w: number; h: number },
  zoom: number,
  offset: { x: number; y: number },
) {
  const scale = Math.max(frame.w / natural.w, frame.h / natural.h) * zoom;
  return {
    x: Math.min(0, Math.max(frame.w - natural.w * scale, offset.x)),
    y: Math.min(0, Math.max(frame.h - natural.h * scale, offset.y)),
  };
}

/**
 * Image adjust editor for the avatar (square) and the cover (3:1): drag to position, zoom with
 * the slider or the wheel, then upload with the crop in source pixels (user.profileImage).
 */
export function ImageAdjustEditor({
  kind,
  file,
  onClose,
}: {
  kind: 'avatar' | 'cover';
  file: File;
  onClose: () => void;
}) {
  const { t } = useTranslation('content');
  const client = useQueryClient();
  const frameRef = useRef<HTMLDivElement>(null);
  const [url] = useState(() => URL.createObjectURL(file));
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [frame, setFrame] = useState({ w: 300, h: kind === 'avatar' ? 300 : 100 });
  const [zoom, setZoom] = useState(1);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; ox: number; oy: number } | null>(null);

  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  useEffect(() => {
    const node = frameRef.current;
    if (!node) return;
    const measure = () => setFrame({ w: node.clientWidth, h: node.clientHeight });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

  const scale = natural ? Math.max(frame.w / natural.w, frame.h / natural.h) * zoom : 1;
  const setClamped = (next: { x: number; y: number }, z = zoom) => {
    if (natural) setOffset(clampOffset(natural, frame, z, next));
  };
  const changeZoom = (z: number) => {
    if (!natural) return;
    const next = Math.min(4, Math.max(1, z));
    // Zoom around the frame centre.
    const old = Math.max(frame.w / natural.w, frame.h / natural.h) * zoom;
    const now = Math.max(frame.w / natural.w, frame.h / natural.h) * next;
    const cx = (frame.w / 2 - offset.x) / old;
    const cy = (frame.h / 2 - offset.y) / old;
    setZoom(next);
    setClamped({ x: frame.w / 2 - cx * now, y: frame.h / 2 - cy * now }, next);
  };

  const upload = useMutation({
    mutationFn: () => {
      if (!natural) throw new Error('image not loaded');
      const crop = cropOf(natural, frame, zoom, offset);
      return api('user.profileImage', { kind, ...crop }, { files: [file] });
    },
    onSuccess: (profile) => {
      useSession.getState().setProfile(profile);
      client.setQueryData(['user.profile'], profile);
      void client.invalidateQueries({ queryKey: ['creator.profile'] });
      onClose();
    },
  });

  return (
    <Modal
      open
      onClose={onClose}
      title={kind === 'avatar' ? t('adjust.avatarTitle') : t('adjust.coverTitle')}
      testId="image-adjust-editor"
      footer={
        <div className="button-row">
          <button type="button" className="button" onClick={onClose}>
            {t('confirm.cancel')}
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={!natural || upload.isPending}
            onClick={() => upload.mutate()}
            data-testid="image-adjust-save"
          >
            {upload.isPending ? t('adjust.saving') : t('adjust.save')}
          </button>
        </div>
      }
    >
      <p className="muted">{t('adjust.help')}</p>
      <div
        ref={frameRef}
        className={`adjust-frame adjust-frame--${kind}`}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          drag.current = { x: event.clientX, y: event.clientY, ox: offset.x, oy: offset.y };
        }}
        onPointerMove={(event) => {
          const from = drag.current;
          if (!from) return;
          setClamped({ x: from.ox + event.clientX - from.x, y: from.oy + event.clientY - from.y });
        }}
        onPointerUp={() => {
          drag.current = null;
        }}
        onWheel={(event) => changeZoom(zoom - event.deltaY / 500)}
        onKeyDown={(event) => {
          const step = 10;
          if (event.key === 'ArrowLeft') setClamped({ x: offset.x + step, y: offset.y });
          if (event.key === 'ArrowRight') setClamped({ x: offset.x - step, y: offset.y });
          if (event.key === 'ArrowUp') setClamped({ x: offset.x, y: offset.y + step });
          if (event.key === 'ArrowDown') setClamped({ x: offset.x, y: offset.y - step });
        }}
        role="application"
        aria-label={t('adjust.frame')}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the frame is operated with the arrow keys.
        tabIndex={0}
      >
        <img
          src={url}
          alt=""
          draggable={false}
          onLoad={(event) => {
            const img = event.currentTarget;
            const n = { w: img.naturalWidth, h: img.naturalHeight };
            setNatural(n);
            const s = Math.max(frame.w / n.w, frame.h / n.h);
            setOffset({ x: (frame.w - n.w * s) / 2, y: (frame.h - n.h * s) / 2 });
          }}
          style={
            natural
              ? {
                  width: natural.w * scale,
                  height: natural.h * scale,
                  transform: `translate(${offset.x}px, ${offset.y}px)`,
                }
              : { opacity: 0 }
          }
        />
      </div>
      <label className="field adjust-zoom">
        <span className="field__label">{t('adjust.zoom')}</span>
        <input
          type="range"
          min={1}
          max={4}
          step={0.01}
          value={zoom}
          onChange={(e) => changeZoom(Number(e.target.value))}
          data-testid="image-adjust-zoom"
        />
      </label>
      {upload.isError && <Alert>{errorText(upload.error)}</Alert>}
    </Modal>
  );
}
