/**
 * npm run bench:video-mark  (node --import tsx bench/video-mark.ts)
 *
 * What the forensic A/B video mark costs (ADR 0041), measured on this machine in one run:
 * - the encrypted HLS ladder of a 720p 30 s clip (240p, 480p, 720p in one ffmpeg run) without and
 *   with marking (every rendition twice): wall and ffmpeg CPU seconds, and bytes stored;
 * - how visible the mark is: PSNR of the marked 720p rendition against the same encode unmarked;
 * - the tracer: time to read a 30 s leaked copy (decode, registration against the reference, reading),
 *   as is and trimmed + cropped + mirrored.
 * Numbers, never assertions. Writes the "Video mark" section of docs/benchmarks.md (between its
 * markers, other sections stay).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveFfmpeg } from '../apps/server/src/media/ffmpeg.ts';
import { HlsKeys } from '../apps/server/src/media/hls/keys.ts';
import { fitLadder, transcodeHls } from '../apps/server/src/media/transcode.ts';
import { COPY, CopyPicture, register } from '../apps/server/src/watermark/video-align.ts';
import {
  ANALYSIS_FILTER,
  analysisFrames,
  MARK_SEGMENT_SECONDS,
  splitFrames,
  VideoMarkKey,
} from '../apps/server/src/watermark/video-mark.ts';
import { writeSection } from './sections.ts';

const root = path.resolve(import.meta.dirname, '..');
const SECONDS = 30;
const VIDEO_MARK = { start: '<!-- bench:video-mark:start -->', end: '<!-- bench:video-mark:end -->' };

function childCpuSeconds(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const start = performance.now();
  const cpu = childCpuSeconds();
  const value = await fn();
  return [value, (performance.now() - start) / 1000, childCpuSeconds() - cpu];
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? bytesUnder(p) : fs.statSync(p).size;
  }
  return total;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-bench-mark-'));
  const source = path.join(dir, 'source.mp4');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=30:duration=${SECONDS}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${SECONDS}`],
    ...[
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
      source,
    ],
  ]);
  const paths = resolveFfmpeg({});
  const keys = new HlsKeys('bench');
  const markKey = new VideoMarkKey('bench');
  const preset = process.env.VIDEO_PRESET ?? 'veryfast';
  const renditions = fitLadder(1280, 720);
  const run = (out: string, marked: boolean) =>
    transcodeHls(paths, source, out, {
      renditions,
      keyOf: (n) => keys.key('video', 'bench', n, 'k'),
      duration: SECONDS,
      hasAudio: true,
      mp4: false,
      preset,
      mark: marked
        ? {
            blendFrame: (w, h, v) => markKey.blendFrame(w, h, v),
            segmentSeconds: MARK_SEGMENT_SECONDS,
            referenceFilter: ANALYSIS_FILTER,
          }
        : undefined,
    });
  const plainDir = path.join(dir, 'plain');
  const markedDir = path.join(dir, 'marked');
  const [, plainWall, plainCpu] = await timed(() => run(plainDir, false));
  const [, markedWall, markedCpu] = await timed(() => run(markedDir, true));
  const plainBytes = bytesUnder(plainDir);
  const markedBytes = bytesUnder(markedDir);
  const refBytes = fs.statSync(path.join(markedDir, 'mark-ref.gray')).size;

  // Visibility: the 720p rendition's marked variant A against the same encode without the mark,
  // both decrypted by ffmpeg from their playlists.
  const decode = (playlist: string, out: string) =>
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-allowed_extensions', 'ALL', '-i', playlist, '-an', '-c:v', 'rawvideo'],
      ...['-pix_fmt', 'yuv420p', '-f', 'nut', out],
    ]);
  const keyFile = (d: string) => {
    fs.writeFileSync(path.join(d, '720p', 'key'), keys.key('video', 'bench', '720p', 'k'));
    return d;
  };
  keyFile(plainDir);
  keyFile(markedDir);
  const markedPlaylist = path.join(markedDir, '720p', 'a', 'index.m3u8');
  fs.writeFileSync(
    markedPlaylist,
    fs
      .readFileSync(path.join(markedDir, '720p', 'index.m3u8'), 'utf8')
      .replace('URI="key"', `URI="${path.join(markedDir, '720p', 'key')}"`),
  );
  const plainPlaylist = path.join(plainDir, '720p', 'index.m3u8');
  fs.writeFileSync(
    plainPlaylist,
    fs
      .readFileSync(plainPlaylist, 'utf8')
      .replace('URI="key"', `URI="${path.join(plainDir, '720p', 'key')}"`),
  );
  decode(plainPlaylist, path.join(dir, 'plain.nut'));
  decode(markedPlaylist, path.join(dir, 'marked.nut'));
  const psnrLog = execFileSync(
    'sh',
    [
      '-c',
      `ffmpeg -v info -i '${path.join(dir, 'marked.nut')}' -i '${path.join(dir, 'plain.nut')}' -lavfi psnr -f null - 2>&1 | grep -o 'y:[0-9.inf]*' | tail -1`,
    ],
    { encoding: 'utf8' },
  ).trim();

  // The tracer on a 30 s copy (the marked 720p variant A as a file), and on an edited one: cropped
  // 10 % off one corner, mirrored, its first 7.3 s cut, re-encoded at 480p.
  const copy = path.join(dir, 'copy.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', path.join(dir, 'marked.nut'), '-c:v', 'libx264', copy]);
  const edited = path.join(dir, 'edited.mp4');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-i', path.join(dir, 'marked.nut'), '-ss', '7.3'],
    ...['-vf', 'crop=iw*0.9:ih*0.9:0:0,hflip,scale=854:480', '-c:v', 'libx264', edited],
  ]);
  const reference = splitFrames(fs.readFileSync(path.join(markedDir, 'mark-ref.gray')));
  const segments = Math.ceil(reference.length / (MARK_SEGMENT_SECONDS * 10));
  const traceOf = async (file: string) => {
    const start = performance.now();
    const picture = new CopyPicture(await analysisFrames(paths.ffmpeg, file, 300, COPY));
    const decodeMs = performance.now() - start;
    const alignStart = performance.now();
    const alignment = register(picture, reference);
    const alignMs = performance.now() - alignStart;
    const readStart = performance.now();
    const readings = alignment ? markKey.readBits(picture, reference, alignment, segments) : [];
    const readMs = performance.now() - readStart;
    const read = readings.filter((r) => r.z !== 0).map((r) => Math.abs(r.z));
    return { decodeMs, alignMs, readMs, minZ: read.length ? Math.min(...read) : 0, bits: read.length };
  };
  const plainTrace = await traceOf(copy);
  const editedTrace = await traceOf(edited);
  const traceLine = (label: string, t: Awaited<ReturnType<typeof traceOf>>) =>
    `| ${label} | ${t.decodeMs.toFixed(0)} | ${t.alignMs.toFixed(0)} | ${t.readMs.toFixed(0)} | ${t.bits} | ${t.minZ.toFixed(1)} |`;

  const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
  const load = os.loadavg().map((l) => l.toFixed(2));
  const section = [
    '## Video mark (`npm run bench:video-mark`, issue 19, ADR 0041)',
    '',
    `Run ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load average ${load.join(' ')} at the end (shared machine: wall times grow with its load; CPU seconds much less).`,
    '',
    `Source: 720p30 H.264 + AAC, ${SECONDS} s; encrypted HLS ladder ${renditions.map((r) => r.name).join(', ')} in one ffmpeg run, x264 \`${preset}\`.`,
    "No free preview here: a locked video's preview (at most 30 s of the rung nearest 480p) is encoded in the same run, in A/B variants too when the video is marked (ADR 0041): a few percent of the ladder's cost for a video of minutes, more for a clip barely longer than its preview.",
    '',
    '| ladder | wall s | ffmpeg CPU s | stored MB |',
    '|---|---:|---:|---:|',
    `| unmarked (4 s segments) | ${plainWall.toFixed(1)} | ${plainCpu.toFixed(1)} | ${mb(plainBytes)} |`,
    `| marked A/B (2 s segments, + reference) | ${markedWall.toFixed(1)} | ${markedCpu.toFixed(1)} | ${mb(markedBytes)} |`,
    `| ratio | ${(markedWall / plainWall).toFixed(2)}× | ${(markedCpu / plainCpu).toFixed(2)}× | ${(markedBytes / plainBytes).toFixed(2)}× |`,
    '',
    `Tracer reference: ${(refBytes / 1024).toFixed(0)} KB per ${SECONDS} s (${(refBytes / SECONDS / 1024).toFixed(0)} KB/s, grey 128×72 at 10 fps).`,
    `Visibility: PSNR of the marked 720p variant against the same encode unmarked, luma ${Number(psnrLog.replace('y:', '')).toFixed(1)} dB.`,
    '',
    `Tracer (a bit counts from 4 σ):`,
    '',
    '| copy | decode ms | registration ms | reading ms | segments read | weakest σ |',
    '|---|---:|---:|---:|---:|---:|',
    traceLine(`${SECONDS} s, re-encoded`, plainTrace),
    traceLine('trimmed 7.3 s, 10 % corner crop, mirrored, 480p', editedTrace),
  ].join('\n');
  writeSection(path.join(root, 'docs/benchmarks.md'), VIDEO_MARK, section);
  process.stdout.write(`${section}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();
