import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ANALYSIS } from '../watermark/video-mark.ts';
import { extractFrame, type FfmpegPaths, type MediaInfo, probe } from './ffmpeg.ts';
import { HlsKeys } from './hls/keys.ts';
import { type Rendition as ImageRendition, processImage } from './processors.ts';
import {
  fitLadder,
  type MarkFrames,
  MP4_FALLBACK_MAX_SECONDS,
  type Sprite,
  thumbnailSprite,
  transcodeHls,
} from './transcode.ts';

/**
 * What the server keeps about a transcoded video, in `media.info.video` (never sent to clients:
 * the presenter sends `streams` and `format` only). Storage layout under the media prefix (in the
 * encoding's `folder` when it has one): `hls/master.m3u8`, `hls/<rendition>/index.m3u8`,
 * `hls/<rendition>/seg_NNNNN.ts`, `sprite.jpg`; beside them `web.mp4` (short clips).
 */
export const videoManifestSchema = z.object({
  /** Derives every rendition's AES-128 key (HlsKeys); new for each encoding. */
  keyId: z.string(),
  /**
   * Where this encoding's files are, under the media prefix: absent for the upload's own encoding,
   * `v/<keyId>` for a re-encoding (the mark backfill), written beside the encoding it replaces.
   */
  folder: z.string().nullish(),
  renditions: z.array(
    z.object({
      name: z.string(),
      width: z.number(),
      height: z.number(),
      bandwidth: z.number(),
      segments: z.number(),
    }),
  ),
  /**
   * The free preview (`hls/preview/`, its own key, not in the master playlist), if encoded;
   * `marked`: in A/B variants like the renditions (`hls/preview/a/`, `hls/preview/b/`, ADR 0041).
   */
  preview: z.object({ seconds: z.number(), segments: z.number(), marked: z.boolean().optional() }).nullish(),
  /**
   * Forensic A/B marking (ADR 0041): each rendition's segments exist as `hls/<r>/a/` and `hls/<r>/b/`
   * (`segments` of them, `segmentSeconds` long), `hls/<r>/index.m3u8` is the template a fan's
   * playlist is made from, and `mark/ref.gray` the tracer's reference (`frames` grey frames).
   */
  mark: z.object({ segmentSeconds: z.number(), frames: z.number() }).nullish(),
  sprite: z
    .object({
      interval: z.number(),
      count: z.number(),
      columns: z.number(),
      tileWidth: z.number(),
      tileHeight: z.number(),
    })
    .nullable(),
});
export type VideoManifest = z.infer<typeof videoManifestSchema>;

/** The manifest of a media row's info, or null (images, videos from before HLS). */
export function videoManifest(info: unknown): VideoManifest | null {
  return encodingAt(info, 'video');
}

/**
 * Where a media row's info keeps an encoding: `video` is the one served; while the mark backfill
 * re-encodes a video, `pendingVideo` is the re-encoding being stored and, after the switch,
 * `replacedVideo` the old one until its files are deleted.
 */
export type EncodingSlot = 'video' | 'pendingVideo' | 'replacedVideo';

/** Every encoding whose files a media row holds (the served one, a pending and a replaced one). */
export function storedEncodings(info: unknown): VideoManifest[] {
  return (['video', 'pendingVideo', 'replacedVideo'] as const)
    .map((slot) => encodingAt(info, slot))
    .filter((m) => m !== null);
}

/** The encoding in one slot of a media row's info, or null. */
export function encodingAt(info: unknown, slot: EncodingSlot): VideoManifest | null {
  const video = (info as Record<string, unknown> | null)?.[slot];
  if (video === null || typeof video !== 'object') return null;
  // The same stored info (a cached feed page's row) is parsed once, not on every presentation.
  const known = parsedManifests.get(video);
  if (known !== undefined) return known;
  const parsed = videoManifestSchema.safeParse(video);
  const manifest = parsed.success ? parsed.data : null;
  parsedManifests.set(video, manifest);
  return manifest;
}
const parsedManifests = new WeakMap<object, VideoManifest | null>();

/** A video encoded in marked A/B variants (ADR 0041): only its owner gets the MP4 or the original. */
export function isMarkedVideo(row: { kind: string; info: unknown }): boolean {
  return row.kind === 'video' && !!videoManifest(row.info)?.mark;
}

/** The rendition name of a video's free preview (its own playlist and key; not in the master). */
export const PREVIEW_RENDITION = 'preview';

/**
 * Whether a rendition's segments exist in marked A/B variants, served per fan (ADR 0041): every
 * rendition of a marked video, and its free preview when that was encoded marked too.
 */
export function isMarkedRendition(m: VideoManifest, rendition: string): boolean {
  return !!m.mark && (rendition !== PREVIEW_RENDITION || !!m.preview?.marked);
}

/**
 * Storage keys of a transcoded video's HLS files, sprite and mark reference, relative to its media
 * prefix (in the encoding's folder).
 */
export function videoFileNames(m: VideoManifest): string[] {
  const names = ['hls/master.m3u8'];
  const segments = (rendition: string, count: number) => {
    names.push(`hls/${rendition}/index.m3u8`);
    const marked = isMarkedRendition(m, rendition);
    for (const dir of marked ? [`${rendition}/a`, `${rendition}/b`] : [rendition])
      for (let i = 0; i < count; i++) names.push(`hls/${dir}/${segmentName(i)}`);
  };
  for (const r of m.renditions) segments(r.name, r.segments);
  if (m.mark) names.push(MARK_REFERENCE);
  if (m.preview) segments(PREVIEW_RENDITION, m.preview.segments);
  if (m.sprite) names.push('sprite.jpg');
  return names.map((name) => inFolder(m, name));
}

/** A file of the encoding by its name in the encoding (`hls/240p/index.m3u8`), under the media prefix. */
export const inFolder = (m: Pick<VideoManifest, 'folder'>, name: string): string =>
  m.folder ? `${m.folder}/${name}` : name;

/** The tracer's reference of a marked video (grey frames, see watermark/video-mark.ts). */
export const MARK_REFERENCE = 'mark/ref.gray';

export const segmentName = (i: number) => `seg_${String(i).padStart(5, '0')}.ts`;

export interface TranscodedVideo {
  poster: ImageRendition;
  thumb: ImageRendition;
  blur: ImageRendition;
  info: MediaInfo & { video: VideoManifest };
  width: number;
  height: number;
  /** Local files to store: name relative to the media prefix (in the encoding's folder) → path. */
  files: Map<string, string>;
  /** The faststart MP4 fallback (short clips), or null. */
  mp4: string | null;
}

/**
 * Probes the source (it fails here when it cannot be decoded), grabs the poster, encodes the
 * encrypted HLS ladder and the MP4 fallback, and draws the seek thumbnail sprite. Files go to
 * `workDir`; progress as percents from 25 to 90.
 */
export async function transcodeVideo(
  paths: FfmpegPaths,
  input: string,
  workDir: string,
  opts: {
    keys: HlsKeys;
    mediaId: string;
    onStep?: (percent: number) => void;
    preset?: string;
    /** Seconds of free preview to encode (0 or absent: none; never longer than the video). */
    previewSeconds?: number;
    /** Mark the renditions and the preview (A/B variants, ADR 0041). */
    mark?: MarkFrames;
    /** A re-encoding of a stored video: its files go to the folder `v/<keyId>`, beside the old ones. */
    reencoding?: boolean;
    /** Encode the MP4 fallback of short clips (default true). */
    mp4?: boolean;
    /** Run ffmpeg at the lowest CPU priority (background work that must not slow uploads down). */
    lowPriority?: boolean;
  },
): Promise<TranscodedVideo> {
  const probed = await probe(paths, input);
  if (!probed.hasVideo || !probed.width || !probed.height) throw new Error('no video stream');
  const duration = probed.info.format.duration;
  const hasAudio = probed.info.streams.some((s) => s.codec_type === 'audio');
  const frame = path.join(workDir, 'frame.png');
  await extractFrame(paths, input, frame, duration);
  const images = await processImage(frame);
  opts.onStep?.(30);
  const renditions = fitLadder(probed.width, probed.height);
  const keyId = HlsKeys.newKeyId();
  const hlsDir = path.join(workDir, 'hls');
  // A preview as long as the video would be the whole video: none then.
  const previewSeconds =
    opts.previewSeconds && duration && opts.previewSeconds < duration ? opts.previewSeconds : 0;
  const out = await transcodeHls(paths, input, hlsDir, {
    renditions,
    keyOf: (name) => opts.keys.key('video', opts.mediaId, name, keyId),
    duration,
    hasAudio,
    mp4: opts.mp4 !== false && duration !== null && duration <= MP4_FALLBACK_MAX_SECONDS,
    previewSeconds,
    preset: opts.preset,
    mark: opts.mark,
    lowPriority: opts.lowPriority,
    onProgress: (f) => opts.onStep?.(30 + Math.round(f * 55)),
  });
  let sprite: Sprite | null = null;
  if (duration && duration > 0) {
    sprite = await thumbnailSprite(
      paths,
      input,
      path.join(workDir, 'sprite.jpg'),
      {
        width: probed.width,
        height: probed.height,
        duration,
      },
      opts.lowPriority,
    );
  }
  opts.onStep?.(90);
  // Marked renditions (and preview) have their segments in `a/` and `b/`.
  const countSegments = async (name: string) =>
    (await fs.promises.readdir(path.join(hlsDir, name, opts.mark ? 'a' : ''))).filter((f) =>
      f.endsWith('.ts'),
    ).length;
  const referenceFrames = out.reference
    ? Math.floor((await fs.promises.stat(out.reference)).size / (ANALYSIS.width * ANALYSIS.height))
    : 0;
  const manifest: VideoManifest = {
    keyId,
    folder: opts.reencoding ? `v/${keyId}` : null,
    preview: out.preview
      ? { seconds: previewSeconds, segments: await countSegments(PREVIEW_RENDITION), marked: !!opts.mark }
      : null,
    mark: opts.mark ? { segmentSeconds: opts.mark.segmentSeconds, frames: referenceFrames } : null,
    renditions: await Promise.all(
      renditions.map(async (r) => ({
        name: r.name,
        width: r.width,
        height: r.height,
        bandwidth: r.bandwidth,
        segments: await countSegments(r.name),
      })),
    ),
    sprite: sprite
      ? {
          interval: sprite.interval,
          count: sprite.count,
          columns: sprite.columns,
          tileWidth: sprite.tileWidth,
          tileHeight: sprite.tileHeight,
        }
      : null,
  };
  const files = new Map<string, string>();
  for (const name of videoFileNames({ ...manifest, folder: null })) {
    files.set(
      inFolder(manifest, name),
      name === 'sprite.jpg'
        ? path.join(workDir, 'sprite.jpg')
        : name === MARK_REFERENCE
          ? (out.reference as string)
          : path.join(workDir, name),
    );
  }
  return {
    poster: images.web,
    thumb: images.thumb,
    blur: images.blur,
    info: { ...probed.info, video: manifest },
    width: probed.width,
    height: probed.height,
    files,
    mp4: out.mp4,
  };
}
