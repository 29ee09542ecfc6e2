import { type Media, TOKEN_HEADER, type VideoPlay } from '@fanverse/contract';
import { useQuery } from '@tanstack/react-query';
import type Hls from 'hls.js';
import { type KeyboardEvent, lazy, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { Boundary } from '../../app/hydration.tsx';
import { readToken } from '../../app/session.store.ts';
import './video.css';

// The seek strip is loaded with the first playable video (like hls.js), not with the feed.
const SeekStrip = lazy(() => import('./SeekStrip.tsx'));
const CaptionsMenu = lazy(() => import('./CaptionsMenu.tsx'));

/** Where the fan stopped each video (spec §2 resume), per browser. */
const RESUME_KEY = (id: string) => `fv:resume:${id}`;

export function readResume(id: string): number {
  const v = Number(globalThis.localStorage?.getItem(RESUME_KEY(id)) ?? 0);
  return Number.isFinite(v) ? v : 0;
}

/**
 * The protected playback URLs of a video (signed, session-bound, short-lived: refetched before
 * expiry). A locked video with a free preview asks for them only when `preview` is set: the server
 * then grants the preview's own playlist, never the rest.
 */
export function usePlayback(media: Media, enabled = true, preview = false) {
  return useQuery({
    queryKey: ['media.play', media._id],
    queryFn: () => api('media.play', undefined, { params: { id: media._id } }),
    enabled:
      enabled &&
      media.type === 'video' &&
      (!media.locked || (preview && media.preview > 0)) &&
      media.status === 'ready',
    staleTime: 60_000,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/**
 * Attaches a stream to a <video>: hls.js where Media Source Extensions exist (it sends the session
 * token on playlist and key requests, ADR 0021), Safari's native HLS otherwise, the MP4 fallback
 * when neither. Loaded on demand so pages without video do not download hls.js.
 */
interface AttachEvents {
  levels(list: { index: number; name: string }[]): void;
  /** A fatal error; `status` is the HTTP status when a request failed. */
  fatal(status: number | undefined): void;
}

async function attach(
  video: HTMLVideoElement,
  play: VideoPlay,
  preload: boolean,
  events: AttachEvents,
): Promise<Hls | null> {
  // hls.js is loaded on demand; play may be pressed while it downloads, so the element is read
  // only once it is here (read before the download, that press was lost: the 'play' listener
  // below was registered after it fired, and nothing started the segments).
  const HlsClass = play.hls ? (await import('hls.js')).default : null;
  // Play pressed before the stream was attached (the fan was faster than media.play and the
  // hls.js download): attaching a source runs the element's load algorithm, which pauses it and
  // drops that intent, and the one-shot 'play' listener below would never fire. Carry it over.
  const wantsPlay = !video.paused;
  const resume = () => {
    if (wantsPlay) void video.play().catch(() => undefined);
  };
  if (play.hls && HlsClass) {
    if (HlsClass.isSupported()) {
      const hls = new HlsClass({
        autoStartLoad: preload,
        capLevelToPlayerSize: true,
        xhrSetup: (xhr, url) => {
          const token = readToken();
          // Playlists and keys come from the app and check the session; segments (CDN) need nothing.
          if (token && url.includes('/api/v1/hls/') && !/\/seg_\d+\.ts/.test(url))
            xhr.setRequestHeader(TOKEN_HEADER, token);
        },
      });
      hls.on(HlsClass.Events.MANIFEST_PARSED, (_e, data) => {
        events.levels(data.levels.map((l, index) => ({ index, name: l.name || `${l.height}p` })));
      });
      hls.on(HlsClass.Events.ERROR, (_e, data) => {
        if (data.fatal) events.fatal(data.response?.code);
      });
      hls.once(HlsClass.Events.MEDIA_ATTACHED, resume);
      hls.loadSource(play.hls);
      hls.attachMedia(video);
      // Without preload, segments load once the fan presses play (the poster shows meanwhile).
      if (!preload) {
        if (wantsPlay) hls.startLoad();
        else video.addEventListener('play', () => hls.startLoad(), { once: true });
      }
      return hls;
    }
    if (video.canPlayType('application/vnd.apple.mpegurl')) {
      video.src = play.hls;
      resume();
      return null;
    }
  }
  if (play.mp4) {
    video.src = play.mp4;
    resume();
  }
  return null;
}

export interface VideoPlayerProps {
  media: Media;
  className?: string;
  autoPlay?: boolean;
  muted?: boolean;
  loop?: boolean;
  /** Start loading segments before play (reels preload the next video). */
  preload?: boolean;
  /** Native controls (false in reels, which have their own gestures). */
  controls?: boolean;
  /**
   * With controls, also the seek strip with frame previews under the picture (ADR 0037), a second
   * scrubber beside the native timeline; false where the native controls must be the only ones
   * (message bubbles, too small for both).
   */
  seekStrip?: boolean;
  /** A locked video's free preview (media.play grants only the preview's playlist). */
  preview?: boolean;
  onEnded?: () => void;
  onVideo?: (video: HTMLVideoElement | null) => void;
}

/**
 * The one video player (posts, visor, reels, lives): protected HLS with automatic quality and a
 * quality menu, poster, resume where the fan stopped, the creator's captions as `<track>`s with a
 * captions menu, a seek strip with preview thumbnails (ADR 0037), keyboard controls (space/k play,
 * ←/→ 5 s, ↑/↓ volume, m mute, c captions, f full screen), no download button and no context menu.
 */
export function VideoPlayer({
  media,
  className,
  autoPlay = false,
  muted = false,
  loop = false,
  preload = false,
  controls = true,
  seekStrip = true,
  preview = false,
  onEnded,
  onVideo,
}: VideoPlayerProps) {
  const { t } = useTranslation('content');
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const hlsRef = useRef<Hls | null>(null);
  const [levels, setLevels] = useState<{ index: number; name: string }[]>([]);
  const [level, setLevel] = useState(-1);
  const [failed, setFailed] = useState(false);
  const playback = usePlayback(media, true, preview);
  const play = playback.data;
  const { refetch } = playback;
  const selectId = useId();
  const tracks = play?.captions ?? [];

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !play) return;
    let cancelled = false;
    void attach(video, play, preload || autoPlay, {
      levels: setLevels,
      // A playlist or key URL that expired: ask for fresh URLs.
      fatal: (status) => (status === 403 ? void refetch() : setFailed(true)),
    }).then((hls) => {
      if (cancelled) hls?.destroy();
      else hlsRef.current = hls;
    });
    return () => {
      cancelled = true;
      hlsRef.current?.destroy();
      hlsRef.current = null;
    };
  }, [play, preload, autoPlay, refetch]);

  useEffect(() => {
    const video = videoRef.current;
    // A preview neither resumes nor records where the fan stopped the whole video.
    if (!video || preview) return;
    const start = readResume(media._id);
    const onMeta = () => {
      if (start > 5 && start < video.duration - 5) video.currentTime = start;
    };
    let last = 0;
    const onTime = () => {
      const now = Math.floor(video.currentTime);
      if (Math.abs(now - last) < 5) return;
      last = now;
      const ended = video.duration && now > video.duration - 5;
      localStorage.setItem(RESUME_KEY(media._id), String(ended ? 0 : now));
    };
    video.addEventListener('loadedmetadata', onMeta);
    video.addEventListener('timeupdate', onTime);
    return () => {
      video.removeEventListener('loadedmetadata', onMeta);
      video.removeEventListener('timeupdate', onTime);
    };
  }, [media._id, preview]);

  const chooseLevel = (value: number) => {
    setLevel(value);
    if (hlsRef.current) hlsRef.current.currentLevel = value;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const video = videoRef.current;
    if (!video || (e.target as HTMLElement).tagName === 'SELECT') return;
    const key = e.key.toLowerCase();
    const actions: Record<string, () => void> = {
      ' ': () => (video.paused ? void video.play() : video.pause()),
      k: () => (video.paused ? void video.play() : video.pause()),
      arrowleft: () => {
        video.currentTime = Math.max(0, video.currentTime - 5);
      },
      arrowright: () => {
        video.currentTime = Math.min(video.duration || 0, video.currentTime + 5);
      },
      arrowup: () => {
        video.volume = Math.min(1, video.volume + 0.1);
      },
      arrowdown: () => {
        video.volume = Math.max(0, video.volume - 0.1);
      },
      m: () => {
        video.muted = !video.muted;
      },
      f: () => {
        if (document.fullscreenElement) void document.exitFullscreen();
        else void video.requestFullscreen?.();
      },
    };
    const action = actions[key];
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    action();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboard shortcuts for the video inside.
    <div
      className={`video-player ${className ?? ''}`}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
      data-testid="video-player"
    >
      <video
        ref={(el) => {
          videoRef.current = el;
          onVideo?.(el);
        }}
        className="video-player__video"
        aria-label={t('player.label')}
        controls={controls}
        controlsList="nodownload noremoteplayback"
        disablePictureInPicture={false}
        playsInline
        autoPlay={autoPlay}
        muted={muted}
        loop={loop}
        onEnded={onEnded}
        preload={preload ? 'auto' : 'metadata'}
        poster={play?.poster ?? media.poster ?? media.mediaPoster ?? undefined}
        data-media-id={media._id}
        data-preview={play?.preview ? 'true' : undefined}
      />
      {play?.thumbnails && controls && seekStrip && (
        <Boundary fallback={null}>
          <SeekStrip video={videoRef} thumbnails={play.thumbnails} duration={play.duration} />
        </Boundary>
      )}
      {(failed || playback.isError) && (
        <p className="video-player__error" role="alert">
          {t('player.unavailable')}
        </p>
      )}
      {tracks.length > 0 && !controls && (
        <Boundary fallback={null}>
          <CaptionsMenu video={videoRef} tracks={tracks} menu={false} />
        </Boundary>
      )}
      {(levels.length > 1 || tracks.length > 0) && controls && (
        <div className="video-player__quality">
          {tracks.length > 0 && (
            <Boundary fallback={null}>
              <CaptionsMenu video={videoRef} tracks={tracks} menu />
            </Boundary>
          )}
          {levels.length > 1 && (
            <>
              <label htmlFor={selectId} className="sr-only">
                {t('player.quality')}
              </label>
              <select
                id={selectId}
                value={level}
                onChange={(e) => chooseLevel(Number(e.target.value))}
                data-testid="video-quality"
              >
                <option value={-1}>{t('player.auto')}</option>
                {levels.map((l) => (
                  <option key={l.index} value={l.index}>
                    {l.name}
                  </option>
                ))}
              </select>
            </>
          )}
        </div>
      )}
    </div>
  );
}
