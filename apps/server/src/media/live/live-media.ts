import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HlsKeys } from '../hls/keys.ts';

/** One ffmpeg per live: the creator's stream in, low-latency HLS (and the recording) out. */
interface Session {
  proc: ChildProcess;
  /** The browser's WebM as it arrives (the recording); null for RTMP (ffmpeg writes it). */
  recording: fs.WriteStream | null;
  exited: Promise<void>;
}

export interface LiveMediaOptions {
  /** Where each live's HLS files and recording live (`<root>/<liveId>/`). */
  root: string;
  /** The ffmpeg binary (FFMPEG_PATH, the system's, or the npm one). */
  ffmpeg: () => string;
  /**
   * The AES-128 key of a live's segments (HlsKeys.key('live', id, LIVE_RENDITION, id)): derived from
   * the app secret, so any server copy hands out the same key without storing it.
   */
  key(liveId: string): Buffer;
  /** HLS segment length in seconds (1 s keeps camera-to-viewer latency near 3 s). */
  segmentSeconds?: number;
  log?: (msg: string, data?: Record<string, unknown>) => void;
}

/** The one rendition of a live on the HLS delivery (`/api/v1/hls/live/<id>/<LIVE_RENDITION>/…`). */
export const LIVE_RENDITION = 'live';
const HLS_FILE = /^(index\.m3u8|seg_\d{1,6}\.ts)$/;
const SEGMENT_NUMBER = /^seg_(\d+)\.ts$/;

/**
 * The embedded live media path (ADR 0025): the creator's WebM chunks (MediaRecorder, sent over the
 * socket) or an RTMP stream are transcoded by ffmpeg into H.264/AAC HLS with 1 s AES-128 encrypted
 * segments and a short rolling playlist. The protected HLS delivery (media/hls, source `live`)
 * serves them: signed session-bound playlist and key URLs, entitlement on every playlist and key
 * request. Nothing here decides who may watch; see access/lives.ts.
 */
export class LiveMedia {
  private readonly sessions = new Map<string, Session>();
  private readonly segment: number;

  constructor(private readonly opts: LiveMediaOptions) {
    this.segment = opts.segmentSeconds ?? 1;
  }

  dir(liveId: string): string {
    return path.join(this.opts.root, liveId);
  }

  private keyDir(liveId: string): string {
    return path.join(this.opts.root, '.keys', liveId);
  }

  /** The number after the highest segment already in the directory (0 for a new live). */
  private nextSegment(dir: string): number {
    let next = 0;
    for (const name of fs.readdirSync(dir)) {
      const n = SEGMENT_NUMBER.exec(name);
      if (n) next = Math.max(next, Number(n[1]) + 1);
    }
    return next;
  }

  isRunning(liveId: string): boolean {
    return this.sessions.has(liveId);
  }

  /** The encoding half of the command: H.264 (zero-latency tune, a key frame per segment) + AAC into encrypted HLS. */
  private output(dir: string, keyInfo: string, startNumber: number): string[] {
    const gop = String(30 * this.segment);
    return [
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-c:v',
      'libx264',
      // ultrafast: ~40 % less CPU than veryfast (bench:live), so the transcoder keeps real time on a
      // busy machine; zerolatency: no look-ahead or B-frames, each frame leaves as soon as it is coded.
      '-preset',
      'ultrafast',
      '-tune',
      'zerolatency',
      '-pix_fmt',
      'yuv420p',
      '-vf',
      "scale='min(1280,iw)':-2",
      '-r',
      '30',
      '-g',
      gop,
      '-keyint_min',
      gop,
      '-sc_threshold',
      '0',
      '-force_key_frames',
      `expr:gte(t,n_forced*${this.segment})`,
      '-b:v',
      '2500k',
      '-maxrate',
      '2500k',
      '-bufsize',
      '2500k',
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-ar',
      '44100',
      '-f',
      'hls',
      '-hls_time',
      String(this.segment),
      '-hls_list_size',
      '6',
      '-hls_flags',
      'delete_segments+independent_segments+omit_endlist',
      '-hls_key_info_file',
      keyInfo,
      // A restarted ffmpeg (the creator reconnected) goes on numbering: segment names never repeat,
      // so a cached segment (they are served as immutable) is never another one.
      '-start_number',
      String(startNumber),
      '-hls_segment_filename',
      path.join(dir, 'seg_%d.ts'),
      path.join(dir, 'index.m3u8'),
    ];
  }

  private start(
    liveId: string,
    input: string[],
    recording: fs.WriteStream | null,
    extra: string[] = [],
  ): Session {
    const dir = this.dir(liveId);
    fs.mkdirSync(dir, { recursive: true });
    // The key file is for ffmpeg only, outside the served directory, and removed when it exits.
    const keyDir = this.keyDir(liveId);
    fs.mkdirSync(keyDir, { recursive: true, mode: 0o700 });
    const keyInfo = path.join(keyDir, 'key-info');
    fs.writeFileSync(path.join(keyDir, 'key'), this.opts.key(liveId), { mode: 0o600 });
    fs.writeFileSync(keyInfo, `key\n${path.join(keyDir, 'key')}\n${HlsKeys.newIv()}\n`, { mode: 0o600 });
    const proc = spawn(
      this.opts.ffmpeg(),
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        ...input,
        ...this.output(dir, keyInfo, this.nextSegment(dir)),
        ...extra,
      ],
      {
        stdio: [recording ? 'pipe' : 'ignore', 'ignore', 'pipe'],
      },
    );
    let errors = '';
    proc.stderr?.on('data', (d: Buffer) => {
      errors = (errors + d.toString()).slice(-2000);
    });
    proc.stdin?.on('error', () => undefined);
    const exited = new Promise<void>((resolve) => {
      proc.on('close', (code) => {
        if (this.sessions.get(liveId)?.proc === proc) {
          this.sessions.delete(liveId);
          fs.rmSync(keyDir, { recursive: true, force: true });
        }
        if (code) this.opts.log?.('live ffmpeg exited', { liveId, code, errors });
        resolve();
      });
      proc.on('error', (err) => {
        this.opts.log?.('live ffmpeg failed to start', { liveId, err: err.message });
        resolve();
      });
    });
    const session = { proc, recording, exited };
    this.sessions.set(liveId, session);
    return session;
  }

  /** A chunk of the creator's browser stream (WebM, in order); the first one starts ffmpeg. */
  push(liveId: string, chunk: Buffer): boolean {
    let s = this.sessions.get(liveId);
    if (!s) {
      fs.mkdirSync(this.dir(liveId), { recursive: true });
      const recording = fs.createWriteStream(path.join(this.dir(liveId), 'recording.webm'), { flags: 'a' });
      s = this.start(liveId, ['-fflags', '+genpts', '-f', 'matroska', '-i', 'pipe:0'], recording);
    }
    if (!s.recording || !s.proc.stdin?.writable) return false;
    s.recording.write(chunk);
    s.proc.stdin.write(chunk);
    return true;
  }

  /** Pulls an RTMP stream (the ingest server's local URL) into HLS, recording it as FLV. */
  pull(liveId: string, url: string): void {
    if (this.sessions.has(liveId)) return;
    const dir = this.dir(liveId);
    fs.mkdirSync(dir, { recursive: true });
    // The recording is a second output of the same ffmpeg: a copy of what came in.
    this.start(liveId, ['-i', url], null, [
      '-map',
      '0',
      '-c',
      'copy',
      '-f',
      'flv',
      path.join(dir, 'recording.flv'),
    ]);
  }

  /** Stops the live's ffmpeg (end of input: it writes the last segment) and waits for it (bounded). */
  async stop(liveId: string): Promise<void> {
    const s = this.sessions.get(liveId);
    if (!s) return;
    s.recording?.end();
    if (s.proc.stdin) s.proc.stdin.end();
    else s.proc.kill('SIGINT');
    const timer = setTimeout(() => s.proc.kill('SIGKILL'), 5000);
    await s.exited;
    clearTimeout(timer);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.stop(id)));
  }

  /** The path of one of the live's HLS files, or undefined (bad name, not written yet). */
  hlsFile(liveId: string, name: string): string | undefined {
    if (!HLS_FILE.test(name)) return undefined;
    const file = path.join(this.dir(liveId), name);
    return fs.existsSync(file) ? file : undefined;
  }

  /** The live's recording, when there is one. */
  recording(liveId: string): string | undefined {
    for (const name of ['recording.webm', 'recording.flv']) {
      const file = path.join(this.dir(liveId), name);
      if (fs.existsSync(file) && fs.statSync(file).size > 0) return file;
    }
    return undefined;
  }
}
