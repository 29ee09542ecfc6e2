import path from 'node:path';
import { AppError } from '../http/app-error.ts';

export type MediaKind = 'image' | 'video';

export interface DetectedType {
  kind: MediaKind;
  /** MIME type as found in the content (one of IMAGE_TYPES / VIDEO_TYPES). */
  mime: string;
  /** The extension the stored original gets, from the content, not from the name. */
  ext: string;
}

/** How many leading bytes detection looks at (EBML doctypes sit a few dozen bytes in). */
export const SNIFF_BYTES = 4096;

const ASF_GUID = Buffer.from('3026b2758e66cf11a6d900aa0062ce6c', 'hex');
/** ftyp brands of still images (HEIF/AVIF) and audio-only MPEG-4: not accepted as video. */
const NON_VIDEO_BRANDS = new Set([
  'heic',
  'heix',
  'heim',
  'heis',
  'hevc',
  'mif1',
  'msf1',
  'avif',
  'avis',
  'M4A ',
  'M4B ',
  'M4P ',
]);
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

const ascii = (buf: Buffer, start: number, end: number) => buf.subarray(start, end).toString('latin1');
const startsWith = (buf: Buffer, bytes: number[], offset = 0) =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);

const image = (mime: string, ext: string): DetectedType => ({ kind: 'image', mime, ext });
const video = (mime: string, ext: string): DetectedType => ({ kind: 'video', mime, ext });

/** The supported type of a file from its first bytes (magic numbers), or null. */
export function sniff(head: Buffer): DetectedType | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return image('image/jpeg', 'jpg');
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('image/png', 'png');
  const six = ascii(head, 0, 6);
  if (six === 'GIF87a' || six === 'GIF89a') return image('image/gif', 'gif');
  if (ascii(head, 0, 4) === 'RIFF' && head.length >= 12) {
    const form = ascii(head, 8, 12);
    if (form === 'WEBP') return image('image/webp', 'webp');
    if (form === 'AVI ') return video('video/x-msvideo', 'avi');
    return null;
  }
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (NON_VIDEO_BRANDS.has(brand)) return null;
    if (brand === 'qt  ') return video('video/quicktime', 'mov');
    if (brand.startsWith('3g2')) return video('video/3gpp2', '3g2');
    if (brand.startsWith('3gp') || brand.startsWith('3ge') || brand.startsWith('3gg'))
      return video('video/3gpp', '3gp');
    return video('video/mp4', 'mp4');
  }
  if (head.length >= 8 && QUICKTIME_ATOMS.has(ascii(head, 4, 8))) return video('video/quicktime', 'mov');
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) {
    const text = head.subarray(0, SNIFF_BYTES).toString('latin1');
    if (text.includes('webm')) return video('video/webm', 'webm');
    if (text.includes('matroska')) return video('video/x-matroska', 'mkv');
    return null;
  }
  if (ascii(head, 0, 4) === 'OggS') return video('video/ogg', 'ogv');
  if (startsWith(head, [0x00, 0x00, 0x01, 0xba]) || startsWith(head, [0x00, 0x00, 0x01, 0xb3]))
    return video('video/mpeg', 'mpg');
  if (head.length >= 16 && head.subarray(0, 16).equals(ASF_GUID)) return video('video/x-ms-wmv', 'wmv');
  if (startsWith(head, [0x46, 0x4c, 0x56, 0x01])) return video('video/x-flv', 'flv');
  return null;
}

/** The extension of a file name, lower case, without the dot ('' when none). */
export function extensionOf(filename: string): string {
  return path.extname(filename).slice(1).toLowerCase();
}

/**
 * The type of an upload, by content. A supported content type wins whatever the name says;
 * anything else, a fake "photo.jpg" included, is not supported: FILE_NOT_SUPPORTED naming the
 * file (spec §8), so the person knows which of several files was refused.
 */
export function detectUpload(head: Buffer, filename: string): DetectedType {
  const found = sniff(head);
  if (found) return found;
  throw new AppError('FILE_NOT_SUPPORTED', { name: filename });
}

/** The size limit of a kind, in bytes. */
export function maxBytesFor(
  kind: MediaKind,
  limits: { maxImageBytes: number; maxVideoBytes: number },
): number {
  return kind === 'image' ? limits.maxImageBytes : limits.maxVideoBytes;
}

/** FILE_TOO_LARGE naming the file, with the limit in MB as the spec's message shows it. */
export function fileTooLarge(name: string, maxBytes: number): AppError {
  return new AppError('FILE_TOO_LARGE', { name, n: Math.floor(maxBytes / (1024 * 1024)) });
}
