import { describe, expect, it } from 'vitest';
import {
  keyedLiveSegment,
  listedWhenReady,
  liveMarkGrid,
  viewerLivePlaylist,
  viewerVariant,
} from './live-mark.ts';
import { VideoMarkKey } from './video-mark.ts';

const key = new VideoMarkKey('live-mark-test');
const template = [
  '#EXTM3U',
  '#EXT-X-VERSION:6',
  '#EXT-X-TARGETDURATION:1',
  '#EXT-X-MEDIA-SEQUENCE:10',
  '#EXT-X-KEY:METHOD=AES-128,URI="key",IV=0x01',
  '#EXTINF:0.500000,',
  'seg_10.ts',
  '#EXTINF:0.500000,',
  'seg_11.ts',
  '#EXT-X-DISCONTINUITY',
  '#EXTINF:0.500000,',
  'seg_12.ts',
  '',
].join('\n');

describe("a viewer's playlist of a marked live", () => {
  it('names each segment by the variant of its bit period, under keyed names that map back', () => {
    const grid = liveMarkGrid(0.5);
    expect(grid).toEqual({ segmentSeconds: 0.5, segmentsPerBit: 4 });
    const variantOf = viewerVariant(key, grid, 'serve-1');
    const playlist = viewerLivePlaylist(template, { key, liveId: 'live-1', rendition: 'live', variantOf });
    const names = playlist.split('\n').filter((l) => l.startsWith('seg_'));
    expect(names).toHaveLength(3);
    names.forEach((name, i) => {
      // Segments 8–11 are bit 2, segment 12 bit 3 of the serve record's code.
      expect(keyedLiveSegment(key, 'live-1', 'live', name)).toEqual({
        index: 10 + i,
        variant: key.variantAt('serve-1', Math.floor((10 + i) / 4)),
      });
      expect(keyedLiveSegment(key, 'live-2', 'live', name)).toBeNull();
    });
    expect(key.variantAt('serve-1', 2)).toBe(key.code('serve-1', 3)[2]);
    expect(playlist.replace(/seg_\d+_[0-9a-f]{16}\.ts/g, 'S')).toBe(template.replace(/seg_\d+\.ts/g, 'S'));
    expect(keyedLiveSegment(key, 'live-1', 'live', 'seg_10.ts')).toBeNull();
  });

  it('leaves out the newest segments until the viewer’s variant of them is written, with their tags', () => {
    expect(listedWhenReady(template, () => true)).toBe(template);
    const ready = listedWhenReady(template, (n) => n < 12);
    expect(ready).not.toContain('seg_12.ts');
    expect(ready).not.toContain('DISCONTINUITY');
    expect(ready.split('\n').slice(0, 9)).toEqual(template.split('\n').slice(0, 9));
    expect(listedWhenReady(template, () => false).split('\n')).toEqual([
      ...template.split('\n').slice(0, 5),
      '',
    ]);
  });
});
