import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Media } from '@fanverse/contract';

export type MediaInfo = NonNullable<Media['info']>;

export interface FfmpegPaths {
  ffmpeg: string;
  ffprobe: string;
}

/** Where a tool came from: FFMPEG_PATH / FFPROBE_PATH, the system's PATH, or the npm package. */
export type ToolSource = 'env' | 'system' | 'npm';

export interface LocatedTool {
  path: string;
  source: ToolSource;
}

const require = createRequire(import.meta.url);
const RUN_TIMEOUT_MS = 5 * 60 * 1000;
const NPM_PACKAGES = { ffmpeg: '@ffmpeg-installer/ffmpeg', ffprobe: '@ffprobe-installer/ffprobe' } as const;

/** The first executable file called `name` in the PATH directories. */
export function findOnPath(name: string, pathEnv: string | undefined = process.env.PATH): string | undefined {
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * One tool: the override when set, else the system's (a maintained release from the distribution,
 * e.g. Debian's `ffmpeg` package), else the static binary shipped in the npm installer package.
 */
export function locateTool(
  name: keyof typeof NPM_PACKAGES,
  override: string | undefined,
  pathEnv: string | undefined = process.env.PATH,
): LocatedTool {
  if (override) return { path: override, source: 'env' };
  const system = findOnPath(name, pathEnv);
  if (system) return { path: system, source: 'system' };
  const bundled = (require(NPM_PACKAGES[name]) as { path: string }).path;
  ensureExecutable(bundled);
  return { path: bundled, source: 'npm' };
}

export function locateFfmpeg(
  opts: { ffmpegPath?: string; ffprobePath?: string },
  pathEnv: string | undefined = process.env.PATH,
): { ffmpeg: LocatedTool; ffprobe: LocatedTool } {
  return {
    ffmpeg: locateTool('ffmpeg', opts.ffmpegPath, pathEnv),
    ffprobe: locateTool('ffprobe', opts.ffprobePath, pathEnv),
  };
}

/** FFMPEG_PATH / FFPROBE_PATH when set, else the system's on PATH, else the npm-shipped binaries. */
export function resolveFfmpeg(opts: { ffmpegPath?: string; ffprobePath?: string }): FfmpegPaths {
  const found = locateFfmpeg(opts);
  return { ffmpeg: found.ffmpeg.path, ffprobe: found.ffprobe.path };
}

/** The release a tool reports (`ffmpeg version 5.1.6-0+deb12u1 …` → `5.1.6-0+deb12u1`). */
export async function toolVersion(bin: string): Promise<string> {
  const out = await run(bin, ['-version']);
  return /\bversion\s+(\S+)/.exec(out)?.[1] ?? out.split('\n')[0]?.trim() ?? 'unknown';
}

/**
 * The tools this process will use, with their source and version, for the start-up log. Throws
 * when one of them does not run (a wrong FFMPEG_PATH, a broken install).
 */
export async function describeFfmpeg(opts: { ffmpegPath?: string; ffprobePath?: string }) {
  const found = locateFfmpeg(opts);
  const describe = async (tool: LocatedTool) => ({ ...tool, version: await toolVersion(tool.path) });
  return { ffmpeg: await describe(found.ffmpeg), ffprobe: await describe(found.ffprobe) };
}

/** The packages' postinstall only sets the executable bit; installs that skip scripts lack it. */
function ensureExecutable(file: string): void {
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    fs.chmodSync(file, 0o755);
  }
}

function run(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout: RUN_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err)
        reject(
          new Error(`${bin.split('/').at(-1)} failed: ${String(stderr).trim().slice(0, 300) || err.message}`),
        );
      else resolve(String(stdout));
    });
  });
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

export interface ProbeResult {
  info: MediaInfo;
  /** Display size of the first video stream (rotation applied), if any. */
  width: number | null;
  height: number | null;
  hasVideo: boolean;
}

/** ffprobe → the contract's `info` ({streams, format.duration}) and the display size. */
export async function probe(paths: FfmpegPaths, file: string): Promise<ProbeResult> {
  const out = await run(paths.ffprobe, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    '-show_format',
    file,
  ]);
  const raw = JSON.parse(out) as { streams?: ProbeStream[]; format?: { duration?: string } };
  const streams = (raw.streams ?? []).map((s) => ({
    codec_type: s.codec_type ?? 'unknown',
    ...(s.codec_name ? { codec_name: s.codec_name } : {}),
    ...(typeof s.width === 'number' ? { width: s.width } : {}),
    ...(typeof s.height === 'number' ? { height: s.height } : {}),
  }));
  const duration = Number.parseFloat(raw.format?.duration ?? '');
  const video = (raw.streams ?? []).find((s) => s.codec_type === 'video' && s.width && s.height);
  let width = video?.width ?? null;
  let height = video?.height ?? null;
  const rotation = Number(
    video?.tags?.rotate ?? video?.side_data_list?.find((d) => d.rotation)?.rotation ?? 0,
  );
  if (Math.abs(rotation) % 180 === 90) [width, height] = [height, width];
  return {
    info: { streams, format: { duration: Number.isFinite(duration) ? duration : null } },
    width,
    height,
    hasVideo: video !== undefined,
  };
}

/** Writes one frame as PNG: about 1 s in when the video is long enough, else the first frame. */
export async function extractFrame(
  paths: FfmpegPaths,
  file: string,
  out: string,
  duration: number | null,
): Promise<void> {
  const grab = (at: number) =>
    run(paths.ffmpeg, [
      '-v',
      'error',
      '-y',
      '-ss',
      String(at),
      '-i',
      file,
      '-frames:v',
      '1',
      '-f',
      'image2',
      '-c:v',
      'png',
      out,
    ]);
  const at = duration !== null && duration > 2 ? 1 : 0;
  await grab(at);
  if (at > 0 && !fs.existsSync(out)) await grab(0);
  if (!fs.existsSync(out)) throw new Error('ffmpeg produced no frame');
}

/**
 * Logs which ffmpeg / ffprobe this process uses (FFMPEG_PATH / FFPROBE_PATH, the system's or the
 * npm-shipped ones) and their versions; called once at start. A configured path that does not run
 * stops the start; otherwise a broken tool is logged as an error and the server still starts
 * (video processing would fail, images do not need it).
 */
export async function logVideoTools(
  opts: { ffmpegPath?: string; ffprobePath?: string },
  log: { info(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void },
): Promise<void> {
  try {
    const { ffmpeg, ffprobe } = await describeFfmpeg(opts);
    log.info(
      { ffmpeg, ffprobe },
      `video tools: ffmpeg ${ffmpeg.version} (${ffmpeg.source}), ffprobe ${ffprobe.version} (${ffprobe.source})`,
    );
  } catch (err) {
    if (opts.ffmpegPath || opts.ffprobePath) {
      throw new Error(`FFMPEG_PATH / FFPROBE_PATH: ${(err as Error).message}`);
    }
    log.error({ err }, 'ffmpeg / ffprobe do not run: video processing will fail');
  }
}
