import { createHmac } from 'node:crypto';
import sharp from 'sharp';
import { Fft2d } from './fft2d.ts';

/**
 * The invisible, traceable mark (ADR 0026). A tiled spread-spectrum pattern added to luminance:
 *
 * - Four keyed pseudo-random patterns of TILE × TILE pixels (GRID × GRID cells of ±1, smoothed so
 *   they live in the mid frequencies that survive re-encoding and halving): a sync pattern R0 at
 *   shift 0 and three payload patterns R1–R3, each cyclically shifted by a 10-bit symbol (a multiple
 *   of STEP pixels). The 30 bits are the 24-bit mark id of a serve record and 6 check bits.
 * - The sum is repeated over the whole image (tiled) and scaled by local activity, so flat areas get
 *   less and textured areas more.
 * - Detection is blind: the tile period in the copy (the scale) comes from the autocorrelation of
 *   the image's high-pass residual; the residual is folded into one tile at that period (a crop is
 *   then a cyclic shift); the sync peak of the cyclic cross-correlation gives the offset, and the
 *   payload peaks relative to it give the symbols. Each peak's height in standard deviations of its
 *   correlation surface (z) gives the confidence.
 */
export const TILE = 128;
const GRID = 32;
const CELL = TILE / GRID;
/** Payload shifts are multiples of STEP pixels: (TILE / STEP)² symbols per pattern. */
const STEP = 4;
const SYMBOL_BITS = 2 * Math.log2(TILE / STEP);
const PAYLOADS = 3;
const CHECK_BITS = 6;
export const MARK_ID_BITS = PAYLOADS * SYMBOL_BITS - CHECK_BITS;
export const MAX_MARK_ID = 2 ** MARK_ID_BITS - 1;
/** Detection needs every peak at least this many standard deviations above its surface. */
export const Z_FOUND = 5;

/** Default embedding strength (grey levels of the pattern's standard deviation at average texture). */
export const DEFAULT_STRENGTH = 3;

export interface Detection {
  /** The mark id, or null when no mark was found. */
  markId: number | null;
  /** 0–1: one minus the chance that an unmarked image shows peaks this high (see confidenceOf). */
  confidence: number;
  /** The weakest of the three peaks, in standard deviations. */
  z: number;
  /** Scale of the copy relative to the served image (0.5 = halved). */
  scale: number;
}

/** The patterns for one secret: derive once per server, reuse for every image. */
export class WatermarkKey {
  /** R0 (sync) and the payload patterns. */
  readonly patterns: Float64Array[];
  private readonly fft = new Fft2d(TILE);
  /** Conjugate spectra of the patterns, for the detector's cross-correlations. */
  readonly spectra: Float64Array[];

  constructor(secret: string) {
    this.patterns = Array.from({ length: PAYLOADS + 1 }, (_, k) => smoothPattern(secret, k));
    this.spectra = this.patterns.map((p) => {
      const plane = this.fft.plane();
      for (let i = 0; i < p.length; i++) plane[2 * i] = p[i] as number;
      this.fft.run(plane);
      for (let i = 1; i < plane.length; i += 2) plane[i] = -(plane[i] as number);
      return plane;
    });
  }

  /** The tile carrying one mark id: sync + the shifted payload patterns, unit standard deviation. */
  tile(markId: number): Float32Array {
    if (!Number.isInteger(markId) || markId < 0 || markId > MAX_MARK_ID) throw new Error('bad mark id');
    const out = new Float32Array(TILE * TILE);
    const add = (pattern: Float64Array, [a, b]: [number, number]) => {
      for (let y = 0; y < TILE; y++) {
        const src = ((y - b + TILE) % TILE) * TILE;
        for (let x = 0; x < TILE; x++)
          out[y * TILE + x] =
            (out[y * TILE + x] as number) +
            (pattern[src + ((x - a + TILE) % TILE)] as number) / Math.sqrt(PAYLOADS + 1);
      }
    };
    add(this.patterns[0] as Float64Array, [0, 0]);
    symbolsOf(markId).forEach((symbol, k) => {
      add(this.patterns[k + 1] as Float64Array, shiftOf(symbol));
    });
    return out;
  }

  get transform(): Fft2d {
    return this.fft;
  }
}

const SYMBOLS = 2 ** SYMBOL_BITS;
/** Six check bits of a mark id (a multiplicative hash): a misread payload is refused, not misnamed. */
const checkOf = (markId: number) =>
  (Math.imul(markId, 0x9e3779b1) >>> (32 - CHECK_BITS)) & (2 ** CHECK_BITS - 1);

function symbolsOf(markId: number): number[] {
  let v = markId * 2 ** CHECK_BITS + checkOf(markId);
  const out: number[] = [];
  for (let k = 0; k < PAYLOADS; k++) {
    out.push(v % SYMBOLS);
    v = Math.floor(v / SYMBOLS);
  }
  return out;
}

/** The mark id of decoded symbols, or null when the check bits disagree. */
function markIdOf(symbols: number[]): number | null {
  let v = 0;
  for (let k = PAYLOADS - 1; k >= 0; k--) v = v * SYMBOLS + (symbols[k] as number);
  const check = v % 2 ** CHECK_BITS;
  const id = Math.floor(v / 2 ** CHECK_BITS);
  return checkOf(id) === check ? id : null;
}

const shiftOf = (symbol: number): [number, number] => {
  const per = TILE / STEP;
  return [(symbol % per) * STEP, Math.floor(symbol / per) * STEP];
};
const symbolOf = (dx: number, dy: number): number => {
  const per = TILE / STEP;
  const q = (v: number) => ((Math.round(v / STEP) % per) + per) % per;
  return q(dy) * per + q(dx);
};

/** GRID × GRID keyed ±1 cells, bilinearly interpolated (periodically) to TILE × TILE, zero mean, unit sd. */
function smoothPattern(secret: string, k: number): Float64Array {
  const cells = new Float64Array(GRID * GRID);
  let filled = 0;
  for (let counter = 0; filled < cells.length; counter++) {
    const block = createHmac('sha256', secret).update(`fanverse-watermark/v1/${k}/${counter}`).digest();
    for (const byte of block)
      for (let b = 0; b < 8 && filled < cells.length; b++) cells[filled++] = (byte >> b) & 1 ? 1 : -1;
  }
  const out = new Float64Array(TILE * TILE);
  for (let y = 0; y < TILE; y++) {
    const gy = (y + 0.5) / CELL - 0.5;
    const y0 = Math.floor(gy);
    const fy = gy - y0;
    for (let x = 0; x < TILE; x++) {
      const gx = (x + 0.5) / CELL - 0.5;
      const x0 = Math.floor(gx);
      const fx = gx - x0;
      const c = (i: number, j: number) =>
        cells[(((j % GRID) + GRID) % GRID) * GRID + (((i % GRID) + GRID) % GRID)] as number;
      out[y * TILE + x] =
        (1 - fy) * ((1 - fx) * c(x0, y0) + fx * c(x0 + 1, y0)) +
        fy * ((1 - fx) * c(x0, y0 + 1) + fx * c(x0 + 1, y0 + 1));
    }
  }
  return standardize(out);
}

function standardize(v: Float64Array): Float64Array {
  let mean = 0;
  for (const x of v) mean += x;
  mean /= v.length;
  let sq = 0;
  for (const x of v) sq += (x - mean) ** 2;
  const sd = Math.sqrt(sq / v.length) || 1;
  for (let i = 0; i < v.length; i++) v[i] = ((v[i] as number) - mean) / sd;
  return v;
}

export interface EmbedOptions {
  strength?: number;
  /** Output quality of the re-encoded WebP. */
  quality?: number;
}

/**
 * Adds the mark for `markId` to an image (any format sharp reads; animated images frame by frame)
 * and returns it as WebP.
 */
export async function embedMark(
  input: Buffer,
  key: WatermarkKey,
  markId: number,
  opts: EmbedOptions = {},
): Promise<Buffer> {
  const meta = await sharp(input).metadata();
  const animated = (meta.pages ?? 1) > 1;
  const { data, info } = await sharp(input, { animated }).raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const pageHeight = animated ? (meta.pageHeight ?? height) : height;
  const tile = key.tile(markId);
  const strength = opts.strength ?? DEFAULT_STRENGTH;
  const pixels = width * pageHeight;
  const luma = new Float32Array(pixels);
  for (let top = 0; top < height; top += pageHeight) {
    const base = top * width * channels;
    for (let p = 0, i = base; p < pixels; p++, i += channels)
      luma[p] =
        channels >= 3
          ? 0.299 * (data[i] as number) + 0.587 * (data[i + 1] as number) + 0.114 * (data[i + 2] as number)
          : (data[i] as number);
    const mask = activityMask(luma, width, pageHeight);
    for (let y = 0; y < pageHeight; y++) {
      const row = (y % TILE) * TILE;
      let p = y * width;
      let i = base + p * channels;
      for (let x = 0; x < width; x++, p++, i += channels) {
        const l = luma[p] as number;
        // Near-black and near-white pixels would clip: damp the mark there.
        const edge = l < 16 ? Math.max(0.2, l / 16) : l > 239 ? Math.max(0.2, (255 - l) / 16) : 1;
        const delta = strength * edge * (mask[p] as number) * (tile[row + (x % TILE)] as number);
        data[i] = clamp8((data[i] as number) + delta);
        if (channels >= 3) {
          data[i + 1] = clamp8((data[i + 1] as number) + delta);
          data[i + 2] = clamp8((data[i + 2] as number) + delta);
        }
      }
    }
  }
  return sharp(data, { raw: { width, height, channels, ...(animated ? { pageHeight } : {}) } })
    .webp({ quality: opts.quality ?? 90 })
    .toBuffer();
}

const clamp8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

const BLOCK = 8;
/**
 * Per-pixel strength factor from the standard deviation of luminance in 8 × 8 blocks, interpolated
 * between block centres: flat areas (sky, skin) take a weaker mark, texture hides a stronger one.
 */
function activityMask(luma: Float32Array, width: number, height: number): Float32Array {
  const bw = Math.ceil(width / BLOCK);
  const bh = Math.ceil(height / BLOCK);
  const s1 = new Float64Array(bw * bh);
  const s2 = new Float64Array(bw * bh);
  const n = new Float64Array(bw * bh);
  for (let y = 0; y < height; y++) {
    const brow = Math.floor(y / BLOCK) * bw;
    for (let x = 0; x < width; x++) {
      const v = luma[y * width + x] as number;
      const b = brow + Math.floor(x / BLOCK);
      s1[b] = (s1[b] as number) + v;
      s2[b] = (s2[b] as number) + v * v;
      n[b] = (n[b] as number) + 1;
    }
  }
  const blocks = new Float32Array(bw * bh);
  for (let b = 0; b < blocks.length; b++) {
    const c = n[b] as number;
    const mean = (s1[b] as number) / c;
    const sd = Math.sqrt(Math.max(0, (s2[b] as number) / c - mean * mean));
    blocks[b] = Math.min(1.8, 0.45 + sd / 14);
  }
  const xs = new Int32Array(width);
  const xs1 = new Int32Array(width);
  const fxs = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const gx = Math.min(bw - 1, Math.max(0, (x + 0.5) / BLOCK - 0.5));
    xs[x] = Math.floor(gx);
    xs1[x] = Math.min(bw - 1, Math.floor(gx) + 1);
    fxs[x] = gx - Math.floor(gx);
  }
  const mask = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const gy = Math.min(bh - 1, Math.max(0, (y + 0.5) / BLOCK - 0.5));
    const r0 = Math.floor(gy) * bw;
    const r1 = Math.min(bh - 1, Math.floor(gy) + 1) * bw;
    const fy = gy - Math.floor(gy);
    for (let x = 0; x < width; x++) {
      const x0 = xs[x] as number;
      const x1 = xs1[x] as number;
      const fx = fxs[x] as number;
      const top = (1 - fx) * (blocks[r0 + x0] as number) + fx * (blocks[r0 + x1] as number);
      const bottom = (1 - fx) * (blocks[r1 + x0] as number) + fx * (blocks[r1 + x1] as number);
      mask[y * width + x] = (1 - fy) * top + fy * bottom;
    }
  }
  return mask;
}

/** Largest side the detector works at; bigger copies are shrunk first (the period search follows). */
const DETECT_MAX_PX = 2048;
/** Side of the window whose autocorrelation gives the tile period. */
const AC_MAX = 512;
const MIN_PERIOD = 24;
const MAX_PERIOD = 300;

/** Finds a mark in an image (any format sharp reads): the mark id and confidence, or markId null. */
export async function detectMark(input: Buffer, key: WatermarkKey): Promise<Detection> {
  const meta = await sharp(input).metadata();
  let pipeline = sharp(input, { pages: 1 }).flatten({ background: '#808080' }).greyscale();
  let shrink = 1;
  const side = Math.max(meta.width ?? 0, meta.height ?? 0);
  if (side > DETECT_MAX_PX) {
    shrink = DETECT_MAX_PX / side;
    pipeline = pipeline.resize({ width: DETECT_MAX_PX, height: DETECT_MAX_PX, fit: 'inside' });
  }
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const lum = new Float64Array(width * height);
  for (let i = 0; i < lum.length; i++) lum[i] = data[i * info.channels] as number;
  const residual = highPass(lum, width, height);

  const none: Detection = { markId: null, confidence: 0, z: 0, scale: 0 };
  if (width < 48 || height < 48) return none;

  // Every candidate period once, then the best two refined by ±0.3% and ±0.6%.
  type Trial = { z: number; period: number; spectrum: Float64Array; peak: [number, number] };
  const trial = (period: number): Trial => {
    const spectrum = spectrumOf(key, fold(residual, width, height, period));
    const { z, peak } = peakOf(correlate(key, spectrum, 0));
    return { z, period, spectrum, peak };
  };
  const first = periodCandidates(residual, width, height)
    .map(trial)
    .sort((a, b) => b.z - a.z);
  let best = first[0];
  for (const t of first.slice(0, 2))
    for (const d of [-0.006, -0.003, 0.003, 0.006]) {
      const refined = trial(t.period * (1 + d));
      if (!best || refined.z > best.z) best = refined;
    }
  if (!best) return none;
  const sync = best;
  const payload = Array.from({ length: PAYLOADS }, (_, k) => peakOf(correlate(key, sync.spectrum, k + 1)));
  const z = Math.min(sync.z, ...payload.map((p) => p.z));
  const scale = (sync.period / TILE) * (1 / shrink);
  const confidence = confidenceOf(z);
  if (z < Z_FOUND) return { markId: null, confidence, z, scale };
  const markId = markIdOf(payload.map((p) => symbolOf(p.peak[0] - sync.peak[0], p.peak[1] - sync.peak[1])));
  if (markId === null) return { markId: null, confidence: 0, z, scale };
  return { markId, confidence, z, scale };
}

/**
 * One minus the chance that noise alone puts the weakest of the three peaks at z (a union bound over
 * the TILE² positions of each surface and the scale trials).
 */
export function confidenceOf(z: number): number {
  const trials = (PAYLOADS + 1) * TILE * TILE * 16;
  return Math.max(0, 1 - Math.min(1, trials * normalTail(z)));
}

/** P(X > z) for a standard normal X (Abramowitz–Stegun 7.1.26 via erfc). */
function normalTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const erfc =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) *
    Math.exp(-x * x);
  return x >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/** Luminance minus its local mean (two passes of a 5 × 5 box), clipped so edges don't dominate. */
function highPass(lum: Float64Array, width: number, height: number): Float64Array {
  const blurred = boxBlur(boxBlur(lum, width, height, 2), width, height, 2);
  const out = new Float64Array(lum.length);
  for (let i = 0; i < lum.length; i++) {
    const v = (lum[i] as number) - (blurred[i] as number);
    out[i] = v > 6 ? 6 : v < -6 ? -6 : v;
  }
  return out;
}

function boxBlur(src: Float64Array, width: number, height: number, r: number): Float64Array {
  const tmp = new Float64Array(src.length);
  const out = new Float64Array(src.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      let n = 0;
      for (let k = Math.max(0, x - r); k <= Math.min(width - 1, x + r); k++) {
        s += src[y * width + k] as number;
        n++;
      }
      tmp[y * width + x] = s / n;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      let n = 0;
      for (let k = Math.max(0, y - r); k <= Math.min(height - 1, y + r); k++) {
        s += tmp[k * width + x] as number;
        n++;
      }
      out[y * width + x] = s / n;
    }
  }
  return out;
}

/**
 * Candidate tile periods: local maxima of the whitened autocorrelation of the residual along both
 * axes (the tiling repeats at the period), best first, refined to a fraction of a pixel.
 */
function periodCandidates(residual: Float64Array, width: number, height: number): number[] {
  let n = 64;
  while (n < Math.max(width, height) && n < AC_MAX) n *= 2;
  const fft = new Fft2d(n);
  const plane = fft.plane();
  const x0 = Math.max(0, Math.floor((width - n) / 2));
  const y0 = Math.max(0, Math.floor((height - n) / 2));
  const w = Math.min(n, width);
  const h = Math.min(n, height);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) plane[2 * (y * n + x)] = residual[(y0 + y) * width + x0 + x] as number;
  fft.run(plane);
  for (let i = 0; i < plane.length; i += 2) {
    const mag = Math.hypot(plane[i] as number, plane[i + 1] as number);
    plane[i] = Math.sqrt(mag);
    plane[i + 1] = 0;
  }
  fft.run(plane, true);
  const maxLag = Math.min(MAX_PERIOD, Math.floor(Math.min(w, h) * 0.75), n / 2 - 1);
  const score = new Float64Array(maxLag + 2);
  for (let l = MIN_PERIOD - 1; l <= maxLag + 1 && l < n / 2; l++) {
    const ox = Math.max(1, w - l) / w;
    const oy = Math.max(1, h - l) / h;
    score[l] = (plane[2 * l] as number) / ox + (plane[2 * l * n] as number) / oy;
  }
  // The tiling gives narrow peaks; image content gives broad bumps: rank by prominence over the
  // neighbourhood a few pixels away.
  const peaks: { lag: number; s: number }[] = [];
  for (let l = MIN_PERIOD; l <= maxLag; l++) {
    const s = score[l] as number;
    const a = score[l - 1] as number;
    const b = score[l + 1] as number;
    if (s > a && s >= b) {
      const k = Math.max(3, Math.round(l / 16));
      const around =
        ((score[Math.max(MIN_PERIOD - 1, l - k)] as number) +
          (score[Math.min(maxLag + 1, l + k)] as number)) /
        2;
      const denom = a - 2 * s + b;
      const offset = denom < 0 ? (0.5 * (a - b)) / denom : 0;
      peaks.push({ lag: l + offset, s: s - around });
    }
  }
  peaks.sort((p, q) => q.s - p.s);
  return peaks.slice(0, 16).map((p) => p.lag);
}

/** Sums the residual into one TILE × TILE tile, reading the copy's period as `period` pixels. */
function fold(residual: Float64Array, width: number, height: number, period: number): Float64Array {
  const sum = new Float64Array(TILE * TILE);
  const count = new Float64Array(TILE * TILE);
  const k = TILE / period;
  for (let y = 0; y < height; y++) {
    const ty = (y + 0.5) * k;
    const iy = Math.floor(ty);
    const fy = ty - iy;
    const r0 = (iy % TILE) * TILE;
    const r1 = ((iy + 1) % TILE) * TILE;
    for (let x = 0; x < width; x++) {
      const v = residual[y * width + x] as number;
      const tx = (x + 0.5) * k;
      const ix = Math.floor(tx);
      const fx = tx - ix;
      const c0 = ix % TILE;
      const c1 = (ix + 1) % TILE;
      const w00 = (1 - fx) * (1 - fy);
      const w10 = fx * (1 - fy);
      const w01 = (1 - fx) * fy;
      const w11 = fx * fy;
      sum[r0 + c0] = (sum[r0 + c0] as number) + w00 * v;
      count[r0 + c0] = (count[r0 + c0] as number) + w00;
      sum[r0 + c1] = (sum[r0 + c1] as number) + w10 * v;
      count[r0 + c1] = (count[r0 + c1] as number) + w10;
      sum[r1 + c0] = (sum[r1 + c0] as number) + w01 * v;
      count[r1 + c0] = (count[r1 + c0] as number) + w01;
      sum[r1 + c1] = (sum[r1 + c1] as number) + w11 * v;
      count[r1 + c1] = (count[r1 + c1] as number) + w11;
    }
  }
  const out = new Float64Array(TILE * TILE);
  for (let i = 0; i < out.length; i++) {
    const c = count[i] as number;
    out[i] = c > 0 ? (sum[i] as number) / c : 0;
  }
  return out;
}

function spectrumOf(key: WatermarkKey, tile: Float64Array): Float64Array {
  const fft = key.transform;
  const plane = fft.plane();
  let mean = 0;
  for (const v of tile) mean += v;
  mean /= tile.length;
  for (let i = 0; i < tile.length; i++) plane[2 * i] = (tile[i] as number) - mean;
  fft.run(plane);
  return plane;
}

/** Cyclic cross-correlation surface of a folded tile (its spectrum) with pattern k. */
function correlate(key: WatermarkKey, spectrum: Float64Array, k: number): Float64Array {
  const fft = key.transform;
  const conj = key.spectra[k] as Float64Array;
  const plane = fft.plane();
  for (let i = 0; i < plane.length; i += 2) {
    const a = spectrum[i] as number;
    const b = spectrum[i + 1] as number;
    const c = conj[i] as number;
    const d = conj[i + 1] as number;
    plane[i] = a * c - b * d;
    plane[i + 1] = a * d + b * c;
  }
  fft.run(plane, true);
  const out = new Float64Array(TILE * TILE);
  for (let i = 0; i < out.length; i++) out[i] = plane[2 * i] as number;
  return out;
}

/** Highest point of a surface and its height in standard deviations. */
function peakOf(surface: Float64Array): { z: number; peak: [number, number] } {
  let mean = 0;
  let max = -Infinity;
  let at = 0;
  for (let i = 0; i < surface.length; i++) {
    const v = surface[i] as number;
    mean += v;
    if (v > max) {
      max = v;
      at = i;
    }
  }
  mean /= surface.length;
  let sq = 0;
  for (const v of surface) sq += (v - mean) ** 2;
  const sd = Math.sqrt(sq / surface.length) || 1;
  const x = at % TILE;
  const y = Math.floor(at / TILE);
  const v = (i: number, j: number) => surface[((j + TILE) % TILE) * TILE + ((i + TILE) % TILE)] as number;
  const sub = (a: number, c: number) => {
    const denom = a - 2 * max + c;
    return denom < 0 ? (0.5 * (a - c)) / denom : 0;
  };
  return {
    z: (max - mean) / sd,
    peak: [x + sub(v(x - 1, y), v(x + 1, y)), y + sub(v(x, y - 1), v(x, y + 1))],
  };
}
