import { TOKEN_HEADER } from '@fanverse/contract';
import Hls from 'hls.js';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { readToken } from '../../app/session.store.ts';
import { LIVE_HLS_CONFIG } from './live-hls.ts';

/** How often the live page asks for a fresh signed playlist URL (HLS_URL_TTL_SECONDS is longer). */
export const LIVE_URL_REFRESH_MS = 60_000;

/**
 * Plays a live on the protected HLS delivery (ADR 0021, source `live`): `src` is a signed playlist
 * URL bound to this session and short-lived, so the page hands a fresh one every minute and every
 * reload of the rolling playlist uses the newest (no restart of the player). Playlist and key
 * requests carry the session token; the server checks the signature, the session and the live's
 * entitlement rule on each. Segments are AES-128 encrypted and public.
 *
 * Low latency: ffmpeg writes short segments with a key frame each; the player's hold-back and
 * catch-up are in LIVE_HLS_CONFIG (live-hls.ts), which the latency benchmark uses too.
 */
export function LivePlayer({ src, title }: { src: string; title: string }) {
  const { t } = useTranslation('live');
  const video = useRef<HTMLVideoElement>(null);
  const latest = useRef(src);
  latest.current = src;
  const path = src.split('?')[0] ?? src;
  useEffect(() => {
    const el = video.current;
    if (!el || !Hls.isSupported()) return;
    const hls = new Hls({
      ...LIVE_HLS_CONFIG,
      xhrSetup: (xhr, url) => {
        const target = new URL(url, window.location.href);
        if (!target.pathname.startsWith('/api/v1/hls/')) return;
        // The rolling playlist: always with the newest signature.
        if (target.pathname === path) xhr.open('GET', latest.current, true);
        const token = readToken();
        if (token && !/\/seg_\d+\.ts$/.test(target.pathname)) xhr.setRequestHeader(TOKEN_HEADER, token);
      },
    });
    hls.on(Hls.Events.ERROR, (_e, data) => {
      if (!data.fatal) return;
      // The first segments are still being encoded right after going live: ask again shortly.
      if (data.details === Hls.ErrorDetails.MANIFEST_LOAD_ERROR)
        setTimeout(() => hls.loadSource(latest.current), 1000);
      else if (data.type === Hls.ErrorTypes.NETWORK_ERROR) setTimeout(() => hls.startLoad(), 1000);
      else if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
    });
    hls.loadSource(latest.current);
    hls.attachMedia(el);
    hls.on(Hls.Events.MANIFEST_PARSED, () => {
      el.muted = true;
      void el.play().catch(() => undefined);
    });
    return () => hls.destroy();
  }, [path]);
  return (
    <video
      ref={video}
      className="live__video"
      controls
      muted
      playsInline
      aria-label={t('watch.videoOf', { title })}
      data-testid="live-video"
    />
  );
}
