import path from 'node:path';
import sharp from 'sharp';

export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Crops an image file as the image adjust editor chose (EXIF orientation applied first, so the
 * rectangle matches what the person saw). Answers the cropped file's path, or null when the
 * rectangle falls outside the picture.
 */
export async function cropImageFile(file: string, crop: Crop): Promise<string | null> {
  const image = sharp(file, { failOn: 'none' }).rotate();
  const { width = 0, height = 0 } = await sharp(await image.toBuffer()).metadata();
  if (crop.x + crop.width > width || crop.y + crop.height > height) return null;
  const out = path.join(path.dirname(file), `${path.basename(file)}.crop.png`);
  await sharp(file, { failOn: 'none' })
    .rotate()
    .extract({ left: crop.x, top: crop.y, width: crop.width, height: crop.height })
    .png()
    .toFile(out);
  return out;
}
