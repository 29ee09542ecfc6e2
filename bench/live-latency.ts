// The camera-to-viewer latency of the default live path, measured at the player: a simulated
// browser broadcast (ffmpeg encodes WebM/VP8 like MediaRecorder and the creator's socket sends it in
// chunks every LIVE_CHUNK_MS, as apps/web/src/features/live/broadcast.ts does) with the capture wall
// clock burned into every frame as a 20-bit barcode; Chromium plays the live with hls.js and the
// LivePlayer's settings, reads the barcode of each frame it presents, and compares it with its clock.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { openSocket, type TestSocket } from '../apps/server/test/sockets.ts';
import { LIVE_HLS_CONFIG } from '../apps/web/src/features/live/live-hls.ts';

const require = createRequire(import.meta.url);
const BITS = 20;
const WRAP = 2 ** BITS;
const BAR = 64;

/**
 * The source's video filter: the wall clock in ms (mod 2^20) as white/black boxes on the top bar.
 * `setpts=RTCTIME` makes `t` the wall clock at the moment the frame is made (ffmpeg reads `-re`),
 * then the timestamps start again from zero for the encoder.
 */
function barcodeFilter(width: number): string {
  const w = Math.floor(width / BITS);
  const boxes = Array.from(
    { length: BITS },
    (_, i) =>
      `drawbox=x=${i * w}:y=0:w=${w}:h=${BAR}:color=white:t=fill:enable='eq(mod(floor(t*1000/${2 ** i}),2),1)'`,
  );
  return [
    'settb=AVTB',
    'setpts=RTCTIME',
    `drawbox=x=0:y=0:w=${width}:h=${BAR}:color=black:t=fill`,
    ...boxes,
    'setpts=PTS-STARTPTS',
  ].join(',');
}

/** The player page's script: hls.js with the LivePlayer's settings, a barcode read per presented frame. */
const PLAYER = (src: string, token: string, sync: number, width: number) => `
  const video = document.querySelector('video');
  const hls = new Hls({
    ...${JSON.stringify({ ...LIVE_HLS_CONFIG, liveSyncDuration: sync })},
    xhrSetup: (xhr, url) => { if (!/seg_\\d+\\.ts/.test(url)) xhr.setRequestHeader('authorization', 'Bearer ${token}'); },
  });
  hls.on(Hls.Events.ERROR, (_e, d) => {
    if (!d.fatal) return;
    if (d.details === Hls.ErrorDetails.MANIFEST_LOAD_ERROR) setTimeout(() => hls.loadSource(${JSON.stringify(src)}), 500);
    else if (d.type === Hls.ErrorTypes.NETWORK_ERROR) setTimeout(() => hls.startLoad(), 500);
    else hls.recoverMediaError();
  });
  hls.loadSource(${JSON.stringify(src)});
  hls.attachMedia(video);
  video.muted = true;
  hls.on(Hls.Events.MANIFEST_PARSED, () => video.play().catch(() => {}));
  const canvas = document.createElement('canvas');
  canvas.width = ${width}; canvas.height = ${BAR};
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  window.samples = [];
  // Stalls: the player ran out of buffer (the 'waiting' event), with the time.
  window.stalls = [];
  video.addEventListener('waiting', () => window.stalls.push(Date.now()));
  const read = (_now, meta) => {
    ctx.drawImage(video, 0, 0, ${width}, ${BAR}, 0, 0, ${width}, ${BAR});
    const row = ctx.getImageData(0, ${BAR / 2}, ${width}, 1).data;
    const w = Math.floor(${width} / ${BITS});
    let code = 0;
    for (let i = 0; i < ${BITS}; i++) if (row[(i * w + (w >> 1)) * 4] > 128) code += 2 ** i;
    const shown = performance.timeOrigin + meta.expectedDisplayTime;
    window.samples.push([Math.round(shown), code]);
    video.requestVideoFrameCallback(read);
  };
  video.requestVideoFrameCallback(read);
`;

export interface LatencyResult {
  chunkMs: number;
  segmentSeconds: number;
  playerSyncSeconds: number;
  frames: number;
  /** Times the player ran out of buffer after the warm-up. */
  stalls: number;
  p50ms: number;
  p90ms: number;
  maxMs: number;
  minMs: number;
}

/**
 * Streams `seconds` of a 1280×720 barcode pattern into the live `liveId` as its creator's browser
 * would, plays it in Chromium as `viewerToken`, and answers the latency of the frames presented after
 * `warmupSeconds` (the player first catches up with the live edge).
 */
export async function measureLatency(opts: {
  base: string;
  liveId: string;
  creatorToken: string;
  viewerToken: string;
  playlistUrl: string;
  chunkMs: number;
  segmentSeconds: number;
  playerSyncSeconds: number;
  seconds: number;
  warmupSeconds: number;
  width?: number;
}): Promise<LatencyResult> {
  const width = opts.width ?? 1280;
  const sockets: TestSocket[] = [];
  const socket = await openSocket(opts.base, opts.creatorToken, sockets);
  const source: ChildProcess = spawn(
    'ffmpeg',
    [
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=${width}x${Math.round((width * 9) / 16)}:rate=30`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440',
      '-t',
      String(opts.seconds),
      '-vf',
      barcodeFilter(width),
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      '2500k',
      '-g',
      '60',
      '-c:a',
      'libopus',
      '-f',
      'webm',
      '-live',
      '1',
      '-cluster_time_limit',
      String(Math.min(opts.chunkMs, 250)),
      '-flush_packets',
      '1',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // MediaRecorder's timeslice: what was encoded during the last chunkMs goes out in one message.
  let pending: Buffer[] = [];
  source.stdout?.on('data', (d: Buffer) => pending.push(d));
  let queue = Promise.resolve();
  const flush = () => {
    if (!pending.length) return;
    const chunk = Buffer.concat(pending);
    pending = [];
    queue = queue.then(async () => {
      await socket
        .timeout(10_000)
        .emitWithAck('liveChunk', opts.liveId, chunk)
        .catch(() => false);
    });
  };
  const ticker = setInterval(flush, opts.chunkMs);
  const ended = new Promise<void>((resolve) => source.on('close', () => resolve()));

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--autoplay-policy=no-user-gesture-required'],
  });
  const page = await browser.newPage();
  await page.route(`${opts.base}/bench-player`, (r) =>
    r.fulfill({ contentType: 'text/html', body: '<!doctype html><video playsinline muted></video>' }),
  );
  await page.goto(`${opts.base}/bench-player`);
  await page.addScriptTag({ path: require.resolve('hls.js/dist/hls.min.js') });
  const started = Date.now();
  await page.addScriptTag({
    content: PLAYER(`${opts.base}${opts.playlistUrl}`, opts.viewerToken, opts.playerSyncSeconds, width),
  });
  await ended;
  clearInterval(ticker);
  flush();
  await queue;
  const samples = (await page.evaluate('window.samples')) as [number, number][];
  const stalls = ((await page.evaluate('window.stalls')) as number[]).filter(
    (at) => at > started + opts.warmupSeconds * 1000,
  ).length;
  await browser.close();
  for (const s of sockets) s.disconnect();

  const latencies = samples
    .filter(([shown]) => shown > started + opts.warmupSeconds * 1000)
    .map(([shown, code]) => ((((shown % WRAP) - code) % WRAP) + WRAP) % WRAP)
    // A misread bar (a frame in the middle of a decode) shows as a wild value; 30 s is the cap.
    .filter((ms) => ms < 30_000)
    .sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? NaN;
  return {
    chunkMs: opts.chunkMs,
    segmentSeconds: opts.segmentSeconds,
    playerSyncSeconds: opts.playerSyncSeconds,
    frames: latencies.length,
    stalls,
    p50ms: at(0.5),
    p90ms: at(0.9),
    maxMs: latencies.at(-1) ?? NaN,
    minMs: latencies[0] ?? NaN,
  };
}
