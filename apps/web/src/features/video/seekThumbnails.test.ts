import { describe, expect, it } from 'vitest';
import { clock, parseSeekThumbnails, tileAt } from './seekThumbnails.ts';

const VTT = [
  'WEBVTT',
  '',
  '00:00:00.000 --> 00:00:02.000',
  '/api/v1/media/m/sprite?exp=1&sig=a#xywh=0,0,160,90',
  '',
  '00:00:02.000 --> 00:00:04.000',
  '/api/v1/media/m/sprite?exp=1&sig=a#xywh=160,0,160,90',
  '',
  '00:00:04.000 --> 00:00:05.500',
  'not a tile',
  '',
].join('\n');

describe('seek thumbnails', () => {
  it('reads the tiles of a thumbnails WebVTT and skips malformed cues', () => {
    const tiles = parseSeekThumbnails(VTT);
    expect(tiles).toEqual([
      { start: 0, end: 2, url: '/api/v1/media/m/sprite?exp=1&sig=a', x: 0, y: 0, w: 160, h: 90 },
      { start: 2, end: 4, url: '/api/v1/media/m/sprite?exp=1&sig=a', x: 160, y: 0, w: 160, h: 90 },
    ]);
    expect(parseSeekThumbnails(null)).toEqual([]);
  });

  it('finds the tile of a time, the last one past the end', () => {
    const tiles = parseSeekThumbnails(VTT);
    expect(tileAt(tiles, 0)?.x).toBe(0);
    expect(tileAt(tiles, 2.5)?.x).toBe(160);
    expect(tileAt(tiles, 99)?.x).toBe(160);
    expect(tileAt([], 1)).toBeNull();
  });

  it('formats clock times', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(75.9)).toBe('1:15');
    expect(clock(3725)).toBe('1:02:05');
  });
});
