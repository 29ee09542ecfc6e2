/**
 * The nearest-rank percentile `p` (0–100) of ascending `sorted` values; NaN when there are none, so
 * an empty sample never reads as a latency of 0.
 */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;
