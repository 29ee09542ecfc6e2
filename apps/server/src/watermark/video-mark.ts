import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Alignment, CopyPicture } from './video-align.ts';

/**
 * The invisible, traceable mark on videos (ADR 0041): forensic A/B segment marking.
 *
 * - Every rendition of a marked video is encoded twice. Variant A carries `+STRENGTH·P`, variant B
 *   `−STRENGTH·P`, where P is one smooth keyed pattern of GRID_COLS × GRID_ROWS cells of ±1 (in
 *   frame-relative coordinates, so every rendition and any uniformly resized copy holds the same
 *   pattern) added to luminance by ffmpeg (`blend=all_mode=grainmerge` with a grey frame).
 * - Keyframes every MARK_SEGMENT_SECONDS, so segment i of A and B cover the same frames and a
 *   playlist may take each segment from either: a fan's playlist takes segment i from A or B by bit
 *   i of their code (from their `video_serves` row). Segment names are keyed per variant, so a fan
 *   cannot guess the other variant's segment names.
 * - The tracer is informed (non-blind): at encoding, a reference of the unmarked picture is kept at
 *   ANALYSIS size (grey, ANALYSIS.fps). A leaked copy is brought to the same size and rate; the
 *   reference is subtracted (the picture cancels, the mark and the coding noise stay) and the rest
 *   is correlated with P per segment: the sign is the segment's bit, its size over the spread of
 *   decoy patterns its certainty.
 */
export const GRID_COLS = 32;
export const GRID_ROWS = 18;
/** Pattern amplitude in grey levels (peak of a cell; the average is lower). */
export const MARK_STRENGTH = 3;
/** Segment length of marked renditions: one bit per segment. */
export const MARK_SEGMENT_SECONDS = 2;
/** The picture the tracer compares: whole frames scaled to this size, grey, at this rate. */
export const ANALYSIS = { width: 128, height: 72, fps: 10 } as const;
const DECOYS = 16;
/** Frames this close to a segment boundary are skipped (the copy's timing may wander a little). */
export const EDGE_FRAMES = 2;

export type MarkVariant = 'a' | 'b';

/** How a reference is cut into bits: frames per bit (at ANALYSIS.fps) and frames skipped at each end of one. */
export interface BitGrid {
  framesPerBit: number;
  edgeFrames: number;
}

export class VideoMarkKey {
  private readonly cells: Float64Array;
  /** P at ANALYSIS size, zero mean (the detector's template). */
  readonly analysis: Float64Array;
  private readonly decoys: Float64Array[];

  constructor(private readonly secret: string) {
    this.cells = keyedSigns(secret, 'video-mark-pattern', GRID_COLS * GRID_ROWS);
    this.analysis = zeroMean(this.sampleGrid(this.cells, ANALYSIS.width, ANALYSIS.height));
    this.decoys = Array.from({ length: DECOYS }, (_, k) =>
      zeroMean(
        this.sampleGrid(
          keyedSigns(secret, `video-mark-decoy-${k}`, GRID_COLS * GRID_ROWS),
          ANALYSIS.width,
          ANALYSIS.height,
        ),
      ),
    );
  }

  /** Samples a cell grid smoothly (smoothstep between cell centres) at width × height. */
  private sampleGrid(cells: Float64Array, width: number, height: number): Float64Array {
    const out = new Float64Array(width * height);
    const smooth = (t: number) => t * t * (3 - 2 * t);
    for (let y = 0; y < height; y++) {
      const gy = Math.min(GRID_ROWS - 1, Math.max(0, ((y + 0.5) / height) * GRID_ROWS - 0.5));
      const y0 = Math.floor(gy);
      const y1 = Math.min(GRID_ROWS - 1, y0 + 1);
      const fy = smooth(gy - y0);
      for (let x = 0; x < width; x++) {
        const gx = Math.min(GRID_COLS - 1, Math.max(0, ((x + 0.5) / width) * GRID_COLS - 0.5));
        const x0 = Math.floor(gx);
        const x1 = Math.min(GRID_COLS - 1, x0 + 1);
        const fx = smooth(gx - x0);
        const c = (cx: number, cy: number) => cells[cy * GRID_COLS + cx] as number;
        const top = c(x0, y0) * (1 - fx) + c(x1, y0) * fx;
        const bottom = c(x0, y1) * (1 - fx) + c(x1, y1) * fx;
        out[y * width + x] = top * (1 - fy) + bottom * fy;
      }
    }
    return out;
  }

  /**
   * One raw yuv420p frame for ffmpeg's grainmerge blend: luma 128 ± strength·P (sign by variant),
   * chroma neutral (128), so `A + B − 128` adds the mark to luminance only.
   */
  blendFrame(width: number, height: number, variant: MarkVariant, strength = MARK_STRENGTH): Buffer {
    const p = this.sampleGrid(this.cells, width, height);
    const sign = variant === 'a' ? 1 : -1;
    const chroma = (width / 2) * (height / 2) * 2;
    const out = Buffer.alloc(width * height + chroma, 128);
    for (let i = 0; i < width * height; i++) out[i] = Math.round(128 + sign * strength * (p[i] as number));
    return out;
  }

  /**
   * The keyed public name of segment `index` of one variant (the other variant's is unguessable).
   * A re-encoding names its segments after its `encoding` (its folder) too: its URLs never repeat
   * those of the encoding it replaced, which a CDN may still hold (segments are cached for a year).
   */
  segmentName(
    mediaId: string,
    rendition: string,
    index: number,
    variant: MarkVariant,
    encoding = '',
  ): string {
    const tag = createHmac('sha256', this.secret)
      .update(
        `video-mark-segment\n${mediaId}\n${rendition}\n${index}\n${variant}${encoding ? `\n${encoding}` : ''}`,
      )
      .digest('hex')
      .slice(0, 16);
    return `seg_${String(index).padStart(5, '0')}_${tag}.ts`;
  }

  /** The variant a keyed segment name stands for, or null when it is neither's. */
  variantOf(
    mediaId: string,
    rendition: string,
    index: number,
    name: string,
    encoding = '',
  ): MarkVariant | null {
    for (const v of ['a', 'b'] as const) {
      const expected = Buffer.from(this.segmentName(mediaId, rendition, index, v, encoding));
      const given = Buffer.from(name);
      if (expected.length === given.length && timingSafeEqual(expected, given)) return v;
    }
    return null;
  }

  /** The variant of each of `segments` segments for one serve record: bit i of its keyed code. */
  code(serveId: string, segments: number): MarkVariant[] {
    const bits = keyedSigns(this.secret, codeLabel(serveId), segments);
    return Array.from(bits, (b) => (b > 0 ? 'a' : 'b'));
  }

  /** Bit `index` of a serve record's code alone (`code(serveId, n)[index]`): a live's bits go on and on. */
  variantAt(serveId: string, index: number): MarkVariant {
    return keyedBit(this.secret, codeLabel(serveId), index) ? 'a' : 'b';
  }

  /**
   * Reads the A/B bit of each of the reference's `segments` segments from a copy registered against
   * it (`alignment`, see video-align.ts): each copy frame is mapped onto the reference grid (the
   * cells it shows, mirrored back when flipped), the unmarked picture subtracted and the rest
   * correlated with P over those cells. Segments the copy does not reach read nothing (z 0); a
   * segment it covers in part reads from the frames it has. `grid`: reference frames per bit (a
   * video's 2 s segment; a live's bit period, ADR 0045) and frames skipped at each end of one.
   */
  readBits(
    copy: CopyPicture,
    reference: readonly Uint8Array[],
    alignment: Alignment,
    segments: number,
    grid: BitGrid = { framesPerBit: MARK_SEGMENT_SECONDS * ANALYSIS.fps, edgeFrames: EDGE_FRAMES },
  ): SegmentReading[] {
    const bound = (s: number) => Math.round(s * grid.framesPerBit);
    const { sampler } = alignment;
    const n = sampler.count;
    const pattern = sampler.pick(this.analysis);
    const decoys = this.decoys.map((d) => sampler.pick(d));
    const energy = dot(centered(pattern), pattern) || 1e-9;
    const readings: SegmentReading[] = [];
    const seen = new Float64Array(n);
    const ref = new Float64Array(n);
    for (let s = 0; s < segments; s++) {
      let mark = 0;
      const noise = new Float64Array(DECOYS);
      let used = 0;
      for (let f = bound(s) + grid.edgeFrames; f < bound(s + 1) - grid.edgeFrames; f++) {
        const k = f - alignment.lag;
        const frame = reference[f];
        if (!frame || k < 0 || k >= copy.length || n === 0) continue;
        sampler.project(copy.rowSums(k, false), seen);
        sampler.pick(frame, ref);
        // The copy's picture minus the unmarked one, without its mean (brightness drift).
        for (let i = 0; i < n; i++) seen[i] = (seen[i] as number) - (ref[i] as number);
        centered(seen);
        mark += dot(seen, pattern) / energy;
        for (let d = 0; d < DECOYS; d++)
          noise[d] = (noise[d] as number) + dot(seen, decoys[d] as Float64Array) / energy;
        used++;
      }
      if (used === 0) {
        readings.push({ value: 0, z: 0 });
        continue;
      }
      const spread = Math.sqrt(noise.reduce((a, v) => a + v * v, 0) / DECOYS) || 1e-9;
      readings.push({ value: mark / used, z: mark / spread });
    }
    return readings;
  }
}

export interface SegmentReading {
  /** The mark's amplitude in grey levels: positive reads A, negative B. */
  value: number;
  /** The reading in standard deviations of the decoy correlations. */
  z: number;
}

/** A segment counts as read when its z is at least this. */
export const Z_BIT = 4;

/**
 * Matching the bits read against fans' codes: the best code's agreements k of n read bits, and one
 * minus the chance that any of the R codes agrees on k or more by luck: R · P(Binomial(n, ½) ≥ k)
 * (union bound). A code is keyed random bits independent of the copy, so whatever produced the
 * readings — an unmarked copy, another fan's copy, a wrong alignment — a code that is not in the
 * copy agrees with them like fair coins. That holds only if nothing before this step looked at the
 * codes: the tracer's search (candidate video, time offset, crop, mirror) uses the picture alone
 * and yields ONE reading, so it adds no factor. Matching H readings (say, several alignments) and
 * keeping the best would multiply the bound by H (ADR 0041).
 */
export function matchCodes(
  readings: SegmentReading[],
  codes: { id: string; code: MarkVariant[] }[],
): { id: string; agree: number; read: number; confidence: number } | null {
  const read = readings.map((r, i) => ({ i, bit: r.value > 0 ? 'a' : 'b', ok: Math.abs(r.z) >= Z_BIT }));
  const n = read.filter((r) => r.ok).length;
  if (n === 0 || codes.length === 0) return null;
  let best: { id: string; agree: number } | null = null;
  for (const c of codes) {
    const agree = read.filter((r) => r.ok && c.code[r.i] === r.bit).length;
    if (!best || agree > best.agree) best = { id: c.id, agree };
  }
  if (!best) return null;
  const p = Math.min(1, codes.length * binomialTail(n, best.agree));
  return { ...best, read: n, confidence: 1 - p };
}

/** P(X ≥ k) for X ~ Binomial(n, 1/2). */
export function binomialTail(n: number, k: number): number {
  let sum = 0;
  let c = 1;
  for (let i = 0; i <= n; i++) {
    if (i >= k) sum += c;
    c = (c * (n - i)) / (i + 1);
  }
  return sum / 2 ** n;
}

/** A picture size in pixels. */
export interface FrameSize {
  width: number;
  height: number;
}

/**
 * ffmpeg filter that brings any video to the tracer's picture: timestamps from zero, ANALYSIS.fps,
 * the whole frame scaled to `size` (area average, aspect ignored), grey.
 */
export const greyFilter = (size: FrameSize) =>
  `setpts=PTS-STARTPTS,fps=${ANALYSIS.fps},scale=${size.width}:${size.height}:flags=area,format=gray`;

/** The reference's picture: ANALYSIS size. */
export const ANALYSIS_FILTER = greyFilter(ANALYSIS);

/** Decodes a video file to grey frames of `size` at ANALYSIS.fps (at most `maxSeconds`). */
export function analysisFrames(
  ffmpeg: string,
  input: string,
  maxSeconds = 1800,
  size: FrameSize = ANALYSIS,
): Promise<Uint8Array[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpeg,
      [
        '-v',
        'error',
        '-nostdin',
        '-i',
        input,
        '-t',
        String(maxSeconds),
        '-an',
        '-vf',
        greyFilter(size),
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        'pipe:1',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 2000) stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg failed (${code}): ${stderr.trim().slice(0, 200)}`));
      resolve(splitFrames(Buffer.concat(chunks), size));
    });
  });
}

/** Raw grey bytes → frames of `frame` size. */
export function splitFrames(raw: Buffer, frame: FrameSize = ANALYSIS): Uint8Array[] {
  const size = frame.width * frame.height;
  const out: Uint8Array[] = [];
  for (let o = 0; o + size <= raw.length; o += size) out.push(raw.subarray(o, o + size));
  return out;
}

const codeLabel = (serveId: string) => `video-mark-code\n${serveId}`;

/** Bit `index` of `keyedSigns(secret, label, …)` (true for +1), from its own HMAC block only. */
function keyedBit(secret: string, label: string, index: number): boolean {
  const block = createHmac('sha256', secret)
    .update(`${label}\n${Math.floor(index / 256)}`)
    .digest();
  return (((block[Math.floor(index / 8) % 32] as number) >> (index % 8)) & 1) === 1;
}

function keyedSigns(secret: string, label: string, count: number): Float64Array {
  const out = new Float64Array(count);
  let block = 0;
  let bytes = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const byte = Math.floor(i / 8);
    while (byte >= bytes.length) {
      bytes = Buffer.concat([bytes, createHmac('sha256', secret).update(`${label}\n${block++}`).digest()]);
    }
    out[i] = ((bytes[byte] as number) >> (i % 8)) & 1 ? 1 : -1;
  }
  return out;
}

/** Subtracts the mean in place. */
function centered(a: Float64Array): Float64Array {
  let mean = 0;
  for (const v of a) mean += v;
  mean /= a.length || 1;
  for (let i = 0; i < a.length; i++) a[i] = (a[i] as number) - mean;
  return a;
}

function zeroMean(a: Float64Array): Float64Array {
  let mean = 0;
  for (const v of a) mean += v;
  mean /= a.length;
  return a.map((v) => v - mean);
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}
