import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FfmpegPaths } from './ffmpeg.ts';
import { HlsKeys } from './hls/keys.ts';
import { masterPlaylist } from './hls/playlist.ts';

/** What transcodeHls needs to mark a video (ADR 0041): the grey blend frame of each variant. */
export interface MarkFrames {
  blendFrame(width: number, height: number, variant: 'a' | 'b'): Buffer;
  /** Segment length of the marked renditions (one bit each). */
  segmentSeconds: number;
  /** ffmpeg filter making the tracer's reference of the unmarked picture (grey raw frames). */
  referenceFilter: string;
}

/** One step of the adaptive ladder, named by the short side of the picture. */
export interface Rung {
  name: string;
  short: number;
  videoKbps: number;
  audioKbps: number;
}

export const LADDER: readonly Rung[] = [
  { name: '240p', short: 240, videoKbps: 400, audioKbps: 64 },
  { name: '480p', short: 480, videoKbps: 1000, audioKbps: 96 },
  { name: '720p', short: 720, videoKbps: 2500, audioKbps: 128 },
  { name: '1080p', short: 1080, videoKbps: 4500, audioKbps: 128 },
];

export interface Rendition extends Rung {
  width: number;
  height: number;
  /** Peak bandwidth for the master playlist, bits per second. */
  bandwidth: number;
}

/** Clips up to this long also get a faststart MP4 (players without HLS or MSE; downloads of none). */
export const MP4_FALLBACK_MAX_SECONDS = 60;
export const SEGMENT_SECONDS = 4;
const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));

/**
 * The rungs that fit a source of `width`×`height` (display size): every rung whose short side is
 * at most the source's, never upscaled. A source smaller than the first rung gets one rendition at
 * its own size.
 */
export function fitLadder(width: number, height: number): Rendition[] {
  const short = Math.min(width, height);
  const scaled = (r: Rung, s: number): Rendition => {
    const f = s / short;
    return {
      ...r,
      short: s,
      width: even(width * f),
      height: even(height * f),
      bandwidth: Math.round((r.videoKbps * 1.1 + r.audioKbps) * 1000),
    };
  };
  const fits = LADDER.filter((r) => r.short <= short);
  if (fits.length === 0) return [scaled(LADDER[0] as Rung, even(short))];
  return fits.map((r) => scaled(r, r.short));
}

export interface TranscodeOptions {
  renditions: Rendition[];
  /** AES-128 key of each rendition (HlsKeys.key). */
  keyOf(rendition: string): Buffer;
  duration: number | null;
  hasAudio: boolean;
  /** Write `fallback.mp4` (the rendition nearest 480p) too. */
  mp4: boolean;
  /**
   * Also encode the free preview: the first `seconds` of the rendition nearest 480p as its own HLS
   * rendition `preview/` with its own key (`keyOf('preview')`), outside the master playlist, so
   * the preview's key decrypts nothing else. Marked like the renditions when they are.
   */
  previewSeconds?: number;
  /** x264 preset: `veryfast` by default; the ladder must keep up with real time on 2 cores. */
  preset?: string;
  /** Run ffmpeg at the lowest CPU priority (nice 19): background re-encodings yield to uploads. */
  lowPriority?: boolean;
  onProgress?(fraction: number): void;
  /**
   * Forensic A/B marking (ADR 0041): every rendition and the free preview are encoded twice
   * (`<rendition>/a/`, `<rendition>/b/`, same key, IV and keyframes, `mark.segmentSeconds` segments
   * from t = 0, so the preview's segment i covers the same frames as the renditions') with opposite
   * invisible marks, `<rendition>/index.m3u8` is the playlist template, and `mark-ref.gray` is the
   * tracer's reference. The MP4 fallback (its owner's only) is not marked.
   */
  mark?: MarkFrames;
}

export interface TranscodeResult {
  /** outDir/master.m3u8, outDir/<rendition>/index.m3u8 + seg_NNNNN.ts */
  master: string;
  mp4: string | null;
  /** outDir/preview/index.m3u8 when a preview was asked for. */
  preview: string | null;
  /** outDir/mark-ref.gray (the tracer's reference) when marked. */
  reference: string | null;
}

/**
 * Source → H.264/AAC HLS, every rendition AES-128 encrypted with its own key, in ONE ffmpeg run (the
 * source is decoded once and split), plus the optional MP4 fallback. Keyframes every segment so
 * every rendition switches on the same boundaries.
 */
export async function transcodeHls(
  paths: FfmpegPaths,
  input: string,
  outDir: string,
  opts: TranscodeOptions,
): Promise<TranscodeResult> {
  const { renditions, mark } = opts;
  const preset = opts.preset ?? 'veryfast';
  const segmentSeconds = mark?.segmentSeconds ?? SEGMENT_SECONDS;
  const fallback = opts.mp4 ? nearest480(renditions, 'mp4') : null;
  const preview = opts.previewSeconds && opts.previewSeconds > 0 ? nearest480(renditions, 'preview') : null;
  const outputs = [...renditions, ...(fallback ? [fallback] : []), ...(preview ? [preview] : [])];
  // Marked outputs by their index in `outputs`: every rendition, and the preview (the last output).
  const marked = mark
    ? [...renditions.map((r, i) => ({ r, i })), ...(preview ? [{ r: preview, i: outputs.length - 1 }] : [])]
    : [];
  const split = outputs.map((_, i) => `[s${i}]`).join('');
  const filters = [
    `[0:v]split=${outputs.length + (mark ? 1 : 0)}${split}${mark ? '[ref]' : ''}`,
    ...outputs.map((r, i) => `[s${i}]scale=${r.width}:${r.height}:flags=bicubic,format=yuv420p[o${i}]`),
  ];
  const inputs: string[] = [];
  if (mark) {
    // Each marked picture split in two, each with its variant's mark (a grey frame, repeated).
    filters.push(`[ref]${mark.referenceFilter}[reference]`);
    for (const { r, i } of marked) {
      filters[i + 1] = `${filters[i + 1]?.replace(/\[o\d+\]$/, '')},split=2[u${i}a][u${i}b]`;
      for (const v of ['a', 'b'] as const) {
        const file = path.join(outDir, `${r.name}-${v}.yuv`);
        await fs.promises.mkdir(outDir, { recursive: true });
        await fs.promises.writeFile(file, mark.blendFrame(r.width, r.height, v));
        const index = 1 + inputs.length / 8;
        inputs.push(
          '-f',
          'rawvideo',
          '-pix_fmt',
          'yuv420p',
          '-video_size',
          `${r.width}x${r.height}`,
          '-i',
          file,
        );
        filters.push(`[u${i}${v}][${index}:v]blend=all_mode=grainmerge[o${i}${v}]`);
      }
    }
  }
  const args = [
    '-v',
    'error',
    '-y',
    '-nostdin',
    '-i',
    input,
    ...inputs,
    '-filter_complex',
    filters.join(';'),
  ];
  const video = (r: Rendition) => [
    '-c:v',
    'libx264',
    '-preset',
    preset,
    '-profile:v',
    r.short <= 240 ? 'baseline' : 'main',
    '-crf',
    '23',
    '-maxrate',
    `${r.videoKbps}k`,
    '-bufsize',
    `${r.videoKbps * 2}k`,
    '-force_key_frames',
    `expr:gte(t,n_forced*${segmentSeconds})`,
    '-sc_threshold',
    '0',
    ...(opts.hasAudio ? ['-c:a', 'aac', '-b:a', `${r.audioKbps}k`, '-ac', '2', '-ar', '48000'] : []),
    '-map_metadata',
    '-1',
  ];
  // Every rendition and the preview (cut at its length); a marked one is two outputs (variants a
  // and b) sharing its key and IV.
  const hls = renditions.map((r, i) => ({ r, i, limit: [] as string[] }));
  if (preview && opts.previewSeconds)
    hls.push({ r: preview, i: outputs.length - 1, limit: ['-t', String(opts.previewSeconds)] });
  const hlsOutputs = hls.flatMap(({ r, i, limit }) =>
    mark
      ? (['a', 'b'] as const).map((v) => ({ r, label: `o${i}${v}`, dir: `${r.name}/${v}`, limit }))
      : [{ r, label: `o${i}`, dir: r.name, limit }],
  );
  const ivs = new Map<string, string>();
  for (const { r, label, dir: sub, limit } of hlsOutputs) {
    const dir = path.join(outDir, sub);
    await fs.promises.mkdir(dir, { recursive: true });
    const info = path.join(outDir, `${r.name}.keyinfo`);
    if (!ivs.has(r.name)) {
      ivs.set(r.name, HlsKeys.newIv());
      await HlsKeys.writeKeyInfo(
        info,
        path.join(outDir, `${r.name}.key`),
        opts.keyOf(r.name),
        ivs.get(r.name) as string,
      );
    }
    args.push(
      '-map',
      `[${label}]`,
      ...(opts.hasAudio ? ['-map', '0:a:0'] : []),
      ...video(r),
      ...limit,
      '-f',
      'hls',
      '-hls_time',
      String(segmentSeconds),
      '-hls_playlist_type',
      'vod',
      '-hls_segment_type',
      'mpegts',
      '-hls_segment_filename',
      path.join(dir, 'seg_%05d.ts'),
      '-hls_key_info_file',
      info,
      path.join(dir, 'index.m3u8'),
    );
  }
  let mp4: string | null = null;
  if (fallback) {
    mp4 = path.join(outDir, 'fallback.mp4');
    args.push(
      '-map',
      `[o${renditions.length}]`,
      ...(opts.hasAudio ? ['-map', '0:a:0'] : []),
      ...video(fallback),
      '-movflags',
      '+faststart',
      mp4,
    );
  }
  if (mark)
    args.push(
      '-map',
      '[reference]',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      path.join(outDir, 'mark-ref.gray'),
    );
  args.push('-progress', 'pipe:1', '-nostats');
  await runFfmpeg(paths.ffmpeg, args, opts.duration, opts.onProgress, opts.lowPriority);
  if (mark) {
    // The stored template: variant a's playlist, its segments named as in both variants.
    for (const { r } of marked) {
      await fs.promises.copyFile(
        path.join(outDir, r.name, 'a', 'index.m3u8'),
        path.join(outDir, r.name, 'index.m3u8'),
      );
      for (const v of ['a', 'b']) {
        await fs.promises.rm(path.join(outDir, r.name, v, 'index.m3u8'), { force: true });
        await fs.promises.rm(path.join(outDir, `${r.name}-${v}.yuv`), { force: true });
      }
    }
  }
  const master = path.join(outDir, 'master.m3u8');
  await fs.promises.writeFile(
    master,
    masterPlaylist(
      renditions.map((r) => ({
        ...r,
        codecs: `${r.short <= 240 ? 'avc1.42e01e' : 'avc1.4d401f'}${opts.hasAudio ? ',mp4a.40.2' : ''}`,
      })),
    ),
  );
  // The key files were only for ffmpeg: keys are derived again when asked for (HlsKeys).
  for (const r of new Set(hlsOutputs.map((o) => o.r))) {
    await fs.promises.rm(path.join(outDir, `${r.name}.key`), { force: true });
    await fs.promises.rm(path.join(outDir, `${r.name}.keyinfo`), { force: true });
  }
  return {
    master,
    mp4,
    preview: preview ? path.join(outDir, 'preview', 'index.m3u8') : null,
    reference: mark ? path.join(outDir, 'mark-ref.gray') : null,
  };
}

/** The rendition nearest 480p, renamed (the MP4 fallback, the free preview). */
function nearest480(renditions: Rendition[], name: string): Rendition {
  const best = [...renditions].sort((a, b) => Math.abs(a.short - 480) - Math.abs(b.short - 480))[0];
  if (!best) throw new Error('no rendition');
  return { ...best, name };
}

/** Thumbnail strip for seeking: one JPEG sprite of `count` tiles, a tile every `interval` s. */
export interface Sprite {
  file: string;
  interval: number;
  count: number;
  columns: number;
  tileWidth: number;
  tileHeight: number;
}

export async function thumbnailSprite(
  paths: FfmpegPaths,
  input: string,
  out: string,
  source: { width: number; height: number; duration: number },
  lowPriority = false,
): Promise<Sprite> {
  const interval = Math.max(1, Math.ceil(source.duration / 100));
  const count = Math.max(1, Math.min(100, Math.ceil(source.duration / interval)));
  const columns = Math.min(10, count);
  const rows = Math.ceil(count / columns);
  const tileWidth = 160;
  const tileHeight = even((source.height / source.width) * tileWidth);
  await runFfmpeg(
    paths.ffmpeg,
    [
      '-v',
      'error',
      '-y',
      '-nostdin',
      '-i',
      input,
      '-vf',
      `fps=1/${interval},scale=${tileWidth}:${tileHeight},tile=${columns}x${rows}`,
      '-frames:v',
      '1',
      '-q:v',
      '5',
      out,
    ],
    null,
    undefined,
    lowPriority,
  );
  return { file: out, interval, count, columns, tileWidth, tileHeight };
}

/** WebVTT of the sprite's tiles (`url#xywh=x,y,w,h`), the form players read for seek previews. */
export function spriteVtt(s: Omit<Sprite, 'file'>, url: string, duration: number): string {
  const ts = (t: number) => {
    const h = Math.floor(t / 3600);
    const m = Math.floor((t % 3600) / 60);
    const sec = t % 60;
    return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${sec.toFixed(3).padStart(6, '0')}`;
  };
  const out = ['WEBVTT', ''];
  for (let i = 0; i < s.count; i++) {
    const start = i * s.interval;
    if (start >= duration && i > 0) break;
    const end = Math.min(duration, start + s.interval);
    const x = (i % s.columns) * s.tileWidth;
    const y = Math.floor(i / s.columns) * s.tileHeight;
    out.push(`${ts(start)} --> ${ts(end)}`, `${url}#xywh=${x},${y},${s.tileWidth},${s.tileHeight}`, '');
  }
  return out.join('\n');
}

/**
 * Runs ffmpeg, reporting `-progress` out_time against the duration; stderr makes the error. At low
 * priority the process gets nice 19 as it starts, before it makes its encoding threads (which
 * inherit it).
 */
function runFfmpeg(
  bin: string,
  args: string[],
  duration: number | null,
  onProgress?: (fraction: number) => void,
  lowPriority = false,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    if (lowPriority && child.pid) {
      try {
        os.setPriority(child.pid, 19);
      } catch {
        // Not permitted here: it runs at the normal priority.
      }
    }
    let stderr = '';
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (m && duration && onProgress) onProgress(Math.min(1, Number(m[1]) / 1e6 / duration));
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg failed (${code}): ${stderr.trim().slice(0, 300)}`));
    });
  });
}
