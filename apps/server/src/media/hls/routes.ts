import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EVERYONE } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import { extractToken } from '../../http/auth.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { MediaFile } from '../media.service.ts';
import type { HlsKeys } from './keys.ts';
import { rewritePlaylist } from './playlist.ts';
import type { HlsGrant, HlsSigner, HlsTarget } from './signing.ts';

/**
 * One family of HLS streams (`video`: uploaded videos, `live`: live streams). The delivery module
 * asks it for stored playlists and segments and, on EVERY playlist and key request, whether the
 * viewer may play the stream now.
 */
export interface HlsSource {
  kind: string;
  /** The viewer may play this rendition now (subscription, unlock, owner, staff: the access module). */
  entitled(viewer: AuthInfo, id: string, rendition: string): Promise<boolean>;
  /**
   * Whether a visitor (no session, URLs signed for `EVERYONE`, ADR 0038) may play this stream now:
   * only when it is content free to everyone (the access module). Asked on every playlist and key
   * request of a visitor's URL; a source without it never answers a visitor (live streams).
   */
  freeToEveryone?(id: string): Promise<boolean>;
  /** The stored master playlist (relative variant names `<rendition>/index.m3u8`), or null. */
  master(id: string, viewer: AuthInfo | null): Promise<string | null>;
  /**
   * A rendition's playlist (relative segment names, key URI `key`), or null. It may be the viewer's
   * own (marked videos: each segment from variant A or B by the viewer's code, ADR 0041); `null`
   * is a visitor of content free to everyone.
   */
  playlist(id: string, rendition: string, viewer: AuthInfo | null): Promise<string | null>;
  /** The key id the rendition's AES-128 key derives from (see HlsKeys), or null when not encrypted. */
  keyId(id: string, rendition: string): Promise<string | null>;
  /**
   * The key bytes when the source's packager made its own key (an external engine, ADR 0040);
   * null: the key derives from `keyId` (HlsKeys).
   */
  key?(id: string, rendition: string): Promise<Buffer | null>;
  /** An (encrypted) segment; served publicly, so a CDN can cache it. */
  segment(id: string, rendition: string, name: string): Promise<MediaFile | null>;
  /**
   * A WebVTT captions track by language (ADR 0037), or null. Served like keys: signed,
   * session-bound, and `entitled(viewer, id, language)` asked on every request.
   */
  captions?(id: string, language: string): Promise<MediaFile | null>;
}

/** How the delivery module learns who is asking. */
export interface HlsSessions {
  /** The session of a request token, or null (unknown, revoked). */
  authenticate(token: string): Promise<AuthInfo | null>;
  /** An active session by id (a player without headers, e.g. Safari's native HLS), or null. */
  byId(sessionId: string): Promise<AuthInfo | null>;
}

const ID = /^[0-9a-zA-Z-]{1,64}$/;
const RENDITION = /^[0-9a-z]{1,16}$/;
/** `seg_00001.ts`, or a marked video's keyed variant name `seg_00001_<16 hex>.ts` (ADR 0041). */
const SEGMENT = /^(seg_\d{1,6}(_[0-9a-f]{16})?\.(ts|m4s)|init\.mp4)$/;
export const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';

/**
 * Protected HLS delivery (ADR 0021), shared by uploaded videos and live streams:
 *
 * - `masterUrl(kind, id, sessionId)`: a signed, short-lived, session-bound URL of a master playlist;
 *   give it to the player of an entitled viewer.
 * - `GET /api/v1/hls/:kind/:id/master.m3u8` and `…/:rendition/index.m3u8`: playlists, served with
 *   their URIs rewritten (`rewritePlaylist`) to signed playlist / key URLs and to segment URLs.
 * - `GET …/:rendition/key`: the rendition's AES-128 key. Checks the signature, that the caller is
 *   the session the URL was minted for (a request with another session's token is refused), that
 *   the session is still active, and the source's entitlement — on every request.
 * - `GET …/:rendition/:segment`: encrypted segments, public and cacheable (through MEDIA_CDN_URL).
 */
export class HlsDelivery {
  private readonly sources = new Map<string, HlsSource>();

  constructor(
    private readonly signer: HlsSigner,
    private readonly keys: HlsKeys,
    /** Where segment URLs point: '' (the app) or the CDN origin (MEDIA_CDN_URL). */
    private readonly segmentOrigin: string = '',
  ) {}

  /** Seconds a signed playlist or key URL stays valid. */
  get ttlSeconds(): number {
    return this.signer.ttlSeconds;
  }

  addSource(source: HlsSource): void {
    this.sources.set(source.kind, source);
  }

  private path(kind: string, id: string, rendition: string | null, file: string): string {
    const r = rendition ? `/${encodeURIComponent(rendition)}` : '';
    return `/api/v1/hls/${encodeURIComponent(kind)}/${encodeURIComponent(id)}${r}/${file}`;
  }

  private signed(g: HlsGrant, file: string): string {
    const rendition = g.target === 'master' ? null : g.rendition;
    return `${this.path(g.kind, g.id, rendition, file)}?${this.signer.query(g)}`;
  }

  /**
   * The signed master playlist URL for one session (relative to the app), or for a visitor with
   * `EVERYONE` (answered only while the stream is free to everyone, `HlsSource.freeToEveryone`).
   */
  masterUrl(kind: string, id: string, sessionId: string): string {
    return this.signed({ kind, id, rendition: '-', target: 'master', sessionId }, 'master.m3u8');
  }

  /** The signed playlist URL of one rendition (e.g. a preview-only stream, without a master). */
  playlistUrl(kind: string, id: string, rendition: string, sessionId: string): string {
    return this.signed({ kind, id, rendition, target: 'playlist', sessionId }, 'index.m3u8');
  }

  keyUrl(kind: string, id: string, rendition: string, sessionId: string): string {
    return this.signed({ kind, id, rendition, target: 'key', sessionId }, 'key');
  }

  /** The signed, session-bound URL of a captions track (for a `<track>` element: no headers). */
  captionsUrl(kind: string, id: string, language: string, sessionId: string): string {
    return this.signed({ kind, id, rendition: language, target: 'captions', sessionId }, 'captions.vtt');
  }

  segmentUrl(kind: string, id: string, rendition: string, name: string): string {
    return `${this.segmentOrigin.replace(/\/+$/, '')}${this.path(kind, id, rendition, name)}`;
  }

  registerRoutes(app: FastifyInstance, sessions: HlsSessions): void {
    type Req = FastifyRequest<{
      Params: { kind: string; id: string; rendition?: string; file?: string };
      Querystring: { sid?: string; exp?: string; sig?: string };
    }>;

    /**
     * Signature, session binding, session alive, entitlement: else FORBIDDEN. A visitor's URL
     * (signed for `EVERYONE`): signature and the stream still free to everyone, whatever token
     * comes with it (a fan's token does not make it theirs); the viewer is then `null`.
     */
    const admit = async (
      req: Req,
      target: HlsTarget,
      rendition: string,
    ): Promise<{ source: HlsSource; viewer: AuthInfo | null; sessionId: string }> => {
      const { kind, id } = req.params;
      const source = this.sources.get(kind);
      if (!source || !ID.test(id) || !RENDITION.test(rendition.replace('-', 'x')))
        throw new AppError('NOT_FOUND');
      const sid = this.signer.verify({ kind, id, rendition, target }, req.query);
      if (!sid) throw new AppError('FORBIDDEN');
      if (sid === EVERYONE) {
        if (!(await source.freeToEveryone?.(id))) throw new AppError('FORBIDDEN');
        return { source, viewer: null, sessionId: EVERYONE };
      }
      const token = extractToken(req);
      const viewer = token ? await sessions.authenticate(token) : await sessions.byId(sid);
      if (!viewer || viewer.sessionId !== sid) throw new AppError('FORBIDDEN');
      if (!(await source.entitled(viewer, id, rendition))) throw new AppError('FORBIDDEN');
      return { source, viewer, sessionId: sid };
    };

    const sendPlaylist = (reply: FastifyReply, text: string) =>
      reply.header('content-type', PLAYLIST_TYPE).header('cache-control', 'private, no-store').send(text);

    app.get('/api/v1/hls/:kind/:id/master.m3u8', async (req: Req, reply) => {
      const { source, viewer, sessionId } = await admit(req, 'master', '-');
      const { kind, id } = req.params;
      const text = await source.master(id, viewer);
      if (text === null) throw new AppError('NOT_FOUND');
      return sendPlaylist(
        reply,
        rewritePlaylist(text, {
          variant: (uri) => {
            const rendition = uri.split('/')[0] ?? '';
            return this.playlistUrl(kind, id, rendition, sessionId);
          },
        }),
      );
    });

    app.get('/api/v1/hls/:kind/:id/:rendition/index.m3u8', async (req: Req, reply) => {
      const rendition = req.params.rendition ?? '';
      const { source, viewer, sessionId } = await admit(req, 'playlist', rendition);
      const { kind, id } = req.params;
      const text = await source.playlist(id, rendition, viewer);
      if (text === null) throw new AppError('NOT_FOUND');
      return sendPlaylist(
        reply,
        rewritePlaylist(text, {
          key: () => this.keyUrl(kind, id, rendition, sessionId),
          segment: (uri) => this.segmentUrl(kind, id, rendition, uri),
        }),
      );
    });

    app.get('/api/v1/hls/:kind/:id/:rendition/key', async (req: Req, reply) => {
      const rendition = req.params.rendition ?? '';
      const { source } = await admit(req, 'key', rendition);
      const { kind, id } = req.params;
      let key = (await source.key?.(id, rendition)) ?? null;
      if (!key) {
        const keyId = await source.keyId(id, rendition);
        if (!keyId) throw new AppError('NOT_FOUND');
        key = this.keys.key(kind, id, rendition, keyId);
      }
      return reply
        .header('content-type', 'application/octet-stream')
        .header('cache-control', 'private, no-store')
        .send(key);
    });

    app.get('/api/v1/hls/:kind/:id/:rendition/captions.vtt', async (req: Req, reply) => {
      const language = req.params.rendition ?? '';
      const { source } = await admit(req, 'captions', language);
      const file = await source.captions?.(req.params.id, language);
      if (!file) throw new AppError('NOT_FOUND');
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('cache-control', 'private, no-store')
        .send(await file.open());
    });

    app.get('/api/v1/hls/:kind/:id/:rendition/:file', async (req: Req, reply) => {
      const { kind, id, rendition = '', file = '' } = req.params;
      const source = this.sources.get(kind);
      if (!source || !ID.test(id) || !RENDITION.test(rendition) || !SEGMENT.test(file))
        throw new AppError('NOT_FOUND');
      const segment = await source.segment(id, rendition, file);
      if (!segment) throw new AppError('NOT_FOUND');
      // Encrypted: public and cacheable (a CDN may keep it); useless without the key.
      return reply
        .header('content-type', segment.contentType)
        .header('content-length', String(segment.size))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(await segment.open());
    });
  }
}
