/**
 * Registering a leaked copy of a marked video against the stored reference of its unmarked picture
 * (ADR 0041): where in the video the copy starts (a trim, an excerpt), which part of the frame it
 * shows (a crop, then any rescale, even a change of aspect) and whether it is mirrored. The search
 * looks at the picture only, never at the mark, so it does not bias the bits read afterwards.
 *
 * Coordinates: the original frame is [0, 1]²; the copy shows the rectangle [left, right] × [top,
 * bottom] of it (mirrored when `flip`), stretched to its whole frame; copy frame k shows reference
 * frame k + lag (both at ANALYSIS.fps).
 */
import { ANALYSIS } from './video-mark.ts';

/** The copy's picture as the tracer decodes it: grey, this size (aspect ignored), ANALYSIS.fps. */
export const COPY = { width: 256, height: 144 } as const;

export interface Geometry {
  left: number;
  right: number;
  top: number;
  bottom: number;
  flip: boolean;
}

export interface Alignment extends Geometry {
  /** Reference frame = copy frame + lag. */
  lag: number;
  /** The copy mapped onto the reference's ANALYSIS grid (one cell kept off its edges). */
  sampler: Sampler;
  /** Mean absolute grey difference of the registered copy and the reference (same video at all?). */
  distance: number;
}

/** The largest share of each side a copy may have cropped away (and still be registered). */
const MAX_CROP = 0.2;
/** Thumbnail size of the time search. */
const THUMB = { width: 16, height: 9 } as const;
/** Copy frames compared in the time search, at most. */
const TIME_SAMPLES = 60;
/** Copy frames compared in the spatial search (the grid stage: fewer). */
const SPACE_SAMPLES = 8;
const GRID_SAMPLES = 5;

/** A copy's frames with their rows' prefix sums (computed when first needed). */
export class CopyPicture {
  private readonly prefixes = new Map<number, Float64Array>();

  constructor(readonly frames: readonly Uint8Array[]) {}

  get length(): number {
    return this.frames.length;
  }

  /** Per row of frame k, the running sums of its pixels: H × (W + 1). Kept when `keep`. */
  rowSums(k: number, keep = true): Float64Array {
    const cached = this.prefixes.get(k);
    if (cached) return cached;
    const frame = this.frames[k] as Uint8Array;
    const w = COPY.width;
    const out = new Float64Array((w + 1) * COPY.height);
    for (let y = 0; y < COPY.height; y++) {
      let sum = 0;
      const o = y * (w + 1);
      for (let x = 0; x < w; x++) {
        sum += frame[y * w + x] as number;
        out[o + x + 1] = sum;
      }
    }
    if (keep) this.prefixes.set(k, out);
    return out;
  }

  /** Forgets the kept sums. */
  release(): void {
    this.prefixes.clear();
  }
}

/** Where a continuous coordinate falls: cell index (clamped) and the fraction into it. */
function cellAt(v: number, cells: number): [number, number] {
  const i = Math.min(cells - 1, Math.max(0, Math.floor(v)));
  return [i, Math.min(1, Math.max(0, v - i))];
}

/**
 * How one geometry maps the copy into a reference grid of width × height: the grid cells wholly
 * inside the copy (a margin of `margin` cells kept off its edges) and, per cell row and column, the
 * span of copy pixels it covers. Projection is exact box averaging of the copy's pixels (fractions
 * at the edges), done row-wise then column-wise.
 */
export class Sampler {
  readonly cols: number[] = [];
  readonly rows: number[] = [];
  private readonly ix0: Int32Array;
  private readonly fx0: Float64Array;
  private readonly ix1: Int32Array;
  private readonly fx1: Float64Array;
  private readonly v0: number[] = [];
  private readonly v1: number[] = [];
  private readonly yLo: number;
  private readonly yHi: number;
  private readonly area: number;
  private readonly sums: Float64Array;

  constructor(
    readonly g: Geometry,
    readonly width: number,
    readonly height: number,
    margin = 0,
  ) {
    const sx = COPY.width / (g.right - g.left);
    const sy = COPY.height / (g.bottom - g.top);
    const u0: number[] = [];
    const u1: number[] = [];
    for (let i = 0; i < width; i++) {
      const x0 = i / width;
      const x1 = (i + 1) / width;
      if (x0 < g.left + margin / width - 1e-9 || x1 > g.right - margin / width + 1e-9) continue;
      this.cols.push(i);
      u0.push(g.flip ? (g.right - x1) * sx : (x0 - g.left) * sx);
      u1.push(g.flip ? (g.right - x0) * sx : (x1 - g.left) * sx);
    }
    for (let j = 0; j < height; j++) {
      const y0 = j / height;
      const y1 = (j + 1) / height;
      if (y0 < g.top + margin / height - 1e-9 || y1 > g.bottom - margin / height + 1e-9) continue;
      this.rows.push(j);
      this.v0.push((y0 - g.top) * sy);
      this.v1.push((y1 - g.top) * sy);
    }
    const nc = this.cols.length;
    this.ix0 = new Int32Array(nc);
    this.fx0 = new Float64Array(nc);
    this.ix1 = new Int32Array(nc);
    this.fx1 = new Float64Array(nc);
    for (let c = 0; c < nc; c++) {
      [this.ix0[c], this.fx0[c]] = cellAt(u0[c] as number, COPY.width);
      [this.ix1[c], this.fx1[c]] = cellAt(u1[c] as number, COPY.width);
    }
    this.yLo = this.rows.length ? Math.max(0, Math.floor(this.v0[0] as number)) : 0;
    this.yHi = this.rows.length
      ? Math.min(COPY.height, Math.ceil(this.v1[this.rows.length - 1] as number))
      : 0;
    this.area = (sx / width) * (sy / height);
    this.sums = new Float64Array((this.yHi - this.yLo + 1) * nc);
  }

  get count(): number {
    return this.cols.length * this.rows.length;
  }

  /** The copy frame (its row sums) averaged over each valid cell, in rows × cols order. */
  project(rowSums: Float64Array, out = new Float64Array(this.count)): Float64Array {
    const nc = this.cols.length;
    const stride = COPY.width + 1;
    const { ix0, fx0, ix1, fx1, sums, yLo } = this;
    // Running column sums over copy rows yLo…yHi−1 of each cell column's horizontal span.
    for (let c = 0; c < nc; c++) sums[c] = 0;
    for (let y = yLo; y < this.yHi; y++) {
      const o = y * stride;
      const prev = (y - yLo) * nc;
      const next = prev + nc;
      for (let c = 0; c < nc; c++) {
        const a = o + (ix0[c] as number);
        const b = o + (ix1[c] as number);
        const ra = rowSums[a] as number;
        const rb = rowSums[b] as number;
        const span =
          rb +
          ((rowSums[b + 1] as number) - rb) * (fx1[c] as number) -
          ra -
          ((rowSums[a + 1] as number) - ra) * (fx0[c] as number);
        sums[next + c] = (sums[prev + c] as number) + span;
      }
    }
    const rowsIn = this.yHi - yLo;
    let n = 0;
    for (let r = 0; r < this.rows.length; r++) {
      const [i0, f0] = cellAt((this.v0[r] as number) - yLo, rowsIn);
      const [i1, f1] = cellAt((this.v1[r] as number) - yLo, rowsIn);
      for (let c = 0; c < nc; c++) {
        const a0 = sums[i0 * nc + c] as number;
        const a1 = sums[(i0 + 1) * nc + c] as number;
        const b0 = sums[i1 * nc + c] as number;
        const b1 = sums[(i1 + 1) * nc + c] as number;
        out[n++] = (b0 + (b1 - b0) * f1 - a0 - (a1 - a0) * f0) / this.area;
      }
    }
    return out;
  }

  /** The same cells of a reference frame (at this grid's size). */
  pick(frame: ArrayLike<number>, out = new Float64Array(this.count)): Float64Array {
    let n = 0;
    for (const j of this.rows) for (const i of this.cols) out[n++] = frame[j * this.width + i] as number;
    return out;
  }
}

/** A reference frame (ANALYSIS size) block-averaged down by `factor`. */
function shrink(frame: Uint8Array, factor: number): Float64Array {
  const w = ANALYSIS.width / factor;
  const h = ANALYSIS.height / factor;
  const out = new Float64Array(w * h);
  for (let y = 0; y < ANALYSIS.height; y++) {
    const row = Math.floor(y / factor) * w;
    for (let x = 0; x < ANALYSIS.width; x++) {
      const o = row + Math.floor(x / factor);
      out[o] = (out[o] as number) + (frame[y * ANALYSIS.width + x] as number);
    }
  }
  const n = factor * factor;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / n;
  return out;
}

/** Zero mean, unit norm (or all zero for a flat vector). */
function normalize(v: Float64Array): Float64Array {
  let mean = 0;
  for (const x of v) mean += x;
  mean /= v.length || 1;
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    const d = (v[i] as number) - mean;
    v[i] = d;
    norm += d * d;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i] = norm > 1e-9 ? (v[i] as number) / norm : 0;
  return v;
}

function spread(n: number, count: number): number[] {
  if (n <= count) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.floor(((i + 0.5) * n) / count));
}

/** Copy frame indices sampled evenly over the part that overlaps the reference at `lag`. */
function overlapSamples(copy: CopyPicture, reference: readonly Uint8Array[], lag: number, count: number) {
  const first = Math.max(0, -lag);
  const last = Math.min(copy.length, reference.length - lag);
  return spread(Math.max(0, last - first), count).map((k) => k + first);
}

/**
 * Normalized correlation of sampled copy vectors (`copy[s]` is copy frame samples[s]) with the
 * reference's (one per frame), averaged, for every lag at which ≥ 80 % of the samples overlap.
 */
function lagScores(
  copyLength: number,
  samples: readonly number[],
  copy: readonly Float64Array[],
  reference: readonly Float64Array[],
): { lag: number; score: number }[] {
  const out: { lag: number; score: number }[] = [];
  const last = reference.length - Math.ceil(copyLength * 0.8);
  for (let lag = -Math.floor(copyLength * 0.2); lag <= last; lag++) {
    let sum = 0;
    let n = 0;
    for (let s = 0; s < samples.length; s++) {
      const r = reference[(samples[s] as number) + lag];
      if (!r) continue;
      const c = copy[s] as Float64Array;
      let d = 0;
      for (let i = 0; i < c.length; i++) d += (c[i] as number) * (r[i] as number);
      sum += d;
      n++;
    }
    if (n >= samples.length * 0.8) out.push({ lag, score: sum / n });
  }
  return out;
}

/**
 * Coarse time search: the copy's thumbnails (whole frame, as is and mirrored) against the
 * reference's (whole frame, and its middle 90 %: most crops fall between), normalized correlation
 * averaged over sampled frames, for every lag at which at least 80 % of the copy overlaps. The best
 * few (lag, mirror) pairs, best first.
 */
export function timeCandidates(
  copy: CopyPicture,
  reference: readonly Uint8Array[],
  count = 3,
): { lag: number; flip: boolean; score: number }[] {
  const samples = spread(copy.length, TIME_SAMPLES);
  if (samples.length === 0 || reference.length === 0) return [];
  const thumbs = reference.map((f) => shrink(f, ANALYSIS.width / THUMB.width));
  const found: { lag: number; flip: boolean; score: number }[] = [];
  const shapes: Geometry[] = [
    { left: 0, right: 1, top: 0, bottom: 1, flip: false },
    { left: 0.05, right: 0.95, top: 0.05, bottom: 0.95, flip: false },
  ];
  for (const shape of shapes) {
    for (const flip of [false, true]) {
      const sampler = new Sampler({ ...shape, flip }, THUMB.width, THUMB.height);
      const ref = thumbs.map((t) => normalize(sampler.pick(t)));
      const cp = samples.map((k) => normalize(sampler.project(copy.rowSums(k))));
      for (const { lag, score } of lagScores(copy.length, samples, cp, ref)) found.push({ lag, flip, score });
    }
  }
  found.sort((a, b) => b.score - a.score || Math.abs(a.lag) - Math.abs(b.lag));
  const picked: typeof found = [];
  for (const f of found) {
    if (picked.some((p) => p.flip === f.flip && Math.abs(p.lag - f.lag) <= 5)) continue;
    picked.push(f);
    if (picked.length >= count) break;
  }
  return picked;
}

/** The reference's frames at the two sizes the search uses (computed once, when first needed). */
class ReferencePicture {
  private coarseFrames: Float64Array[] | null = null;

  constructor(readonly frames: readonly Uint8Array[]) {}

  get length(): number {
    return this.frames.length;
  }

  /** All frames block-averaged to a quarter of ANALYSIS size. */
  get coarse(): Float64Array[] {
    this.coarseFrames ??= this.frames.map((f) => shrink(f, COARSE));
    return this.coarseFrames;
  }
}

/** How far (frames) the rough lag may be off: the crop search compares within ±this. */
const LAG_SLACK = 3;
/** The coarse level's cells are this many ANALYSIS pixels wide. */
const COARSE = 4;
const COARSE_SIZE = { width: ANALYSIS.width / COARSE, height: ANALYSIS.height / COARSE };

type Level = 'coarse' | 'fine';

function samplerAt(g: Geometry, level: Level): Sampler {
  return level === 'coarse'
    ? new Sampler(g, COARSE_SIZE.width, COARSE_SIZE.height, 0)
    : new Sampler(g, ANALYSIS.width, ANALYSIS.height, 1);
}

/**
 * How well a geometry registers the sampled copy frames at `lag`: the mean squared (or absolute)
 * difference with the reference over the cells the copy shows, each frame's mean difference taken
 * out (brightness drift). With `slack`, each copy frame is compared with the best-matching
 * reference frame within ±slack of its lag (a rough lag must not steer the crop search wrong).
 */
function residual(
  copy: CopyPicture,
  ref: ReferencePicture,
  samples: readonly number[],
  lag: number,
  g: Geometry,
  level: Level,
  opts: { absolute?: boolean; slack?: number } = {},
): number {
  const sampler = samplerAt(g, level);
  if (sampler.count < 16) return Number.POSITIVE_INFINITY;
  const slack = opts.slack ?? 0;
  let total = 0;
  let frames = 0;
  const a = new Float64Array(sampler.count);
  const b = new Float64Array(sampler.count);
  for (const k of samples) {
    let projected = false;
    let best = Number.POSITIVE_INFINITY;
    for (let d = -slack; d <= slack; d++) {
      const frame = level === 'coarse' ? ref.coarse[k + lag + d] : ref.frames[k + lag + d];
      if (!frame) continue;
      if (!projected) sampler.project(copy.rowSums(k), a);
      projected = true;
      sampler.pick(frame, b);
      let mean = 0;
      for (let i = 0; i < a.length; i++) mean += (a[i] as number) - (b[i] as number);
      mean /= a.length;
      let err = 0;
      for (let i = 0; i < a.length; i++) {
        const e = (a[i] as number) - (b[i] as number) - mean;
        err += opts.absolute ? Math.abs(e) : e * e;
      }
      best = Math.min(best, err / a.length);
    }
    if (!projected) continue;
    total += best;
    frames++;
  }
  return frames ? total / frames : Number.POSITIVE_INFINITY;
}

const EDGES = ['left', 'right', 'top', 'bottom'] as const;

/** Coordinate descent on the crop rectangle with shrinking steps (each edge within MAX_CROP). */
function descend(cost: (g: Geometry) => number, start: Geometry, steps: readonly number[]): Geometry {
  let g = start;
  let c = cost(g);
  for (const step of steps) {
    for (let moved = true, rounds = 0; moved && rounds < 20; rounds++) {
      moved = false;
      for (const key of EDGES) {
        for (const sign of [-1, 1]) {
          const v = g[key] + sign * step;
          const near = key === 'left' || key === 'top';
          if (v < (near ? 0 : 1 - MAX_CROP) - 1e-9 || v > (near ? MAX_CROP : 1) + 1e-9) continue;
          const next = { ...g, [key]: v };
          const nc = cost(next);
          if (nc < c) {
            g = next;
            c = nc;
            moved = true;
          }
        }
      }
    }
  }
  return g;
}

/** The crop rectangle and mirror at `lag`: a coarse grid over both mirrors, then coarse descent. */
function gridGeometry(copy: CopyPicture, ref: ReferencePicture, lag: number): Geometry {
  const samples = overlapSamples(copy, ref.frames, lag, GRID_SAMPLES);
  const cost = (g: Geometry) => residual(copy, ref, samples, lag, g, 'coarse', { slack: LAG_SLACK });
  const cuts = [0, 0.05, 0.1, 0.15, 0.2].filter((v) => v <= MAX_CROP);
  const tried: { g: Geometry; c: number }[] = [];
  for (const flip of [false, true])
    for (const l of cuts)
      for (const r of cuts)
        for (const t of cuts)
          for (const b of cuts) {
            const g = { left: l, right: 1 - r, top: t, bottom: 1 - b, flip };
            tried.push({ g, c: cost(g) });
          }
  tried.sort((x, y) => x.c - y.c);
  // The best few grid points each descended (a near miss on the grid may be the better start).
  let best: { g: Geometry; c: number } | null = null;
  for (const { g: start } of tried.slice(0, 3)) {
    const g = descend(cost, start, [0.025, 0.0125]);
    const c = cost(g);
    if (!best || c < best.c) best = { g, c };
  }
  return (best as { g: Geometry }).g;
}

/**
 * The lag, for a known geometry: normalized correlation at the coarse level for every lag at which
 * most of the copy overlaps, the best few refined at the fine level (±2 frames).
 */
function searchLag(copy: CopyPicture, ref: ReferencePicture, g: Geometry): number {
  const sampler = samplerAt(g, 'coarse');
  const samples = spread(copy.length, SPACE_SAMPLES * 2);
  const cp = samples.map((k) => normalize(sampler.project(copy.rowSums(k))));
  const rf = ref.coarse.map((f) => normalize(sampler.pick(f)));
  const scored = lagScores(copy.length, samples, cp, rf);
  scored.sort((a, b) => b.score - a.score || Math.abs(a.lag) - Math.abs(b.lag));
  const tops: number[] = [];
  for (const { lag } of scored) {
    if (tops.some((t) => Math.abs(t - lag) <= 5)) continue;
    tops.push(lag);
    if (tops.length >= 3) break;
  }
  let best = tops[0] ?? 0;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const top of tops)
    for (let d = -2; d <= 2; d++) {
      const lag = top + d;
      const c = residual(copy, ref, overlapSamples(copy, ref.frames, lag, SPACE_SAMPLES * 2), lag, g, 'fine');
      if (c < bestCost - 1e-9 || (c <= bestCost + 1e-9 && Math.abs(lag) < Math.abs(best))) {
        bestCost = c;
        best = lag;
      }
    }
  return best;
}

/**
 * Registers a copy against a reference (frames at ANALYSIS size): a rough lag and mirror from
 * thumbnails, the crop at that lag, the lag again knowing the crop (the thumbnails may be fooled by
 * a crop or by repetitive content), the crop again at the new lag, then fine descent. Null when the
 * copy overlaps nothing.
 */
export function register(copy: CopyPicture, reference: readonly Uint8Array[]): Alignment | null {
  const ref = new ReferencePicture(reference);
  const [rough] = timeCandidates(copy, reference, 1);
  if (!rough) return null;
  let g = gridGeometry(copy, ref, rough.lag);
  const lag = searchLag(copy, ref, g);
  if (Math.abs(lag - rough.lag) > LAG_SLACK) g = gridGeometry(copy, ref, lag);
  const samples = overlapSamples(copy, reference, lag, SPACE_SAMPLES);
  g = descend((x) => residual(copy, ref, samples, lag, x, 'fine'), g, [0.005, 0.0025, 0.001, 0.0005]);
  const check = overlapSamples(copy, reference, lag, SPACE_SAMPLES * 2);
  const distance = residual(copy, ref, check, lag, g, 'fine', { absolute: true });
  copy.release();
  return { ...g, lag, distance, sampler: samplerAt(g, 'fine') };
}
