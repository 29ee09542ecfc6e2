import {
  errorMessage,
  IMAGE_TYPES,
  type Language,
  MAX_CAPTIONS_BYTES,
  UPLOAD_EXTENSIONS,
  VIDEO_TYPES,
} from '@fanverse/contract';

/** Defaults of MEDIA_MAX_IMAGE_MB / MEDIA_MAX_VIDEO_MB until the start-up data says otherwise; the server re-checks. */
export const MAX_IMAGE_MB = 20;
export const MAX_VIDEO_MB = 1024;

export const ACCEPT = [...IMAGE_TYPES, ...VIDEO_TYPES, ...UPLOAD_EXTENSIONS.map((ext) => `.${ext}`)].join(
  ',',
);

export function fileKind(file: { name: string; type: string }): 'image' | 'video' | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if ((IMAGE_TYPES as readonly string[]).includes(file.type)) return 'image';
  if ((VIDEO_TYPES as readonly string[]).includes(file.type) || file.type.startsWith('video/')) {
    return (UPLOAD_EXTENSIONS as readonly string[]).includes(ext) ? 'video' : null;
  }
  if (file.type) return null;
  if (['jpg', 'jpeg', 'png', 'gif', 'webp'].includes(ext)) return 'image';
  return (UPLOAD_EXTENSIONS as readonly string[]).includes(ext) ? 'video' : null;
}

/** Client pre-check of spec §5 / §8 with the texts of the contract's error catalogue; null when fine. */
export function checkUpload(
  file: { name: string; type: string; size: number },
  language: Language,
  limits: { imageMb: number; videoMb: number } = { imageMb: MAX_IMAGE_MB, videoMb: MAX_VIDEO_MB },
): string | null {
  const kind = fileKind(file);
  if (!kind) return errorMessage('FILE_NOT_SUPPORTED', language, { name: file.name });
  const max = kind === 'image' ? limits.imageMb : limits.videoMb;
  if (file.size > max * 1024 * 1024)
    return errorMessage('FILE_TOO_LARGE', language, { name: file.name, n: max });
  return null;
}

/**
 * The picture check the browser can make before uploading: a file named and typed as a picture
 * that does not decode (a renamed document, a broken download) is refused naming the file, as the
 * server would (spec §8). Without createImageBitmap the server's check is the only one.
 */
export async function checkPictureDecodes(
  file: Blob & { name: string },
  language: Language,
): Promise<string | null> {
  if (typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(file);
    bitmap.close();
    return null;
  } catch {
    return errorMessage('FILE_NOT_SUPPORTED', language, { name: file.name });
  }
}

/**
 * Client pre-check of a captions file (ADR 0037), with the contract's texts: a `.vtt` name, at
 * most MAX_CAPTIONS_BYTES, starting with the `WEBVTT` signature. Returns the text to send, or the
 * error. The server parses it fully and has the last word.
 */
export async function readCaptionsFile(
  file: Blob & { name: string },
  language: Language,
): Promise<{ text: string } | { error: string }> {
  if (!/\.vtt$/i.test(file.name))
    return { error: errorMessage('FILE_NOT_SUPPORTED', language, { name: file.name }) };
  if (file.size > MAX_CAPTIONS_BYTES)
    return {
      error: errorMessage('CAPTIONS_TOO_LARGE', language, {
        name: file.name,
        n: Math.floor(MAX_CAPTIONS_BYTES / 1024),
      }),
    };
  const text = await file.text();
  if (!/^\uFEFF?WEBVTT([ \t\r\n]|$)/.test(text))
    return { error: errorMessage('FILE_NOT_SUPPORTED', language, { name: file.name }) };
  return { text };
}
