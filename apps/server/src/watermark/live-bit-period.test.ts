import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveBitGrid, liveMarkGrid } from './live-mark.ts';
import { COPY, CopyPicture, register } from './video-align.ts';
import {
  analysisFrames,
  type BitGrid,
  EDGE_FRAMES,
  MARK_STRENGTH,
  type MarkVariant,
  matchCodes,
  VideoMarkKey,
} from './video-mark.ts';

/**
 * Why a live's bit lasts a 2 s period of four 0.5 s segments rather than one segment (ADR 0045).
 * A recording of a live is a screen capture of a player that stalls and catches up, so its time
 * against the live's is off here and there. A camera live is mostly a still picture: the time the
 * tracer registers is only about right, and a copy a little off in time still cancels the picture,
 * so a bit read there is its neighbour's. Here a webcam-like scene (still bars, one moving box,
 * sensor noise) is marked with a bit per 0.5 s segment, or per 2 s, by ffmpeg's blend (as the
 * live's encoder does) and recorded at a smaller size, 25 fps, 150 kb/s, with a 0.7 s stall in the
 * middle. On the 2 s grid every bit reads right and the fan is named; on the 0.5 s grid many bits
 * read wrong, and nobody is.
 */
const run = promisify(execFile);
const SECONDS = 24;
const key = new VideoMarkKey('live-bit-period-test');
let dir: string;
let reference: Uint8Array[];

/** Bit `i` of the marked picture (A: +P): the pseudo-random sign the ffmpeg expression below draws. */
const bit = (i: number): MarkVariant => ((i * 7 + 3) % 11 < 5 ? 'a' : 'b');
/** ffmpeg's form of `bit` at time T, with bits of `seconds`. */
const signAt = (seconds: number) => `if(lt(mod(floor(T/${seconds})*7+3\\,11)\\,5)\\,1\\,-1)`;

/** The scene marked with ±P per bit of `seconds`, recorded: a 0.7 s stall at 12 s, smaller, 25 fps. */
async function recording(seconds: number): Promise<string> {
  const out = path.join(dir, `recording-${seconds}.mp4`);
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-i', path.join(dir, 'scene.mkv')],
    ...[
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      '-video_size',
      '256x144',
      '-i',
      path.join(dir, 'grey-a.yuv'),
    ],
    '-filter_complex',
    [
      `[0:v][1:v]blend=c0_expr='A+(B-128)*${signAt(seconds)}':c1_expr=A:c2_expr=A,split[x][y]`,
      '[x]trim=0:12,setpts=PTS-STARTPTS,tpad=stop_mode=clone:stop_duration=0.7[before]',
      '[y]trim=12,setpts=PTS-STARTPTS[after]',
      '[before][after]concat=n=2:v=1,scale=240:136',
    ].join(';'),
    ...['-r', '25', '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '150k', out],
  ]);
  return out;
}

/** Reads a recording on `grid` once: bits read right and wrong, and the best of 11 codes (the true one first). */
async function read(file: string, grid: BitGrid) {
  const copy = new CopyPicture(await analysisFrames('ffmpeg', file, 60, COPY));
  const alignment = register(copy, reference);
  if (!alignment) throw new Error('not registered');
  const bits = Math.floor(reference.length / grid.framesPerBit);
  const readings = key.readBits(copy, reference, alignment, bits, grid);
  const read = readings.filter((r) => Math.abs(r.z) >= 4);
  const right = readings.filter((r, i) => Math.abs(r.z) >= 4 && (r.value > 0 ? 'a' : 'b') === bit(i));
  const codes = [
    { id: 'fan', code: Array.from({ length: bits }, (_, i) => bit(i)) },
    ...Array.from({ length: 10 }, (_, k) => ({ id: `other-${k}`, code: key.code(`other-${k}`, bits) })),
  ];
  return { bits, right: right.length, wrong: read.length - right.length, match: matchCodes(readings, codes) };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-live-bits-'));
  const scene = path.join(dir, 'scene.mkv');
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i'],
    `smptebars=size=256x144:rate=30:duration=${SECONDS},` +
      "drawbox=x='mod(t*40\\,200)':y=50:w=40:h=40:color=white:t=fill,noise=alls=6:allf=t",
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', scene],
  ]);
  fs.writeFileSync(path.join(dir, 'grey-a.yuv'), key.blendFrame(256, 144, 'a', MARK_STRENGTH));
  reference = await analysisFrames('ffmpeg', scene);
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("a live's bit period", () => {
  it('is four 0.5 s segments (2 s): a bit per segment reads its neighbours in a recording that stalled', async () => {
    const grid = liveBitGrid(liveMarkGrid(0.5));
    expect(grid).toEqual({ framesPerBit: 20, edgeFrames: EDGE_FRAMES });
    const period = await read(await recording(2), grid);
    expect(period).toMatchObject({ bits: SECONDS / 2, right: SECONDS / 2, wrong: 0 });
    expect(period.match).toMatchObject({ id: 'fan', agree: SECONDS / 2 });
    expect(period.match?.confidence).toBeGreaterThan(0.99);
    // A bit per segment, read at its best (one frame off each end, not two).
    const segment = await read(await recording(0.5), { framesPerBit: 5, edgeFrames: 1 });
    expect(segment.bits).toBe(SECONDS * 2);
    expect(segment.wrong).toBeGreaterThan(segment.bits / 8);
    expect(segment.match?.confidence ?? 0).toBeLessThan(0.99);
  }, 120_000);
});
