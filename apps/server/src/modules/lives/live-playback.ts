import fs from 'node:fs';
import { LRUCache } from 'lru-cache';
import type { LiveMarkGrid } from '../../db/schema.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { HlsSource } from '../../media/hls/index.ts';
import { LIVE_RENDITION, type LiveMedia } from '../../media/live/live-media.ts';
import type { NginxRtmpFiles } from '../../media/live/nginx-rtmp.ts';
import {
  keyedLiveSegment,
  listedWhenReady,
  viewerLivePlaylist,
  viewerVariant,
} from '../../watermark/live-mark.ts';
import type { VideoMarkKey } from '../../watermark/video-mark.ts';
import type { LiveRepository } from './live.repository.ts';

export interface LivePlaybackDeps {
  lives: Pick<LiveRepository, 'find' | 'markGrid'>;
  media: Pick<LiveMedia, 'playlistFile' | 'segmentFile'>;
  /** The external engine's files of RTMP lives (LIVE_ENGINE=nginx-rtmp, ADR 0040), if configured. */
  engine?: NginxRtmpFiles;
  /** THE live rule (access/lives.ts through LiveService): may this viewer watch now. */
  mayWatch(viewer: AuthInfo, liveId: string): Promise<boolean>;
  /** The traceable mark (ADR 0045): segment names, viewers' codes and serve records. */
  marks: {
    videoKey: VideoMarkKey;
    liveServe(fanId: string, liveId: string): Promise<{ id: string }>;
  };
}

/**
 * Lives on the protected HLS delivery (ADR 0025/0040): the `live` source. One rendition
 * (LIVE_RENDITION) per live. The delivery asks `entitled` (THE live rule) on every playlist and key
 * request; the key derives from the app secret and the live's id (LiveMedia encrypts with the
 * same), so nothing secret is stored. A live the built-in path encodes is marked (ADR 0045): each
 * viewer's playlist names, per bit period, the A or B segments of their code (a `live_serves` row,
 * made on their first playlist request); only those keyed names open a segment.
 */
export class LivePlayback {
  /** A live's grid never changes once it started: no query per playlist reload for it. */
  private readonly grids = new LRUCache<string, { grid: LiveMarkGrid | null }>({ max: 1_000 });
  /** Serve record ids by viewer and live (immutable rows): one query per viewer and live, not per reload. */
  private readonly serves = new LRUCache<string, string>({ max: 50_000 });

  constructor(private readonly deps: LivePlaybackDeps) {}

  private async grid(liveId: string): Promise<LiveMarkGrid | null> {
    const cached = this.grids.get(liveId);
    if (cached) return cached.grid;
    const grid = await this.deps.lives.markGrid(liveId);
    if (grid === undefined) return null;
    this.grids.set(liveId, { grid });
    return grid;
  }

  private async serveId(viewerId: string, liveId: string): Promise<string> {
    const key = `${viewerId}\n${liveId}`;
    const cached = this.serves.get(key);
    if (cached) return cached;
    const { id } = await this.deps.marks.liveServe(viewerId, liveId);
    this.serves.set(key, id);
    return id;
  }

  source(): HlsSource {
    const { media, marks } = this.deps;
    // An RTMP live on the external engine has its files there (named by the live's id); else built-in.
    const engine = (id: string) => (this.deps.engine?.has(id) ? this.deps.engine : undefined);
    const on = async (id: string, rendition: string) =>
      rendition === LIVE_RENDITION && (await this.deps.lives.find(id))?.status === 'live';
    return {
      kind: 'live',
      entitled: async (viewer, id, rendition) =>
        (rendition === LIVE_RENDITION || rendition === '-') && (await this.deps.mayWatch(viewer, id)),
      master: async () => null,
      playlist: async (id, rendition, viewer) => {
        if (rendition !== LIVE_RENDITION) return null;
        const fromEngine = engine(id);
        if (fromEngine) return fromEngine.playlist(id);
        const grid = await this.grid(id);
        const file = media.playlistFile(id);
        const text = file ? await fs.promises.readFile(file, 'utf8').catch(() => null) : null;
        if (text === null) return null;
        // ffmpeg rounds a 0.5 s target duration down to 0; RFC 8216 wants the longest segment, rounded up.
        const template = text.replace(/^#EXT-X-TARGETDURATION:0$/m, '#EXT-X-TARGETDURATION:1');
        // Without a code (a live started before lives were marked: no grid) every segment is variant A.
        const serveId = grid && viewer ? await this.serveId(viewer.userId, id) : null;
        const variantOf = grid && serveId ? viewerVariant(marks.videoKey, grid, serveId) : () => 'a' as const;
        const ready = listedWhenReady(template, (n) => !!media.segmentFile(id, variantOf(n), n));
        return viewerLivePlaylist(ready, { key: marks.videoKey, liveId: id, rendition, variantOf });
      },
      key: async (id, rendition) => {
        const fromEngine = engine(id);
        return fromEngine && (await on(id, rendition)) ? fromEngine.key(id) : null;
      },
      keyId: async (id, rendition) => ((await on(id, rendition)) ? id : null),
      segment: async (id, rendition, name) => {
        if (rendition !== LIVE_RENDITION) return null;
        const fromEngine = engine(id);
        const keyed = fromEngine ? null : keyedLiveSegment(marks.videoKey, id, rendition, name);
        const file = fromEngine
          ? fromEngine.segment(id, name)
          : keyed && media.segmentFile(id, keyed.variant, keyed.index);
        const stat = file ? await fs.promises.stat(file).catch(() => null) : null;
        if (!file || !stat) return null;
        return {
          size: stat.size,
          contentType: 'video/mp2t',
          open: async () => fs.createReadStream(file),
        };
      },
    };
  }
}
