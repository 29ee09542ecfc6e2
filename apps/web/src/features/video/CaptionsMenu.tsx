import type { VideoPlay } from '@fanverse/contract';
import { type RefObject, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The fan's captions choice (a language, or `off`), per browser, for every video. */
const CAPTIONS_KEY = 'fv:captions';

/**
 * The creator's captions of a video (ADR 0037): one `<track kind="captions">` per language inside
 * the `<video>` (a portal), the "CC" menu (Off / languages) when the player has controls, and the
 * `c` key on the player. The chosen track shows; the others are disabled (their cues not fetched).
 * Loaded with the first video that has captions, not with the feed.
 */
export default function CaptionsMenu({
  video: videoRef,
  tracks,
  menu,
}: {
  video: RefObject<HTMLVideoElement | null>;
  tracks: VideoPlay['captions'];
  menu: boolean;
}) {
  const { t } = useTranslation('video');
  const [choice, setChoice] = useState(() => globalThis.localStorage?.getItem(CAPTIONS_KEY) ?? 'off');
  // The fan's choice when this video has that language, else off.
  const on = tracks.some((c) => c.language === choice) ? choice : 'off';
  const choose = (value: string) => {
    setChoice(value);
    globalThis.localStorage?.setItem(CAPTIONS_KEY, value);
  };

  // The <track>s are added to the <video> here (React renders none inside it).
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const els = tracks.map((c) => {
      const el = document.createElement('track');
      el.kind = 'captions';
      el.src = c.url;
      if (c.language !== 'other') el.srclang = c.language;
      el.label = t(`languages.${c.language}`);
      el.dataset.language = c.language;
      video.append(el);
      return el;
    });
    return () => {
      for (const el of els) el.remove();
    };
  }, [tracks, videoRef, t]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || tracks.length === 0) return;
    for (const el of Array.from(video.querySelectorAll('track'))) {
      el.track.mode = el.dataset.language === on ? 'showing' : 'disabled';
    }
  }, [on, tracks, videoRef]);

  useEffect(() => {
    const player = videoRef.current?.parentElement;
    if (!player) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 'c' || (e.target as HTMLElement).tagName === 'SELECT') return;
      e.preventDefault();
      const next = on === 'off' ? (tracks[0]?.language ?? 'off') : 'off';
      setChoice(next);
      globalThis.localStorage?.setItem(CAPTIONS_KEY, next);
    };
    player.addEventListener('keydown', onKey);
    return () => player.removeEventListener('keydown', onKey);
  }, [on, tracks, videoRef]);

  const language = (l: string) => t(`languages.${l}`);
  return (
    <>
      {menu && (
        <label className="video-player__menu">
          <span className="video-player__cc" aria-hidden="true">
            CC
          </span>
          <span className="sr-only">{t('captions')}</span>
          <select value={on} onChange={(e) => choose(e.target.value)} data-testid="video-captions">
            <option value="off">{t('captionsOff')}</option>
            {tracks.map((c) => (
              <option key={c.language} value={c.language}>
                {language(c.language)}
              </option>
            ))}
          </select>
        </label>
      )}
    </>
  );
}
