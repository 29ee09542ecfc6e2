/**
 * npm run bench -- --video  (or: node --import tsx bench/video.ts)
 *
 * Issue 16's video figures, measured on this machine in one run:
 * - transcoding speed as a multiple of real time for a 1080p 30 s clip: the whole job's work
 *   (probe, poster, the encrypted HLS ladder 240p–1080p + the MP4 fallback, seek sprite) and the
 *   ladder alone, for the configured x264 preset (VIDEO_PRESET, default veryfast) and `superfast`;
 * - time to first frame: the real app (PGlite) serves the transcoded video through the protected
 *   HLS delivery; headless Chromium loads a page with hls.js, asks `media.play`, and the time from
 *   navigation start to the first decoded frame (requestVideoFrameCallback) is reported.
 * - transcoding cost per rendition: each rung encoded alone, wall and CPU seconds (ffmpeg's, read
 *   from /proc/self/stat's children times) per minute of video;
 * - protected delivery throughput: autocannon against the segment of a locked video (public,
 *   encrypted), the session-bound key URL and the rendition playlist (signature, session and
 *   entitlement checked on each request), requests per second.
 * Numbers, never assertions. Writes the "Video" section of docs/benchmarks.md (between its markers,
 * other sections stay).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium as launcher } from '@playwright/test';
import autocannon from 'autocannon';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { resolveFfmpeg } from '../apps/server/src/media/ffmpeg.ts';
import { HlsKeys } from '../apps/server/src/media/hls/keys.ts';
import { fitLadder, transcodeHls } from '../apps/server/src/media/transcode.ts';
import { transcodeVideo } from '../apps/server/src/media/video.ts';
import { createUser, subscribe } from '../apps/server/test/factories.ts';
import { createTestApp } from '../apps/server/test/harness.ts';
import { postForm } from '../apps/server/test/media-fixtures.ts';
import { chromium } from '../e2e/chromium.ts';
import { writeSection } from './sections.ts';

const root = path.resolve(import.meta.dirname, '..');
const SECONDS = 30;

function makeSource(dir: string): string {
  const out = path.join(dir, 'source-1080p.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1920x1080:rate=30:duration=${SECONDS}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${SECONDS}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '20',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    out,
  ]);
  return out;
}

/** CPU seconds (user + system) of this process's finished children (ffmpeg), from /proc. */
function childCpuSeconds(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 (cutime, cstime) counted from 1 at the pid; here index 13, 14.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const start = performance.now();
  const cpu = childCpuSeconds();
  const value = await fn();
  return [value, (performance.now() - start) / 1000, childCpuSeconds() - cpu];
}

/** Each rung of the 1080p ladder encoded alone: wall and ffmpeg CPU seconds per minute of video. */
async function perRendition(source: string, dir: string) {
  const paths = resolveFfmpeg({});
  const keys = new HlsKeys('bench');
  const preset = process.env.VIDEO_PRESET ?? 'veryfast';
  const rows: { name: string; wallPerMinute: number; cpuPerMinute: number }[] = [];
  for (const r of fitLadder(1920, 1080)) {
    const out = fs.mkdtempSync(path.join(dir, `rung-${r.name}-`));
    const [, wall, cpu] = await timed(() =>
      transcodeHls(paths, source, out, {
        renditions: [r],
        keyOf: (n) => keys.key('video', 'bench', n, 'k'),
        duration: SECONDS,
        hasAudio: true,
        mp4: false,
        preset,
      }),
    );
    rows.push({ name: r.name, wallPerMinute: (wall * 60) / SECONDS, cpuPerMinute: (cpu * 60) / SECONDS });
  }
  return { preset, rows };
}

async function transcodeFigures(source: string, dir: string) {
  const paths = resolveFfmpeg({});
  const keys = new HlsKeys('bench');
  const rows: { what: string; preset: string; seconds: number; cpu: number; speed: number }[] = [];
  // The configured preset; BENCH_VIDEO_PRESETS=veryfast,superfast compares several.
  const presets = [
    ...new Set((process.env.BENCH_VIDEO_PRESETS ?? process.env.VIDEO_PRESET ?? 'veryfast').split(',')),
  ];
  for (const preset of presets) {
    const work = fs.mkdtempSync(path.join(dir, `job-${preset}-`));
    const [, whole, wholeCpu] = await timed(() =>
      transcodeVideo(paths, source, work, { keys, mediaId: 'bench', preset }),
    );
    rows.push({
      what: 'whole job (ladder + MP4 + poster + sprite)',
      preset,
      seconds: whole,
      cpu: wholeCpu,
      speed: SECONDS / whole,
    });
    const ladderDir = fs.mkdtempSync(path.join(dir, `ladder-${preset}-`));
    const [, ladder, ladderCpu] = await timed(() =>
      transcodeHls(paths, source, ladderDir, {
        renditions: fitLadder(1920, 1080),
        keyOf: (r) => keys.key('video', 'bench', r, 'k'),
        duration: SECONDS,
        hasAudio: true,
        mp4: false,
        preset,
      }),
    );
    rows.push({
      what: 'HLS ladder alone (4 renditions)',
      preset,
      seconds: ladder,
      cpu: ladderCpu,
      speed: SECONDS / ladder,
    });
  }
  return rows;
}

async function firstFrame(source: string): Promise<{ times: number[]; serving: Serving[] }> {
  // Outside vitest: its own migrated PGlite database (the harness's template comes from vitest).
  process.env.NODE_ENV ??= 'test';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-bench-video-db-'));
  const database = await openDatabase({ dataDir });
  await migrate(database);
  const t = await createTestApp({ MEDIA_MAX_VIDEO_MB: '200' }, { database });
  try {
    const hlsJs = fs.readFileSync(path.join(root, 'node_modules/hls.js/dist/hls.min.js'), 'utf8');
    // The bench page and hls.js are answered by the browser's request interception on the app's
    // origin (the harness's app is already started: no routes can be added to it).
    const playerHtml = `<!doctype html><video id="v" muted playsinline></video>
<script src="/bench/hls.js"></script><script>
(async () => {
  const token = location.hash.slice(1).split(',')[0], id = location.hash.slice(1).split(',')[1];
  const play = await (await fetch('/api/v1/media/' + id + '/play', { headers: { a1sledom: token } })).json();
  const v = document.getElementById('v');
  const hls = new Hls({ xhrSetup: (x, u) => { if (!u.includes('/seg_')) x.setRequestHeader('a1sledom', token); } });
  v.requestVideoFrameCallback(() => { window.firstFrame = performance.now(); });
  hls.loadSource(play.hls); hls.attachMedia(v); v.play();
})();
</script>`;
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const res = await postForm(
      base,
      '/api/v1/posts',
      creator.token,
      {
        certifyAdults: 'true',
        certifyConsent: 'true',
        certifyTerms: 'true',
        message: 'bench',
        visibility: 'free',
      },
      [{ name: 'bench.mp4', data: fs.readFileSync(source) }],
    );
    const mediaId = (res.body.post as { media: { _id: string }[] }).media[0]?._id;
    // A subscribers-only copy for a subscribed fan: the protected delivery's request rates.
    const locked = await postForm(
      base,
      '/api/v1/posts',
      creator.token,
      {
        certifyAdults: 'true',
        certifyConsent: 'true',
        certifyTerms: 'true',
        message: 'bench locked',
        visibility: 'subscribers',
      },
      [{ name: 'bench.mp4', data: fs.readFileSync(source) }],
    );
    const lockedPost = locked.body.post as { _id: string; media: { _id: string }[] };
    const lockedId = lockedPost.media[0]?._id;
    await t.jobs.drain();
    // Fans see published posts only: a moderator approves it.
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    await t.call('admin.postReview', { id: lockedPost._id, adminStatus: 'approved' }, { token: admin.token });
    const serving = await deliveryRates(t, base, creator.id, lockedId ?? '');
    const browser = await launcher.launch(chromium);
    const times: number[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const page = await (await browser.newContext()).newPage();
        await page.route('**/bench/hls.js', (r) =>
          r.fulfill({ contentType: 'text/javascript', body: hlsJs }),
        );
        await page.route('**/bench/player', (r) => r.fulfill({ contentType: 'text/html', body: playerHtml }));
        await page.goto(`${base}/bench/player#${creator.token},${mediaId}`);
        await page.waitForFunction(
          () => (globalThis as unknown as { firstFrame?: number }).firstFrame,
          undefined,
          {
            timeout: 30_000,
          },
        );
        times.push(await page.evaluate(() => (globalThis as unknown as { firstFrame: number }).firstFrame));
        await page.context().close();
      }
    } finally {
      await browser.close();
    }
    return { times, serving };
  } finally {
    await t.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Serving {
  what: string;
  rps: number;
  p99: number;
  errors: number;
}

/** autocannon against a locked video's segment, key and rendition playlist, as a subscribed fan. */
async function deliveryRates(
  t: Awaited<ReturnType<typeof createTestApp>>,
  base: string,
  creatorId: string,
  mediaId: string,
): Promise<Serving[]> {
  const fan = await createUser(t, {});
  await subscribe(t, fan.id, creatorId);
  const headers = { a1sledom: fan.token };
  const play = (await (await fetch(`${base}/api/v1/media/${mediaId}/play`, { headers })).json()) as {
    hls: string;
  };
  const master = await (await fetch(`${base}${play.hls}`, { headers })).text();
  const playlistUrl = master.split('\n').find((l) => l && !l.startsWith('#')) ?? '';
  const playlist = await (await fetch(`${base}${playlistUrl}`, { headers })).text();
  const keyUrl = /URI="([^"]+)"/.exec(playlist)?.[1] ?? '';
  const segmentUrl = playlist.split('\n').find((l) => l && !l.startsWith('#')) ?? '';
  const targets: [string, string, Record<string, string>][] = [
    ['encrypted segment (public, ~4 s of 240p)', segmentUrl, {}],
    ['key (signature + session + entitlement)', keyUrl, headers],
    ['rendition playlist (same checks + rewrite)', playlistUrl, headers],
  ];
  const out: Serving[] = [];
  for (const [what, url, h] of targets) {
    const full = url.startsWith('http') ? url : `${base}${url}`;
    await autocannon({ url: full, connections: 4, duration: 2, headers: h });
    const r = await autocannon({ url: full, connections: 16, duration: 10, headers: h, timeout: 30 });
    out.push({ what, rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx });
  }
  return out;
}

export async function benchVideo(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-bench-video-'));
  try {
    const source = makeSource(dir);
    const load = os.loadavg();
    const { times: frames, serving } = await firstFrame(source);
    const rows = await transcodeFigures(source, dir);
    const rungs = await perRendition(source, dir);
    const loadEnd = os.loadavg();
    const sorted = [...frames].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
    const lines = [
      `Run ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average ${fmt(load)} at the start, ${fmt(loadEnd)} at the end (the machine is shared: wall times grow with its load; CPU seconds and the rows' ratios much less). \`npm run bench -- --video\`.`,
      '',
      `Source: 1080p30 H.264 + AAC, ${SECONDS} s. Speed = seconds of video per second of work (≥ 1× keeps up with real time).`,
      '',
      '| work | x264 preset | wall s | ffmpeg CPU s | speed × real time |',
      '|---|---|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.what} | ${r.preset} | ${r.seconds.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.speed.toFixed(2)}× |`,
      ),
      '',
      `Per rendition, each rung encoded alone (${rungs.preset}, AES-128 HLS), per minute of video:`,
      '',
      '| rendition | wall s / min | ffmpeg CPU s / min |',
      '|---|---:|---:|',
      ...rungs.rows.map(
        (r) => `| ${r.name} | ${r.wallPerMinute.toFixed(1)} | ${r.cpuPerMinute.toFixed(1)} |`,
      ),
      '',
      'Protected delivery of a subscribers-only video to a subscribed fan (app in-process on PGlite, autocannon 16 connections, 10 s after a 2 s warm-up):',
      '',
      '| request | req/s | p99 ms | errors + non-2xx |',
      '|---|---:|---:|---:|',
      ...serving.map((s) => `| ${s.what} | ${s.rps.toFixed(0)} | ${s.p99} | ${s.errors} |`),
      '',
      `Time to first frame (Chromium + hls.js, app on loopback, media.play → master → 1st rendition → key → segment → decoded frame, from navigation start), 5 cold page loads: median ${median.toFixed(0)} ms (${sorted.map((f) => f.toFixed(0)).join(', ')} ms).`,
      '',
    ];
    return lines.join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Its section of docs/benchmarks.md (bench/sections.ts). */
export const VIDEO = {
  start: '<!-- bench:video:start -->',
  end: '<!-- bench:video:end -->',
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await benchVideo();
  writeSection(
    path.join(root, 'docs/benchmarks.md'),
    VIDEO,
    `## Video (\`npm run bench -- --video\`, issue 16)\n\n${report}`,
  );
  console.info(report);
}
