import { describe, expect, it } from 'vitest';
import { COPY, CopyPicture, type Geometry, register } from './video-align.ts';
import { ANALYSIS } from './video-mark.ts';

/**
 * Registration (ADR 0041) on a synthetic scene rendered twice: as the reference (whole frame,
 * ANALYSIS size) and as a copy showing part of it (COPY size), possibly mirrored and starting later.
 * The search must recover the lag, the rectangle and the mirror from the picture alone.
 */
const FRAMES = 60;

/** A smooth, non-repeating scene: drifting blobs over a slanted gradient, grey 0…255. */
function scene(x: number, y: number, t: number): number {
  let v = 60 + 80 * x + 40 * y * y;
  const blobs = [
    [0.2 + 0.006 * t, 0.3 + 0.002 * t, 0.08, 90],
    [0.7 - 0.004 * t, 0.6 + 0.15 * Math.sin(t / 9), 0.1, -70],
    [0.45 + 0.2 * Math.sin(t / 13), 0.8 - 0.005 * t, 0.06, 110],
  ] as const;
  for (const [bx, by, r, a] of blobs) v += a * Math.exp(-((x - bx) ** 2 + (y - by) ** 2) / (r * r));
  return Math.max(0, Math.min(255, v));
}

/** Frame t of the scene over rectangle g of the original, at width × height (pixel centres). */
function render(g: Geometry, width: number, height: number, t: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let j = 0; j < height; j++)
    for (let i = 0; i < width; i++) {
      const u = (i + 0.5) / width;
      const x = g.flip ? g.right - u * (g.right - g.left) : g.left + u * (g.right - g.left);
      out[j * width + i] = Math.round(scene(x, g.top + ((j + 0.5) / height) * (g.bottom - g.top), t));
    }
  return out;
}

const whole: Geometry = { left: 0, right: 1, top: 0, bottom: 1, flip: false };
const reference = Array.from({ length: FRAMES }, (_, t) => render(whole, ANALYSIS.width, ANALYSIS.height, t));

describe('registering a copy against the reference', () => {
  it.each([
    ['uncut', whole, 0, FRAMES],
    ['cropped off one corner and trimmed', { left: 0.1, right: 1, top: 0, bottom: 0.9, flip: false }, 17, 40],
    [
      'cropped each side and mirrored',
      { left: 0.05, right: 0.95, top: 0.04, bottom: 0.96, flip: true },
      0,
      60,
    ],
  ] as const)('finds the lag, the rectangle and the mirror of a copy %s', (_, g, start, length) => {
    const copy = new CopyPicture(
      Array.from({ length }, (_, k) => render(g, COPY.width, COPY.height, start + k)),
    );
    const found = register(copy, reference);
    expect(found).not.toBeNull();
    expect(found?.lag).toBe(start);
    expect(found?.flip).toBe(g.flip);
    for (const edge of ['left', 'right', 'top', 'bottom'] as const)
      expect(Math.abs((found?.[edge] ?? 9) - g[edge])).toBeLessThan(0.01);
    expect(found?.distance).toBeLessThan(2);
  });
});
