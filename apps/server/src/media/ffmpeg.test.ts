import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeFfmpeg, findOnPath, locateFfmpeg, logVideoTools, toolVersion } from './ffmpeg.ts';

const require = createRequire(import.meta.url);
const npmFfmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const npmFfprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-ffmpeg-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A folder holding executable scripts that answer `-version` like the real tools. */
function fakeBin(dir: string, version: string): string {
  const bin = path.join(tmp, dir);
  fs.mkdirSync(bin, { recursive: true });
  for (const name of ['ffmpeg', 'ffprobe']) {
    const file = path.join(bin, name);
    fs.writeFileSync(
      file,
      `#!/bin/sh\necho "${name} version ${version} Copyright (c) the FFmpeg developers"\n`,
    );
    fs.chmodSync(file, 0o755);
  }
  return bin;
}

describe('which ffmpeg / ffprobe the server uses', () => {
  it("prefers the system's tools on PATH over the npm-shipped ones", async () => {
    const bin = fakeBin('system', '7.1.1-1+b1');
    const found = locateFfmpeg({}, `${path.join(tmp, 'missing')}${path.delimiter}${bin}`);
    expect(found.ffmpeg).toEqual({ path: path.join(bin, 'ffmpeg'), source: 'system' });
    expect(found.ffprobe).toEqual({ path: path.join(bin, 'ffprobe'), source: 'system' });
    expect(await toolVersion(found.ffmpeg.path)).toBe('7.1.1-1+b1');
  });

  it('falls back to the npm-shipped binaries when PATH has none', () => {
    const found = locateFfmpeg({}, path.join(tmp, 'empty'));
    expect(found.ffmpeg).toEqual({ path: npmFfmpeg, source: 'npm' });
    expect(found.ffprobe).toEqual({ path: npmFfprobe, source: 'npm' });
  });

  it('takes FFMPEG_PATH / FFPROBE_PATH over both', () => {
    const bin = fakeBin('custom', '8.0');
    const system = fakeBin('system2', '7.0');
    const found = locateFfmpeg(
      { ffmpegPath: path.join(bin, 'ffmpeg'), ffprobePath: path.join(bin, 'ffprobe') },
      system,
    );
    expect(found.ffmpeg).toEqual({ path: path.join(bin, 'ffmpeg'), source: 'env' });
    expect(found.ffprobe).toEqual({ path: path.join(bin, 'ffprobe'), source: 'env' });
  });

  it('skips non-executable files and folders named like the tool', () => {
    const dir = path.join(tmp, 'not-exec');
    fs.mkdirSync(path.join(dir, 'ffmpeg'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'ffprobe'), 'not a program');
    expect(findOnPath('ffmpeg', dir)).toBeUndefined();
    expect(findOnPath('ffprobe', dir)).toBeUndefined();
  });

  it('reports the version of the tools in use, and fails on a path that does not run', async () => {
    const described = await describeFfmpeg({});
    expect(described.ffmpeg.version).toMatch(/\d+\.\d+/);
    expect(described.ffprobe.version).toMatch(/\d+\.\d+/);
    await expect(describeFfmpeg({ ffmpegPath: path.join(tmp, 'nope', 'ffmpeg') })).rejects.toThrow();
  });

  it('logs the tools and versions at start; a configured path that does not run stops the start', async () => {
    const bin = fakeBin('logged', '6.1.2');
    const lines: string[] = [];
    const log = {
      info: (_: unknown, msg: string) => lines.push(msg),
      error: (_: unknown, msg: string) => lines.push(msg),
    };
    await logVideoTools(
      { ffmpegPath: path.join(bin, 'ffmpeg'), ffprobePath: path.join(bin, 'ffprobe') },
      log,
    );
    expect(lines).toEqual(['video tools: ffmpeg 6.1.2 (env), ffprobe 6.1.2 (env)']);
    await expect(logVideoTools({ ffprobePath: path.join(tmp, 'nope') }, log)).rejects.toThrow(/FFPROBE_PATH/);
  });
});
