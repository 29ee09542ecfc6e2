/**
 * Rewrites the URIs of an HLS playlist (RFC 8216). Stored playlists carry relative names
 * (`480p/index.m3u8`, `seg_00001.ts`, `key`); each time one is served, variant playlists and keys
 * become signed, session-bound URLs of the app and segments become (CDN) segment URLs.
 */
export interface PlaylistUris {
  /** A variant stream's playlist (master playlists), or an EXT-X-MEDIA / EXT-X-I-FRAME URI. */
  variant?(uri: string): string;
  /** A media segment (and EXT-X-MAP init section). */
  segment?(uri: string): string;
  /** The URI of an EXT-X-KEY / EXT-X-SESSION-KEY line. */
  key?(uri: string): string;
}

const URI_ATTR = /URI="([^"]*)"/;

export function rewritePlaylist(text: string, uris: PlaylistUris): string {
  const lines = text.split(/\r?\n/);
  const isMaster = lines.some((l) => l.startsWith('#EXT-X-STREAM-INF'));
  const plain = isMaster ? uris.variant : uris.segment;
  return lines
    .map((line) => {
      if (line === '') return line;
      if (!line.startsWith('#')) return plain ? plain(line.trim()) : line;
      const attr = (fn: ((uri: string) => string) | undefined) =>
        fn ? line.replace(URI_ATTR, (_m, uri: string) => `URI="${fn(uri)}"`) : line;
      if (line.startsWith('#EXT-X-KEY:') || line.startsWith('#EXT-X-SESSION-KEY:')) return attr(uris.key);
      if (line.startsWith('#EXT-X-MAP:')) return attr(uris.segment);
      if (line.startsWith('#EXT-X-MEDIA:') || line.startsWith('#EXT-X-I-FRAME-STREAM-INF:'))
        return attr(uris.variant);
      return line;
    })
    .join('\n');
}

/** The rendition names a master playlist references (`480p/index.m3u8` → `480p`). */
export function variantNames(master: string): string[] {
  return master
    .split(/\r?\n/)
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('/')[0] ?? l);
}

/** A master playlist over renditions, each as `<name>/index.m3u8`. */
export function masterPlaylist(
  renditions: readonly { name: string; bandwidth: number; width: number; height: number; codecs: string }[],
): string {
  const out = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const r of renditions) {
    out.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${r.bandwidth},RESOLUTION=${r.width}x${r.height},CODECS="${r.codecs}",NAME="${r.name}"`,
      `${r.name}/index.m3u8`,
    );
  }
  return `${out.join('\n')}\n`;
}
