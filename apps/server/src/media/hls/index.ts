/**
 * Protected HLS delivery (ADR 0021), one module for uploaded videos and live streams:
 *
 * - `HlsSigner`: session-bound, short-lived HMAC signatures of playlist and key URLs.
 * - `HlsKeys`: per-stream, per-rendition AES-128 keys derived on the server (never stored with the
 *   segments), and the key-info file ffmpeg encrypts with.
 * - `rewritePlaylist` / `masterPlaylist`: stored playlists keep relative names; served ones carry
 *   signed key and playlist URLs and (CDN) segment URLs.
 * - `HlsDelivery`: the routes (master, rendition playlist, key, segment) over any `HlsSource`
 *   (`addSource({kind: 'live', …})` for live streams) and `masterUrl(kind, id, sessionId)`.
 */
export { HlsKeys } from './keys.ts';
export { masterPlaylist, type PlaylistUris, rewritePlaylist, variantNames } from './playlist.ts';
export { HlsDelivery, type HlsSessions, type HlsSource, PLAYLIST_TYPE } from './routes.ts';
export { type HlsGrant, HlsSigner, type HlsTarget } from './signing.ts';
