import { CAPTION_LANGUAGES, type CaptionLanguage, MAX_CAPTIONS_BYTES } from '@fanverse/contract';
// CommonJS without static exports: the default import is its `exports`.
import webvtt from 'webvtt-parser';
import { AppError } from '../http/app-error.ts';

/** One stored captions track of a video (`media.captions`). */
export interface CaptionsTrack {
  language: CaptionLanguage;
  /** The uploaded file's name. */
  name: string;
  size: number;
}

/** Where a track lives, relative to the media prefix. */
export const captionsFileName = (language: CaptionLanguage) => `captions/${language}.vtt`;

export const isCaptionLanguage = (v: string): v is CaptionLanguage =>
  (CAPTION_LANGUAGES as readonly string[]).includes(v);

/** The stored tracks of a row's `captions` column (anything unexpected is dropped). */
export function captionsOf(value: unknown): CaptionsTrack[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (t): t is CaptionsTrack =>
      !!t && typeof t === 'object' && isCaptionLanguage((t as CaptionsTrack).language),
  );
}

/**
 * Checks that `text` is a WebVTT file a browser's `<track>` will show (ADR 0037), with the W3C
 * WebVTT parser (`webvtt-parser`): the `WEBVTT` signature, no parse error (bad timings, settings,
 * standalone ids, …), at least one cue, at most MAX_CAPTIONS_BYTES. Returns the bytes to store
 * (UTF-8, without a byte-order mark). FILE_NOT_SUPPORTED / CAPTIONS_TOO_LARGE name the file.
 */
export function validateCaptions(name: string, text: string): Buffer {
  const body = text.replace(/^\uFEFF/, '');
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length > MAX_CAPTIONS_BYTES)
    throw new AppError('CAPTIONS_TOO_LARGE', { name, n: Math.floor(MAX_CAPTIONS_BYTES / 1024) });
  // A NUL or other control bytes: a binary file renamed to .vtt.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the check.
  if (/[\u0000-\u0008\u000E-\u001F]/.test(body)) throw new AppError('FILE_NOT_SUPPORTED', { name });
  const parsed = new webvtt.WebVTTParser().parse(body, 'subtitles');
  if (parsed.errors.length > 0 || parsed.cues.length === 0)
    throw new AppError('FILE_NOT_SUPPORTED', { name });
  return bytes;
}
