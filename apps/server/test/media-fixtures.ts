import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { resolveFfmpeg } from '../src/media/ffmpeg.ts';

const exec = promisify(execFile);

/** A small JPEG of one colour. */
export function jpeg(width = 320, height = 240, color = '#bd0909'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

/** A short H.264 MP4 made with the shipped ffmpeg (ffmpeg's test pattern, `size` as WxH). */
export async function mp4(seconds = 1, size = '64x48'): Promise<Buffer> {
  const { ffmpeg } = resolveFfmpeg({});
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-video-'));
  const out = path.join(dir, 'clip.mp4');
  await exec(ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=${size}:rate=10`,
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    out,
  ]);
  const data = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return data;
}

/**
 * Writes to `file` a 640×360 25 fps H.264 + AAC clip of ffmpeg's testsrc2 with a 440 Hz tone.
 * testsrc2's picture repeats every 12 s; `scroll` moves it slowly sideways, so no two moments of
 * up to ~55 s look alike (for a tracer that must tell from the picture where a copy starts).
 */
export async function testClip(
  file: string,
  seconds: number,
  opts: { scroll?: boolean } = {},
): Promise<void> {
  const { ffmpeg } = resolveFfmpeg({});
  const picture = `testsrc2=duration=${seconds}:size=640x360:rate=25${opts.scroll ? ',scroll=h=0.0007' : ''}`;
  await exec(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', picture],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', '-shortest', file],
  ]);
}

/**
 * A WebM as a browser's MediaRecorder sends a live camera: VP8 (libvpx, real-time) of ffmpeg's test
 * pattern, with an Opus tone unless `audio` is false. Made with the system ffmpeg.
 */
export async function cameraWebm(
  seconds: number,
  opts: { size?: string; audio?: boolean; bitrate?: string } = {},
): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-camera-'));
  const out = path.join(dir, 'camera.webm');
  const audio = opts.audio ?? true;
  await exec('ffmpeg', [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc=size=${opts.size ?? '640x360'}:rate=30`],
    ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440'] : []),
    ...['-t', String(seconds), '-c:v', 'libvpx', '-deadline', 'realtime'],
    ...(opts.bitrate ? ['-b:v', opts.bitrate] : []),
    ...(audio ? ['-c:a', 'libopus'] : []),
    out,
  ]);
  const data = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return data;
}

/** Posts a multipart form to the listening app. */
export async function postForm(
  base: string,
  url: string,
  token: string,
  fields: Record<string, string>,
  files: { name: string; data: Buffer; type?: string }[],
  opts: { method?: string; lang?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> & { code?: string; message?: string } }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append('files', new Blob([f.data], { type: f.type ?? 'application/octet-stream' }), f.name);
  const res = await fetch(`${base}${url}`, {
    method: opts.method ?? 'POST',
    headers: { a1sledom: token, ilang: opts.lang ?? 'en' },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
