import path from 'node:path';
import sharp from 'sharp';
import { extractFrame, type FfmpegPaths, type MediaInfo, probe, stripVideoMetadata } from './ffmpeg.ts';

/** One generated file: bytes and the extension/content type it is stored with. */
export interface Rendition {
  data: Buffer;
  ext: 'webp';
  contentType: 'image/webp';
}

export interface ImageOutput {
  web: Rendition;
  thumb: Rendition;
  blur: Rendition;
  width: number;
  height: number;
}

export interface VideoOutput {
  poster: Rendition;
  thumb: Rendition;
  blur: Rendition;
  info: MediaInfo;
  width: number | null;
  height: number | null;
  /** Path of a metadata-free copy of the video (same container), or null when it could not be made. */
  clean: string | null;
}

export const WEB_MAX_PX = 2048;
export const THUMB_MAX_PX = 480;
export const BLUR_MAX_PX = 48;

const webp = (data: Buffer): Rendition => ({ data, ext: 'webp', contentType: 'image/webp' });
const inside = (max: number) => ({
  width: max,
  height: max,
  fit: 'inside' as const,
  withoutEnlargement: true,
});

/**
 * Web version, thumbnail and blurred preview of a still image. Every output is re-encoded by sharp,
 * which writes no metadata (EXIF, GPS, XMP, comments) unless asked; rotate() first applies the
 * EXIF orientation so nothing is lost with it.
 */
export async function processImage(
  input: string | Buffer,
  opts: { animated?: boolean } = {},
): Promise<ImageOutput> {
  const meta = await sharp(input).metadata();
  if (!meta.width || !meta.height) throw new Error('image has no dimensions');
  const swap = (meta.orientation ?? 1) >= 5;
  const width = swap ? meta.height : meta.width;
  const height = swap ? meta.width : meta.height;
  const animated = opts.animated === true && (meta.pages ?? 1) > 1;
  const web = await sharp(input, { animated })
    .rotate()
    .resize(inside(WEB_MAX_PX))
    .webp({ quality: 82 })
    .toBuffer();
  const still = sharp(input).rotate();
  const thumb = await still.clone().resize(inside(THUMB_MAX_PX)).webp({ quality: 75 }).toBuffer();
  const blur = await still.clone().resize(inside(BLUR_MAX_PX)).blur(4).webp({ quality: 50 }).toBuffer();
  return { web: webp(web), thumb: webp(thumb), blur: webp(blur), width, height };
}

/**
 * Whether a still image decodes completely (a small resize reads every pixel): a file that only
 * starts like a JPEG or PNG is refused at upload instead of failing later with a broken thumbnail.
 */
export async function decodesAsImage(input: string | Buffer): Promise<boolean> {
  try {
    const meta = await sharp(input).metadata();
    if (!meta.width || !meta.height) return false;
    await sharp(input).resize(inside(BLUR_MAX_PX)).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * ffprobe info; poster, thumbnail and blurred preview from a frame about 1 s in; and a copy of the
 * video without metadata. Temporary files go to `workDir` (the caller removes it).
 */
export async function processVideo(
  paths: FfmpegPaths,
  input: string,
  workDir: string,
  onStep?: (percent: number) => void,
): Promise<VideoOutput> {
  const probed = await probe(paths, input);
  if (!probed.hasVideo) throw new Error('no video stream');
  onStep?.(35);
  const frame = path.join(workDir, 'frame.png');
  await extractFrame(paths, input, frame, probed.info.format.duration);
  const images = await processImage(frame);
  onStep?.(50);
  let clean: string | null = path.join(workDir, `clean${path.extname(input)}`);
  try {
    await stripVideoMetadata(paths, input, clean);
  } catch {
    clean = null;
  }
  return {
    poster: images.web,
    thumb: images.thumb,
    blur: images.blur,
    info: probed.info,
    width: probed.width ?? images.width,
    height: probed.height ?? images.height,
    clean,
  };
}
