import { type ChildProcess, spawn } from 'node:child_process';

/**
 * ffmpeg pushing a 1280×720 30 fps test pattern with a tone to an RTMP URL in real time, as OBS
 * would (`zeroLatency`: x264 without look-ahead). Used by the live tests, the RTMP journey and `npm run bench:live`.
 */
export function pushTestPattern(
  url: string,
  seconds: number,
  options: { zeroLatency?: boolean } = {},
): ChildProcess {
  return spawn('ffmpeg', [
    '-loglevel',
    'error',
    '-re',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=1280x720:rate=30',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    // As OBS's low-latency profile: no frame look-ahead (the live latency bench).
    ...(options.zeroLatency ? ['-tune', 'zerolatency'] : []),
    '-g',
    '30',
    '-c:a',
    'aac',
    '-f',
    'flv',
    url,
  ]);
}
