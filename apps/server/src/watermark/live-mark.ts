import type { LiveMarkGrid } from '../db/schema.ts';
import {
  ANALYSIS,
  type BitGrid,
  EDGE_FRAMES,
  MARK_SEGMENT_SECONDS,
  type MarkVariant,
  type VideoMarkKey,
} from './video-mark.ts';

/**
 * The traceable mark on lives (ADR 0045): the live's one rendition is encoded twice, A (+P) and B
 * (−P), like a video's renditions (ADR 0041), and each viewer's playlist takes every segment from
 * the variant of their code's bit. A live's segments are 0.5 s (low latency, ADR 0040), too short
 * for a bit a screen recording keeps (the player speeds up, stalls, the recorder drifts: the test
 * in live-bit-period.test.ts), so consecutive segments form one bit period of LIVE_BIT_SECONDS,
 * the length of a video's marked segment.
 */
export const LIVE_BIT_SECONDS = MARK_SEGMENT_SECONDS;

/** The grid of a live cut into `segmentSeconds` segments: whole segments per bit, about 2 s. */
export function liveMarkGrid(segmentSeconds: number): LiveMarkGrid {
  return { segmentSeconds, segmentsPerBit: Math.max(1, Math.round(LIVE_BIT_SECONDS / segmentSeconds)) };
}

/** The bit period segment `n` belongs to. */
export const bitOfSegment = (grid: LiveMarkGrid, n: number) => Math.floor(n / grid.segmentsPerBit);

/** How the tracer reads a live's reference: frames per bit period (ANALYSIS.fps), edges skipped. */
export const liveBitGrid = (grid: LiveMarkGrid): BitGrid => ({
  framesPerBit: grid.segmentsPerBit * grid.segmentSeconds * ANALYSIS.fps,
  edgeFrames: EDGE_FRAMES,
});

const TEMPLATE_SEGMENT = /^seg_(\d{1,6})\.ts$/;
const KEYED_SEGMENT = /^seg_(\d{1,6})_[0-9a-f]{16}\.ts$/;
/** The tags that belong to the segment after them. */
const SEGMENT_TAG = /^#(EXTINF|EXT-X-DISCONTINUITY|EXT-X-PROGRAM-DATE-TIME)\b/;

/**
 * One viewer's playlist of a marked live: each segment of the rolling template (`seg_N.ts`) under
 * the keyed name of its variant for this viewer, so the viewer cannot name the other variant.
 */
export function viewerLivePlaylist(
  template: string,
  o: { key: VideoMarkKey; liveId: string; rendition: string; variantOf(segment: number): MarkVariant },
): string {
  return template
    .split('\n')
    .map((line) => {
      const n = TEMPLATE_SEGMENT.exec(line.trim())?.[1];
      return n === undefined
        ? line
        : o.key.segmentName(o.liveId, o.rendition, Number(n), o.variantOf(Number(n)));
    })
    .join('\n');
}

/**
 * The template without its newest segments while `ready(n)` says no: ffmpeg lists segment N once
 * variant A's is written, and B's follows a frame later, so a viewer of B is not sent a name that
 * opens nothing yet (it is listed on the next reload). The segment's tags (duration,
 * discontinuity) go with it.
 */
export function listedWhenReady(template: string, ready: (segment: number) => boolean): string {
  const lines = template.split('\n');
  for (;;) {
    const last = lines.findLastIndex((l) => TEMPLATE_SEGMENT.test(l.trim()));
    if (last < 0 || ready(Number(TEMPLATE_SEGMENT.exec(lines[last]?.trim() ?? '')?.[1]))) break;
    let first = last;
    while (first > 0 && SEGMENT_TAG.test(lines[first - 1] ?? '')) first--;
    lines.splice(first, last - first + 1);
  }
  return lines.join('\n');
}

/** The variant of segment `n` for a serve record: its code's bit for the segment's bit period. */
export const viewerVariant =
  (key: VideoMarkKey, grid: LiveMarkGrid, serveId: string) =>
  (n: number): MarkVariant =>
    key.variantAt(serveId, bitOfSegment(grid, n));

/** The segment a keyed name opens (its number and variant), or null: a plain or guessed name opens nothing. */
export function keyedLiveSegment(
  key: VideoMarkKey,
  liveId: string,
  rendition: string,
  name: string,
): { index: number; variant: MarkVariant } | null {
  const n = KEYED_SEGMENT.exec(name)?.[1];
  if (n === undefined) return null;
  const variant = key.variantOf(liveId, rendition, Number(n), name);
  return variant ? { index: Number(n), variant } : null;
}
