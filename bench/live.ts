// npm run bench:live — the live media path on this machine: (1) camera-to-viewer latency on the
// default path, measured in Chromium from a wall clock burned into the frames (bench/live-latency.ts);
// (2) how many simulated 720p viewers (playlist every second, then the key and each new segment,
// with the entitlement rule on every playlist and key request) one server serves, with its CPU and
// memory, an RTMP push by ffmpeg being the source. BENCH_LATENCY_ONLY=1 runs (1) only.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { makeCreator } from '../apps/server/src/payments/money.testkit.ts';
import { createUser, subscribe } from '../apps/server/test/factories.ts';
import { createTestApp } from '../apps/server/test/harness.ts';
import { pushTestPattern } from '../apps/server/test/rtmp-push.ts';
import { LIVE_HLS_CONFIG } from '../apps/web/src/features/live/live-hls.ts';
import { measureLatency } from './live-latency.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rtmpPort = await freePort();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-bench-live-'));
const database = await openDatabase({ dataDir: path.join(dir, 'db') });
await migrate(database);
// LIVE_SEGMENT_SECONDS and BENCH_SYNC (the player's hold-back) compare settings; the defaults are the app's.
const segmentSeconds = Number(
  process.env.LIVE_SEGMENT_SECONDS ?? loadConfig({ NODE_ENV: 'test' }).live.segmentSeconds,
);
const playerSyncSeconds = Number(process.env.BENCH_SYNC ?? LIVE_HLS_CONFIG.liveSyncDuration);
const t = await createTestApp(
  { LIVE_RTMP_PORT: String(rtmpPort), LIVE_DIR: dir, LIVE_SEGMENT_SECONDS: String(segmentSeconds) },
  { database },
);
const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
const creator = await makeCreator(t);
const viewersMax = Number(process.env.BENCH_VIEWERS ?? 400);
const fans = await Promise.all(Array.from({ length: 5 }, () => createUser(t)));
for (const f of fans) await subscribe(t, f.id, creator.id);
const { key } = (await t.call('lives.createStreamKey', undefined, { token: creator.token })).body;
const id = (
  await t.call(
    'lives.start',
    { title: 'bench', audience: 'subscribers', source: 'rtmp' },
    { token: creator.token },
  )
).body.live._id;

// 1. Camera-to-viewer latency on the default path (browser chunks over the socket), at the player.
const latency = [];
for (const chunkMs of (process.env.BENCH_CHUNK_MS ?? '500,250').split(',').map(Number)) {
  const streamer = await makeCreator(t);
  await subscribe(t, fans[1]!.id, streamer.id);
  const live = (
    await t.call(
      'lives.start',
      { title: 'latency', audience: 'subscribers', source: 'browser' },
      { token: streamer.token },
    )
  ).body.live._id;
  const playlistUrl = (await t.call('lives.get', undefined, { token: fans[1]!.token, params: { id: live } }))
    .body.playlist;
  if (!playlistUrl) throw new Error('the fan may not watch');
  latency.push(
    await measureLatency({
      base,
      liveId: live,
      creatorToken: streamer.token,
      viewerToken: fans[1]!.token,
      playlistUrl,
      chunkMs,
      segmentSeconds,
      playerSyncSeconds,
      seconds: Number(process.env.BENCH_LATENCY_SECONDS ?? 45),
      warmupSeconds: 15,
    }),
  );
  await t.call('lives.end', undefined, { token: streamer.token, params: { id: live } });
  console.info(JSON.stringify({ load: os.loadavg()[0], latency: latency.at(-1) }));
}
if (process.env.BENCH_LATENCY_ONLY) {
  console.info(
    JSON.stringify({ machine: { cores: os.cpus().length, load: os.loadavg() }, latency }, null, 2),
  );
  await t.stop();
  process.exit(0);
}

// 2. Viewers per server at 720p: an RTMP push, simulated players.
const seconds = 75;
const pushStart = Date.now();
const push = pushTestPattern(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`, seconds, { zeroLatency: true });

// Latency: when each segment first appears in the playlist, against when its last frame left the source.
const hlsDir = path.join(dir, id);
const seen = new Map<number, number>();
const lengths = new Map<number, number>();
const watcher = setInterval(() => {
  try {
    const text = fs.readFileSync(path.join(hlsDir, 'index.m3u8'), 'utf8');
    const seq = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? 0);
    const durations = [...text.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1]));
    durations.forEach((d, i) => {
      lengths.set(seq + i, d);
    });
    // Where each listed segment ends in the source: the lengths of every segment before it (as
    // listed when seen; segments already dropped from the window count the configured length).
    let end = 0;
    for (let n = 0; n < seq + durations.length; n++) {
      end += lengths.get(n) ?? segmentSeconds;
      if (n >= seq && !seen.has(n)) seen.set(n, Date.now() - pushStart - end * 1000);
    }
  } catch {
    // not written yet
  }
}, 50);

// Viewers: each fetches the playlist every second and the newest segment it has not fetched yet.
async function viewers(count: number, ms: number) {
  const fan = fans[0]!;
  const headers = { authorization: `Bearer ${fan.token}` };
  // The signed, session-bound playlist URL the live page gives this fan (media/hls, source `live`).
  const playlistUrl = (await t.call('lives.get', undefined, { token: fan.token, params: { id } })).body
    .playlist;
  if (!playlistUrl) throw new Error('the fan may not watch');
  let ok = 0;
  let failed = 0;
  let bytes = 0;
  const times: number[] = [];
  const until = Date.now() + ms;
  const cpu0 = process.cpuUsage();
  const wall0 = Date.now();
  let rss = 0;
  const one = async () => {
    let last = '';
    await sleep(Math.random() * 1000);
    while (Date.now() < until) {
      const started = Date.now();
      try {
        const res = await fetch(`${base}${playlistUrl}`, { headers });
        const text = await res.text();
        if (!res.ok) throw new Error(String(res.status));
        const segs = text.split('\n').filter((l) => l.includes('/seg_'));
        const newest = segs.at(-1);
        if (newest && newest !== last) {
          // Like hls.js: the key (entitlement checked again; its signed URL changes as the playlist
          // is re-signed), then the encrypted segment.
          const keyUrl = /URI="([^"]+)"/.exec(text)?.[1];
          if (!keyUrl) throw new Error('no key');
          const k = await fetch(`${base}${keyUrl}`, { headers });
          await k.arrayBuffer();
          if (!k.ok) throw new Error(String(k.status));
          const s = await fetch(`${base}${newest}`);
          bytes += (await s.arrayBuffer()).byteLength;
          if (!s.ok) throw new Error(String(s.status));
          last = newest;
        }
        ok++;
        times.push(Date.now() - started);
      } catch {
        failed++;
      }
      rss = Math.max(rss, process.memoryUsage().rss);
      await sleep(Math.max(0, 1000 - (Date.now() - started)));
    }
  };
  await Promise.all(Array.from({ length: count }, one));
  const cpu = process.cpuUsage(cpu0);
  const wall = Date.now() - wall0;
  times.sort((a, b) => a - b);
  return {
    viewers: count,
    rounds: ok,
    failed,
    mbitPerSecond: Math.round(((bytes * 8) / (wall / 1000) / 1e6) * 10) / 10,
    p50ms: times[Math.floor(times.length / 2)] ?? 0,
    p99ms: times[Math.floor(times.length * 0.99)] ?? 0,
    /** Node process (server + simulated players) CPU, % of one core; ffmpeg is separate. */
    nodeCpuPercent: Math.round(((cpu.user + cpu.system) / 1000 / wall) * 100),
    rssMb: Math.round(rss / 1e6),
  };
}

await sleep(8000);
const results = [];
for (const n of [50, 200, viewersMax]) results.push(await viewers(n, 12_000));
clearInterval(watcher);
push.kill('SIGINT');
const delays = [...seen.entries()]
  .filter(([n]) => n > 2)
  .map(([, d]) => d)
  .sort((a, b) => a - b);
const median = delays[Math.floor(delays.length / 2)] ?? NaN;
console.info(
  JSON.stringify(
    {
      machine: { cores: os.cpus().length, load: os.loadavg().map((l) => Math.round(l * 100) / 100) },
      latency,
      segmentSeconds,
      segmentServedAfterSourceMs: { median, max: delays.at(-1), samples: delays.length },
      // hls.js plays liveSyncDuration behind the newest segment.
      estimatedCameraToViewerSeconds: Math.round((median / 1000 + playerSyncSeconds) * 10) / 10,
      viewers: results,
    },
    null,
    2,
  ),
);
await t.stop();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
