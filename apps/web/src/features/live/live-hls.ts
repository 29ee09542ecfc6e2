/**
 * hls.js settings of the live player (LivePlayer.tsx), shared with the latency benchmark
 * (bench/live-latency.ts) so that what is measured is what fans get.
 *
 * The server writes 0.5 s segments, each starting with a key frame (LIVE_SEGMENT_SECONDS). The
 * player holds 1.25 s behind the newest one (two and a half segments: one may be late without a
 * stall), speeds up to 1.5× when it falls behind, jumps back to the live edge beyond 4 s, and, with
 * short segments, reloads the rolling playlist about twice a second (near the edge hls.js waits one
 * segment duration). bench:live, docs/benchmarks.md.
 */
export const LIVE_HLS_CONFIG = {
  lowLatencyMode: true,
  liveSyncDuration: 1.25,
  liveMaxLatencyDuration: 4,
  maxLiveSyncPlaybackRate: 1.5,
  backBufferLength: 10,
  manifestLoadingMaxRetry: 30,
  manifestLoadingRetryDelay: 1000,
  levelLoadingMaxRetry: 30,
} as const;
