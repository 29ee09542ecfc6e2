import FFT from 'fft.js';

/** Square 2-D complex FFT on interleaved (re, im) rows, row-major, size a power of two. */
export class Fft2d {
  private readonly fft: FFT;
  private readonly rowIn: Float64Array;
  private readonly rowOut: Float64Array;
  /** Spelt out rather than a parameter property: the pool's thread runs this file with Node's type stripping. */
  readonly size: number;

  constructor(size: number) {
    this.size = size;
    this.fft = new FFT(size);
    this.rowIn = new Float64Array(2 * size);
    this.rowOut = new Float64Array(2 * size);
  }

  /** A zeroed complex plane of size × size. */
  plane(): Float64Array {
    return new Float64Array(2 * this.size * this.size);
  }

  /** In place: forward (inverse = false) or inverse transform (scaled by 1 / size²). */
  run(data: Float64Array, inverse = false): void {
    const n = this.size;
    const { rowIn, rowOut, fft } = this;
    for (let y = 0; y < n; y++) {
      const base = 2 * y * n;
      rowIn.set(data.subarray(base, base + 2 * n));
      if (inverse) fft.inverseTransform(rowOut, rowIn);
      else fft.transform(rowOut, rowIn);
      data.set(rowOut, base);
    }
    for (let x = 0; x < n; x++) {
      for (let y = 0; y < n; y++) {
        const i = 2 * (y * n + x);
        rowIn[2 * y] = data[i] as number;
        rowIn[2 * y + 1] = data[i + 1] as number;
      }
      if (inverse) fft.inverseTransform(rowOut, rowIn);
      else fft.transform(rowOut, rowIn);
      for (let y = 0; y < n; y++) {
        const i = 2 * (y * n + x);
        data[i] = rowOut[2 * y] as number;
        data[i + 1] = rowOut[2 * y + 1] as number;
      }
    }
  }
}
