import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ANALYSIS } from '../../watermark/video-mark.ts';
import { joinReferenceParts } from './reference-parts.ts';

const FRAME = ANALYSIS.width * ANALYSIS.height;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-ref-parts-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A part of `frames` frames, frame k filled with the grey level `first + k`, plus `extra` stray bytes. */
function part(name: string, first: number, frames: number, extra = 0): string {
  const file = path.join(dir, name);
  const data = Buffer.alloc(frames * FRAME + extra);
  for (let k = 0; k < frames; k++) data.fill(first + k, k * FRAME, (k + 1) * FRAME);
  fs.writeFileSync(file, data);
  return file;
}

/** The grey level of each frame of a joined file. */
const levels = (file: string) => {
  const data = fs.readFileSync(file);
  return Array.from({ length: data.length / FRAME }, (_, k) => data[k * FRAME]);
};

describe('joining the runs of a live into one reference', () => {
  it('lays each run out from its first segment: a later run overwrites, a gap repeats the frame before', async () => {
    const out = path.join(dir, 'joined.gray');
    const frames = await joinReferenceParts(
      [
        // Run 1: 6 frames, the last of them past the frame where run 2 starts (killed mid-segment).
        { file: part('ref.0.gray', 10, 6, 100), startFrame: 0 },
        // Run 2 from frame 5: 3 frames; run 3 starts at frame 10 (a gap of 2 frames before it).
        { file: part('ref.1.gray', 50, 3), startFrame: 5 },
        { file: part('ref.2.gray', 90, 2), startFrame: 10 },
      ],
      out,
    );
    expect(frames).toBe(12);
    expect(levels(out)).toEqual([10, 11, 12, 13, 14, 50, 51, 52, 52, 52, 90, 91]);
  });
});
