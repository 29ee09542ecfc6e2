import type { Media } from '@fanverse/contract';
import { EVERYONE, mustMark } from '../access/index.ts';
import { captionsOf } from './captions.ts';
import type { MediaRow } from './media.repository.ts';
import { variantKey } from './media.service.ts';
import type { UrlSigner, Variant } from './signing.ts';
import { isMarkedVideo, videoManifest } from './video.ts';

/** The contract's `info`: streams and duration; the server's HLS manifest stays inside. */
function publicInfo(info: unknown): Media['info'] {
  if (!info || typeof info !== 'object') return null;
  const { streams, format } = info as NonNullable<Media['info']>;
  return { streams, format };
}

/**
 * Row → contract `Media`. With access: signed URLs of the web version (re-encoded image, or the
 * video without metadata), thumbnail and poster, the pictures signed for `viewerId` so they carry
 * that viewer's mark. Without: only the blurred preview, `locked: true`. No URL is valid past
 * `until` (when the viewer's sight of the file ends: a story's end, `mediaSeenUntil`).
 */
export function presentMedia(
  row: MediaRow,
  access: boolean,
  signer: UrlSigner,
  viewerId: string | null,
  until: Date | null = null,
): Media {
  // Marked renditions are signed for the viewer, whose mark they carry (ADR 0026).
  const url = (key: string | null, variant: Variant) => {
    if (!key) return null;
    // A marked video's MP4 and original (ADR 0041, 0043): only its owner and visitors of a video free
    // to everyone (signed for EVERYONE, ADR 0038); fans on every surface (posts, stories, messages)
    // get only the marked HLS (media.play).
    if (isMarkedVideo(row) && (variant === 'web' || variant === 'original'))
      return viewerId && (viewerId === row.ownerId || viewerId === EVERYONE)
        ? signer.url(row.id, variant, viewerId, until)
        : null;
    if (!mustMark(row, variant)) return signer.url(row.id, variant, undefined, until);
    return viewerId ? signer.url(row.id, variant, viewerId, until) : null;
  };
  const type = row.kind === 'video' ? 'video' : 'image';
  const base = {
    _id: row.id,
    type,
    status: row.status as Media['status'],
    blur: url(row.blurKey, 'blur'),
    width: row.width,
    height: row.height,
    info: publicInfo(row.info),
    preview: videoManifest(row.info)?.preview?.seconds ?? 0,
    captions: captionsOf(row.captions).map((t) => t.language),
  } as const;
  if (!access) {
    return { ...base, src: null, thumb: null, poster: null, mediaPoster: null, location: null, locked: true };
  }
  // Videos play through HLS (media.play); `src` is the MP4 fallback of short clips, or for videos
  // from before HLS their metadata-free copy (the original only when none could be made).
  const src =
    type === 'video' && row.webKey === null
      ? url(variantKey(row, 'original'), 'original')
      : url(row.webKey, 'web');
  const poster = url(row.posterKey, 'poster');
  return {
    ...base,
    src,
    thumb: url(row.thumbKey, 'thumb'),
    poster,
    mediaPoster: poster,
    location: src,
    locked: false,
  };
}
