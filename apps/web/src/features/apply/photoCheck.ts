import { errorMessage, IMAGE_TYPES, type Language } from '@fanverse/contract';
import { MAX_IMAGE_MB } from '../post/uploadCheck.ts';

/** Identity photos: images only (the server re-checks by content and size). */
export const PHOTO_ACCEPT = [...IMAGE_TYPES, '.jpg', '.jpeg', '.png', '.gif', '.webp'].join(',');
const PHOTO_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp'];

/** Client pre-check of an identity photo with the catalogue texts (spec §8); null when fine. */
export function checkPhoto(
  file: { name: string; type: string; size: number },
  language: Language,
): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  const image = file.type
    ? (IMAGE_TYPES as readonly string[]).includes(file.type)
    : PHOTO_EXTENSIONS.includes(ext);
  if (!image) return errorMessage('FILE_NOT_SUPPORTED', language, { name: file.name });
  if (file.size > MAX_IMAGE_MB * 1024 * 1024)
    return errorMessage('FILE_TOO_LARGE', language, { name: file.name, n: MAX_IMAGE_MB });
  return null;
}

/** A fingerprint of a file's bytes, so the same picture chosen twice is caught before upload. */
export async function fingerprint(file: Blob): Promise<string> {
  const bytes = await file.arrayBuffer();
  if (globalThis.crypto?.subtle) {
    const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  }
  // Without WebCrypto (plain http on a LAN address): size and a sample of the bytes.
  const view = new Uint8Array(bytes);
  let hash = 0;
  for (let i = 0; i < view.length; i += Math.max(1, Math.floor(view.length / 4096)))
    hash = (hash * 31 + (view[i] ?? 0)) >>> 0;
  return `${view.length}:${hash}`;
}
