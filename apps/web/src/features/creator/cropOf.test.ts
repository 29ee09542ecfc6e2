import { describe, expect, it } from 'vitest';
import { cropOf } from './ImageAdjustEditor.tsx';

describe('cropOf', () => {
  it('maps the frame to source pixels', () => {
    // 1000×500 image in a 300×300 frame: cover scale 0.6, centred.
    expect(cropOf({ w: 1000, h: 500 }, { w: 300, h: 300 }, 1, { x: -150, y: 0 })).toEqual({
      x: 250,
      y: 0,
      width: 500,
      height: 500,
    });
    // Zoom 2: a quarter of the area.
    expect(cropOf({ w: 1000, h: 1000 }, { w: 300, h: 300 }, 2, { x: 0, y: 0 })).toEqual({
      x: 0,
      y: 0,
      width: 500,
      height: 500,
    });
  });
});
