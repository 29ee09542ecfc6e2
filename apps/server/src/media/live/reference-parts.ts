import fs from 'node:fs';
import { ANALYSIS } from '../../watermark/video-mark.ts';

const FRAME = ANALYSIS.width * ANALYSIS.height;
/** Frames copied at a time. */
const BATCH = 256;

/**
 * Joins the parts of a live's mark reference (one per ffmpeg run, LiveMedia.referenceParts) into
 * one file of grey frames laid out on the live's segment numbers: each part from its start frame,
 * a later run overwriting what an earlier one wrote past its last listed segment (a run killed when
 * its feeder went away), a gap (nothing written there) repeating the frame before it. The file is
 * what the tracer registers a recording against (ADR 0045). Answers the number of frames.
 */
export async function joinReferenceParts(
  parts: readonly { file: string; startFrame: number }[],
  to: string,
): Promise<number> {
  const out = await fs.promises.open(to, 'w');
  const buf = Buffer.alloc(FRAME * BATCH);
  let last: Buffer = Buffer.alloc(FRAME, 128);
  let end = 0;
  try {
    for (const [i, part] of parts.entries()) {
      for (; end < part.startFrame; end++) await out.write(last, 0, FRAME, end * FRAME);
      const src = await fs.promises.open(part.file, 'r');
      try {
        const next = parts[i + 1]?.startFrame ?? Number.POSITIVE_INFINITY;
        const frames = Math.min(Math.floor((await src.stat()).size / FRAME), next - part.startFrame);
        for (let k = 0; k < frames; k += BATCH) {
          const n = Math.min(BATCH, frames - k);
          await src.read(buf, 0, n * FRAME, k * FRAME);
          await out.write(buf, 0, n * FRAME, (part.startFrame + k) * FRAME);
          last = Buffer.from(buf.subarray((n - 1) * FRAME, n * FRAME));
        }
        end = part.startFrame + Math.max(0, frames);
      } finally {
        await src.close();
      }
    }
  } finally {
    await out.close();
  }
  return end;
}
