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
 * the presenter sends `streams` and `format` only). Storage layout under the media prefix:
 * `hls/master.m3u8`, `hls/<rendition>/index.m3u8`, `hls/<rendition>/seg_NNNNN.ts`, `sprite.jpg`,
 * `web.mp4` (short clips).
 */
export const videoManifestSchema = z.object({
  /** Derives every rendition's AES-128 key (HlsKeys); new for each encoding. */
  keyId: z.string(),
  renditions: z.array(
    z.object({
      name: z.string(),
      width: z.number(),
      height: z.number(),
      bandwidth: z.number(),
      segments: z.number(),
    }),
  ),
  /** The free preview (`hls/preview/`, its own key, not in the master playlist), if encoded. */
  preview: z.object({ seconds: z.number(), segments: z.number() }).nullish(),
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
  const video = (info as { video?: unknown } | null)?.video;
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

/** Storage keys of a transcoded video's HLS files and sprite, relative to its media prefix. */
export function videoFileNames(m: VideoManifest): string[] {
  const names = ['hls/master.m3u8'];
  for (const r of m.renditions) {
    names.push(`hls/${r.name}/index.m3u8`);
    for (const dir of m.mark ? [`${r.name}/a`, `${r.name}/b`] : [r.name])
      for (let i = 0; i < r.segments; i++) names.push(`hls/${dir}/${segmentName(i)}`);
  }
  if (m.mark) names.push(MARK_REFERENCE);
  if (m.preview) {
    names.push('hls/preview/index.m3u8');
    for (let i = 0; i < m.preview.segments; i++) names.push(`hls/preview/${segmentName(i)}`);
  }
  if (m.sprite) names.push('sprite.jpg');
  return names;
}

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
  /** Local files to store: name relative to the media prefix → path. */
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
    /** Mark the renditions (A/B variants, ADR 0041). */
    mark?: MarkFrames;
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
    mp4: duration !== null && duration <= MP4_FALLBACK_MAX_SECONDS,
    previewSeconds,
    preset: opts.preset,
    mark: opts.mark,
    onProgress: (f) => opts.onStep?.(30 + Math.round(f * 55)),
  });
  let sprite: Sprite | null = null;
  if (duration && duration > 0) {
    sprite = await thumbnailSprite(paths, input, path.join(workDir, 'sprite.jpg'), {
      width: probed.width,
      height: probed.height,
      duration,
    });
  }
  opts.onStep?.(90);
  const countSegments = async (name: string) =>
    (await fs.promises.readdir(path.join(hlsDir, name, opts.mark && name !== 'preview' ? 'a' : ''))).filter(
      (f) => f.endsWith('.ts'),
    ).length;
  const referenceFrames = out.reference
    ? Math.floor((await fs.promises.stat(out.reference)).size / (ANALYSIS.width * ANALYSIS.height))
    : 0;
  const manifest: VideoManifest = {
    keyId,
    preview: out.preview ? { seconds: previewSeconds, segments: await countSegments('preview') } : null,
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
  for (const name of videoFileNames(manifest)) {
    files.set(
      name,
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
