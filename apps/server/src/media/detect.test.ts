import { errorMessage } from '@fanverse/contract';
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error.ts';
import { detectUpload, fileTooLarge, sniff } from './detect.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const ftyp = (brand: string) => bytes([0, 0, 0, 0x18], 'ftyp', brand, [0, 0, 0, 0], 'isommp41');
const riff = (form: string) => bytes('RIFF', [0x24, 0, 0, 0], form, 'VP8 ');
const ebml = (doctype: string) =>
  bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], doctype);

const SUPPORTED: [string, Buffer, string, 'image' | 'video'][] = [
  ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'), 'image/jpeg', 'image'],
  [
    'png',
    bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d], 'IHDR'),
    'image/png',
    'image',
  ],
  ['gif87a', bytes('GIF87a', [1, 0, 1, 0]), 'image/gif', 'image'],
  ['gif89a', bytes('GIF89a', [1, 0, 1, 0]), 'image/gif', 'image'],
  ['webp', riff('WEBP'), 'image/webp', 'image'],
  ['mp4 (isom)', ftyp('isom'), 'video/mp4', 'video'],
  ['mp4 (mp42)', ftyp('mp42'), 'video/mp4', 'video'],
  ['mov (qt)', ftyp('qt  '), 'video/quicktime', 'video'],
  ['mov (bare moov atom)', bytes([0, 0, 0, 8], 'moov'), 'video/quicktime', 'video'],
  ['3gp', ftyp('3gp4'), 'video/3gpp', 'video'],
  ['3g2', ftyp('3g2a'), 'video/3gpp2', 'video'],
  ['avi', riff('AVI '), 'video/x-msvideo', 'video'],
  ['webm', ebml('webm'), 'video/webm', 'video'],
  ['mkv', ebml('matroska'), 'video/x-matroska', 'video'],
  ['ogg', bytes('OggS', [0, 2, 0, 0]), 'video/ogg', 'video'],
  ['mpeg program stream', bytes([0, 0, 1, 0xba, 0x44, 0]), 'video/mpeg', 'video'],
  ['mpeg elementary stream', bytes([0, 0, 1, 0xb3, 0x14, 0]), 'video/mpeg', 'video'],
  [
    'wmv (ASF)',
    Buffer.from('3026b2758e66cf11a6d900aa0062ce6c0000000000000000', 'hex'),
    'video/x-ms-wmv',
    'video',
  ],
  ['flv', bytes('FLV', [1, 5, 0, 0, 0, 9]), 'video/x-flv', 'video'],
];

const UNSUPPORTED: [string, Buffer][] = [
  ['pdf', bytes('%PDF-1.7\n')],
  ['text', bytes('hello world')],
  ['heic (ftyp heic)', ftyp('heic')],
  ['avif (ftyp avif)', ftyp('avif')],
  ['wav (RIFF WAVE)', riff('WAVE')],
  ['EBML without a known doctype', ebml('other')],
  ['empty', Buffer.alloc(0)],
  ['truncated jpeg', bytes([0xff, 0xd8])],
];

describe('sniff', () => {
  it.each(SUPPORTED)('recognizes %s by its first bytes', (_name, head, mime, kind) => {
    expect(sniff(head)).toMatchObject({ mime, kind });
  });

  it.each(UNSUPPORTED)('does not accept %s', (_name, head) => {
    expect(sniff(head)).toBeNull();
  });
});

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('did not throw');
}

describe('detectUpload', () => {
  it('trusts the content over the name: a .jpg that is really a png is a png', () => {
    const png = SUPPORTED.find(([n]) => n === 'png')![1];
    expect(detectUpload(png, 'holiday.jpg')).toEqual({ kind: 'image', mime: 'image/png', ext: 'png' });
  });

  it('accepts supported content under any name', () => {
    expect(detectUpload(ftyp('isom'), 'clip.bin').mime).toBe('video/mp4');
  });

  it('answers FILE_NOT_SUPPORTED naming the file when a supported extension hides other content', () => {
    const err = thrown(() => detectUpload(bytes('%PDF-1.7'), 'photo.JPG'));
    expect(err.code).toBe('FILE_NOT_SUPPORTED');
    expect(errorMessage(err.code, 'en', err.params)).toBe('The file photo.JPG is not supported');
    expect(errorMessage(err.code, 'es', err.params)).toBe('El archivo photo.JPG no es compatible');
  });

  it('answers FILE_NOT_SUPPORTED naming the file for an unsupported extension and content', () => {
    const err = thrown(() => detectUpload(bytes('%PDF-1.7'), 'contract.pdf'));
    expect(err.code).toBe('FILE_NOT_SUPPORTED');
    expect(errorMessage(err.code, 'en', err.params)).toBe('The file contract.pdf is not supported');
    expect(errorMessage(err.code, 'es', err.params)).toBe('El archivo contract.pdf no es compatible');
  });

  it('words FILE_TOO_LARGE with the name and the limit in MB', () => {
    const err = fileTooLarge('big.mp4', 20 * 1024 * 1024);
    expect(errorMessage(err.code, 'en', err.params)).toBe('The file big.mp4 is too large, Max size 20 MB');
    expect(errorMessage(err.code, 'es', err.params)).toBe(
      'El archivo big.mp4 es demasiado grande, tamaño máximo 20 MB',
    );
  });
});
