import type { Media } from '@fanverse/contract';
import type { MediaRow } from './media.repository.ts';
import type { UrlSigner, Variant } from './signing.ts';

/**
 * Row → contract `Media`. With access: signed URLs of the web version (re-encoded image, or the
 * video without metadata), thumbnail and poster. Without: only the blurred preview, `locked: true`.
 */
export function presentMedia(row: MediaRow, access: boolean, signer: UrlSigner): Media {
  const url = (key: string | null, variant: Variant) => (key ? signer.url(row.id, variant) : null);
  const type = row.kind === 'video' ? 'video' : 'image';
  const base = {
    _id: row.id,
    type,
    status: row.status as Media['status'],
    blur: url(row.blurKey, 'blur'),
    width: row.width,
    height: row.height,
    info: (row.info as Media['info']) ?? null,
  } as const;
  if (!access) {
    return { ...base, src: null, thumb: null, poster: null, mediaPoster: null, location: null, locked: true };
  }
  // Videos play from their metadata-free copy; the original only when none could be made.
  const src =
    type === 'video' && row.webKey === null ? url(row.originalKey, 'original') : url(row.webKey, 'web');
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
