import type { VideoPlay } from '@fanverse/contract';
import { EVERYONE } from '../access/index.ts';
import { AppError } from '../http/app-error.ts';
import type { AuthInfo } from '../http/guards.ts';
import type { VideoMarkKey } from '../watermark/video-mark.ts';
import { captionsOf, isCaptionLanguage } from './captions.ts';
import type { HlsDelivery, HlsSource } from './hls/routes.ts';
import type { MediaRow } from './media.repository.ts';
import type { MediaService } from './media.service.ts';
import type { UrlSigner } from './signing.ts';
import { spriteVtt } from './transcode.ts';
import {
  isMarkedRendition,
  PREVIEW_RENDITION,
  segmentName,
  type VideoManifest,
  videoManifest,
} from './video.ts';

export interface VideoPlaybackDeps {
  media: MediaService;
  hls: HlsDelivery;
  signer: UrlSigner;
  /** The access module's answer for this viewer and file (posts: subscription, unlock, owner, staff). */
  entitled(viewer: AuthInfo, row: MediaRow): Promise<boolean>;
  /** The access module's answer to "may this viewer see a post holding this file" (free previews). */
  previewEntitled(viewer: AuthInfo, row: MediaRow): Promise<boolean>;
  /** The access module's answer for a visitor: is the file in a post free to everyone (ADR 0038). */
  freeToEveryone(row: MediaRow): Promise<boolean>;
  /** Marked videos (ADR 0041): segment names, fans' codes and serve records. */
  marks: {
    videoKey: VideoMarkKey;
    videoServe(fanId: string, mediaId: string): Promise<{ id: string }>;
  };
}

/**
 * Uploaded videos on the protected HLS delivery: the `video` HLS source (entitlement asked on every
 * playlist and key request) and `media.play`, which hands an entitled viewer its session-bound URLs.
 */
export class VideoPlayback {
  constructor(private readonly deps: VideoPlaybackDeps) {}

  /**
   * May the viewer play this rendition now: every rendition (and the master) with access to the
   * media; the free preview also to anyone who may see a post holding it, when one was encoded.
   */
  private async mayPlay(viewer: AuthInfo, id: string, rendition: string): Promise<boolean> {
    const row = await this.deps.media.get(id);
    if (row?.kind !== 'video' || row.status !== 'ready') return false;
    if (await this.deps.entitled(viewer, row)) return true;
    return (
      rendition === PREVIEW_RENDITION &&
      !!videoManifest(row.info)?.preview &&
      (await this.deps.previewEntitled(viewer, row))
    );
  }

  source(): HlsSource {
    const { media } = this.deps;
    const manifestOf = async (id: string) => {
      const row = await media.get(id);
      return row?.status === 'ready' ? videoManifest(row.info) : null;
    };
    /** A stored text file of the video's encoding (`hls/…`), null when absent. */
    const text = async (id: string, name: string) => {
      const file = await media.videoFile(id, name);
      if (!file) return null;
      const chunks: Buffer[] = [];
      for await (const c of await file.open()) chunks.push(Buffer.from(c));
      return Buffer.concat(chunks).toString('utf8');
    };
    const hasRendition = async (id: string, rendition: string) => {
      const manifest = await manifestOf(id);
      if (rendition === PREVIEW_RENDITION) return !!manifest?.preview;
      return manifest?.renditions.some((r) => r.name === rendition) ?? false;
    };
    return {
      kind: 'video',
      entitled: (viewer, id, rendition) => this.mayPlay(viewer, id, rendition),
      freeToEveryone: async (id) => {
        const row = await media.get(id);
        return row?.kind === 'video' && row.status === 'ready' && (await this.deps.freeToEveryone(row));
      },
      master: (id) => text(id, 'hls/master.m3u8'),
      playlist: async (id, rendition, viewer) => {
        if (!(await hasRendition(id, rendition))) return null;
        const template = await text(id, `hls/${rendition}/index.m3u8`);
        const manifest = await manifestOf(id);
        if (!template || !manifest || !isMarkedRendition(manifest, rendition)) return template;
        return this.fanPlaylist(template, id, manifest, rendition, viewer);
      },
      keyId: async (id, rendition) =>
        (await hasRendition(id, rendition)) ? ((await manifestOf(id))?.keyId ?? null) : null,
      segment: async (id, rendition, name) => {
        const manifest = await manifestOf(id);
        if (!manifest || !isMarkedRendition(manifest, rendition))
          return media.videoFile(id, `hls/${rendition}/${name}`);
        // Marked: only a keyed variant name opens a segment, never the plain one.
        const index = /^seg_(\d{1,6})_[0-9a-f]{16}\.ts$/.exec(name)?.[1];
        if (index === undefined) return null;
        const variant = this.deps.marks.videoKey.variantOf(
          id,
          rendition,
          Number(index),
          name,
          manifest.folder ?? undefined,
        );
        return variant
          ? media.videoFile(id, `hls/${rendition}/${variant}/${segmentName(Number(index))}`)
          : null;
      },
      // Never the preview's: the cues of a locked video would tell its whole content (ADR 0037).
      captions: async (id, language) =>
        isCaptionLanguage(language) ? media.captionsFile(id, language) : null,
    };
  }

  /**
   * The viewer's own playlist of a marked rendition: segment i from variant A or B by bit i of the
   * code of their serve record (the same for every rendition, the preview and every session, so
   * mixing copies of one fan gains nothing), each under its keyed name. A visitor (`null`) gets
   * variant A throughout.
   */
  private async fanPlaylist(
    template: string,
    id: string,
    manifest: VideoManifest,
    rendition: string,
    viewer: AuthInfo | null,
  ) {
    const lines = template.split('\n');
    const segments = lines.filter((l) => /^seg_\d+\.ts$/.test(l.trim())).length;
    // A visitor of content free to everyone (ADR 0038/0041): no serve record, every segment from
    // variant A — a code no serve record has, so the tracer names no one from such a copy.
    const code = viewer
      ? this.deps.marks.videoKey.code((await this.deps.marks.videoServe(viewer.userId, id)).id, segments)
      : [];
    return lines
      .map((line) => {
        const m = /^seg_(\d+)\.ts$/.exec(line.trim());
        if (!m) return line;
        const i = Number(m[1]);
        return this.deps.marks.videoKey.segmentName(
          id,
          rendition,
          i,
          code[i] ?? 'a',
          manifest.folder ?? undefined,
        );
      })
      .join('\n');
  }

  /**
   * The caller's playback URLs. Without access to the media: the free preview's playlist when the
   * creator allowed one and the caller may see the post, else FORBIDDEN (the blurred poster shows).
   */
  async play(viewer: AuthInfo | null, id: string): Promise<VideoPlay> {
    const row = await this.deps.media.get(id);
    if (row?.kind !== 'video') throw new AppError('NOT_FOUND');
    if (!viewer) return this.visitorPlay(row);
    const manifest = videoManifest(row.info);
    const { signer, hls } = this.deps;
    if (!(await this.deps.entitled(viewer, row))) {
      if (row.status !== 'ready' || !manifest?.preview || !(await this.deps.previewEntitled(viewer, row)))
        throw new AppError('FORBIDDEN');
      return {
        _id: row.id,
        hls: hls.playlistUrl('video', row.id, PREVIEW_RENDITION, viewer.sessionId),
        mp4: null,
        poster: this.deps.media.present(row, false, viewer.userId).blur,
        thumbnails: null,
        captions: [],
        duration: manifest.preview.seconds,
        width: row.width,
        height: row.height,
        renditions: [],
        expiresIn: hls.ttlSeconds,
        preview: true,
      };
    }
    if (row.status !== 'ready') throw new AppError('NOT_FOUND');
    const duration = (row.info as { format?: { duration?: number | null } } | null)?.format?.duration ?? null;
    const presented = this.deps.media.present(row, true, viewer.userId);
    return {
      _id: row.id,
      hls: manifest ? hls.masterUrl('video', row.id, viewer.sessionId) : null,
      mp4: presented.src,
      poster: presented.poster,
      thumbnails:
        manifest?.sprite && duration
          ? spriteVtt(manifest.sprite, signer.url(row.id, 'sprite'), duration)
          : null,
      captions: captionsOf(row.captions).map((t) => ({
        language: t.language,
        url: hls.captionsUrl('video', row.id, t.language, viewer.sessionId),
      })),
      duration,
      width: row.width,
      height: row.height,
      renditions: (manifest?.renditions ?? []).map((r) => ({
        name: r.name,
        width: r.width,
        height: r.height,
      })),
      expiresIn: hls.ttlSeconds,
      preview: false,
    };
  }

  /**
   * A visitor (ADR 0038): a video free to everyone plays through the HLS player with URLs signed
   * for `EVERYONE` (answered only while it stays free to everyone: `source().freeToEveryone`), its
   * MP4 fallback when it has one (short clips), poster, seek strip and captions; anything else asks
   * to sign in (the blurred poster shows).
   */
  private async visitorPlay(row: MediaRow): Promise<VideoPlay> {
    if (row.status !== 'ready' || !(await this.deps.freeToEveryone(row)))
      throw new AppError('UNAUTHENTICATED');
    const { hls, signer } = this.deps;
    const presented = this.deps.media.present(row, true, EVERYONE);
    const manifest = videoManifest(row.info);
    if (!manifest && !presented.src) throw new AppError('UNAUTHENTICATED');
    const duration = (row.info as { format?: { duration?: number | null } } | null)?.format?.duration ?? null;
    return {
      _id: row.id,
      hls: manifest ? hls.masterUrl('video', row.id, EVERYONE) : null,
      mp4: presented.src,
      poster: presented.poster,
      thumbnails:
        manifest?.sprite && duration
          ? spriteVtt(manifest.sprite, signer.url(row.id, 'sprite'), duration)
          : null,
      captions: captionsOf(row.captions).map((t) => ({
        language: t.language,
        url: hls.captionsUrl('video', row.id, t.language, EVERYONE),
      })),
      duration,
      width: row.width,
      height: row.height,
      renditions: (manifest?.renditions ?? []).map((r) => ({
        name: r.name,
        width: r.width,
        height: r.height,
      })),
      expiresIn: hls.ttlSeconds,
      preview: false,
    };
  }
}
