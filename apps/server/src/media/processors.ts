import sharp from 'sharp';

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
