import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ANALYSIS, ANALYSIS_FILTER, type MarkVariant } from '../../watermark/video-mark.ts';
import { HlsKeys } from '../hls/keys.ts';

/** One ffmpeg per live: the creator's stream in, low-latency HLS (and the recording) out. */
interface Session {
  proc: ChildProcess;
  /** The browser's WebM as it arrives (the recording); null for RTMP (ffmpeg writes it). */
  recording: fs.WriteStream | null;
  exited: Promise<void>;
  /** Who feeds it: the creator's socket (browser) or the RTMP publisher; a newer feeder replaces it. */
  feeder: string;
}

/** The EBML magic a WebM stream starts with: MediaRecorder's first chunk (a new or restarted recorder). */
const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

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
  /** HLS segment length in seconds (LIVE_SEGMENT_SECONDS, 0.5 by default: bench:live, docs/benchmarks.md). */
  segmentSeconds?: number;
  /**
   * The traceable mark (ADR 0045): the grey frame of each variant, `128 ± strength·P` in luminance
   * (VideoMarkKey.blendFrame), at any size: ffmpeg scales it to the picture's.
   */
  mark: { blendFrame(width: number, height: number, variant: MarkVariant): Buffer };
  log?: (msg: string, data?: Record<string, unknown>) => void;
}

/** The one rendition of a live on the HLS delivery (`/api/v1/hls/live/<id>/<LIVE_RENDITION>/…`). */
export const LIVE_RENDITION = 'live';
const SEGMENT_NUMBER = /^seg_(\d+)\.ts$/;
const REFERENCE_PART = /^ref\.(\d+)\.gray$/;
/** The size the variants' grey frames are drawn at (the usual live picture; others are scaled to). */
const GREY_FRAME = { width: 1280, height: 720 } as const;
/**
 * Start encoding after half a second of input instead of ffmpeg's default 5 s of probing: the
 * container header (WebM, FLV) already names the streams, and the probed seconds would be the
 * first viewer's wait.
 */
const LOW_DELAY_INPUT = ['-probesize', '500000', '-analyzeduration', '500000'];

/**
 * The picture's filters: scaled to at most 1280 wide, split into variant A (+P) and B (−P) — the
 * grey frames, inputs 1 and 2, scaled to the picture's size and blended into luminance as on
 * videos (ADR 0041) — and the tracer's reference (`ref`: grey, ANALYSIS size and rate).
 */
const MARK_FILTERS = [
  "[0:v:0]scale='min(1280,iw)':-2,format=yuv420p[m0]",
  '[1:v][m0]scale2ref=flags=bicubic[ga][m1]',
  '[2:v][m1]scale2ref=flags=bicubic[gb][m2]',
  '[m2]split=3[va][vb][vr]',
  '[va][ga]blend=all_mode=grainmerge[oa]',
  '[vb][gb]blend=all_mode=grainmerge[ob]',
  `[vr]${ANALYSIS_FILTER}[ref]`,
].join(';');

/**
 * The embedded live media path (ADR 0025): the creator's WebM chunks (MediaRecorder, sent over the
 * socket) or an RTMP stream are transcoded by ffmpeg into H.264/AAC HLS with short AES-128
 * encrypted segments and a rolling playlist. The protected HLS delivery (media/hls, source `live`)
 * serves them: signed session-bound playlist and key URLs, entitlement on every playlist and key
 * request. Nothing here decides who may watch; see access/lives.ts.
 *
 * Marked (ADR 0045): the picture is encoded twice in the same run, variant A (`a/seg_N.ts`, +P) and
 * B (`b/seg_N.ts`, −P), same key, IV and key frames, so segment N of both covers the same frames;
 * `index.m3u8` (A's playlist) is the template every viewer's own playlist is made from. The
 * tracer's reference (the unmarked picture, grey, ANALYSIS size and rate) is written beside them,
 * one part per run: `mark/ref.<first segment>.gray`.
 */
export class LiveMedia {
  private readonly sessions = new Map<string, Session>();
  /** The first bytes of a feeder's stream, too short to tell a WebM header yet (`<liveId>\n<feeder>`). */
  private readonly heads = new Map<string, Buffer>();
  private readonly segment: number;
  /** The variants' grey frames, drawn once per process (GREY_FRAME, yuv420p). */
  private greys: Record<MarkVariant, Buffer> | null = null;

  constructor(private readonly opts: LiveMediaOptions) {
    this.segment = opts.segmentSeconds ?? 0.5;
  }

  dir(liveId: string): string {
    return path.join(this.opts.root, liveId);
  }

  private keyDir(liveId: string): string {
    return path.join(this.opts.root, '.keys', liveId);
  }

  /** The number after the highest segment already written (0 for a new live). */
  private nextSegment(dir: string): number {
    let next = 0;
    const written = path.join(dir, 'a');
    for (const name of fs.existsSync(written) ? fs.readdirSync(written) : []) {
      const n = SEGMENT_NUMBER.exec(name);
      if (n) next = Math.max(next, Number(n[1]) + 1);
    }
    return next;
  }

  isRunning(liveId: string): boolean {
    return this.sessions.has(liveId);
  }

  /**
   * The encoding half of the command: each variant H.264 (zero-latency tune, a key frame per
   * segment) + AAC into encrypted HLS with the same key and IV, and the reference as raw grey frames.
   */
  private output(dir: string, keyInfo: string, startNumber: number): string[] {
    return [
      '-filter_complex',
      MARK_FILTERS,
      ...this.variant('[oa]', dir, 'a', path.join(dir, 'index.m3u8'), keyInfo, startNumber),
      ...this.variant('[ob]', dir, 'b', path.join(dir, 'b', 'index.m3u8'), keyInfo, startNumber),
      '-map',
      '[ref]',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      path.join(dir, 'mark', `ref.${startNumber}.gray`),
    ];
  }

  private variant(
    picture: string,
    dir: string,
    variant: MarkVariant,
    playlist: string,
    keyInfo: string,
    startNumber: number,
  ): string[] {
    // A resumed live (the creator reconnected, maybe to another copy): new timestamps from here.
    const discontinuity = startNumber > 0 ? '+discont_start' : '';
    const gop = String(Math.max(1, Math.round(30 * this.segment)));
    return [
      '-map',
      picture,
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
      // temp_file: a segment appears once whole (served as immutable, it must never be seen half
      // written: the other variant's segment N may be listed a moment before it is finished).
      `delete_segments+independent_segments+omit_endlist+temp_file${discontinuity}`,
      '-hls_key_info_file',
      keyInfo,
      // A restarted ffmpeg (the creator reconnected) goes on numbering: segment names never repeat,
      // so a cached segment (they are served as immutable) is never another one.
      '-start_number',
      String(startNumber),
      '-hls_segment_filename',
      path.join(dir, variant, 'seg_%d.ts'),
      playlist,
    ];
  }

  /** ffmpeg inputs 1 and 2: the grey frames of variants A and B, written beside the key (not served). */
  private greyInputs(keyDir: string): string[] {
    if (!this.greys)
      this.greys = {
        a: this.opts.mark.blendFrame(GREY_FRAME.width, GREY_FRAME.height, 'a'),
        b: this.opts.mark.blendFrame(GREY_FRAME.width, GREY_FRAME.height, 'b'),
      };
    const greys = this.greys;
    return (['a', 'b'] as const).flatMap((v) => {
      const file = path.join(keyDir, `grey-${v}.yuv`);
      fs.writeFileSync(file, greys[v]);
      const size = `${GREY_FRAME.width}x${GREY_FRAME.height}`;
      return ['-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-video_size', size, '-i', file];
    });
  }

  private start(
    liveId: string,
    input: string[],
    recording: fs.WriteStream | null,
    feeder: string,
    extra: string[] = [],
  ): Session {
    const dir = this.dir(liveId);
    for (const sub of ['a', 'b', 'mark']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
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
        ...this.greyInputs(keyDir),
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
    const session = { proc, recording, exited, feeder };
    this.sessions.set(liveId, session);
    return session;
  }

  /**
   * The next recording file of the live: `recording.<ext>`, then `recording.1.<ext>`, … — each run
   * of ffmpeg (the creator reconnected) records a part; `recordingFile` joins them.
   */
  private recordingPart(liveId: string, ext: 'webm' | 'flv'): string {
    const dir = this.dir(liveId);
    for (let n = 0; ; n++) {
      const file = path.join(dir, n ? `recording.${n}.${ext}` : `recording.${ext}`);
      if (!fs.existsSync(file)) return file;
    }
  }

  /**
   * A chunk of the creator's browser stream (WebM, in order) from `feeder` (the creator's socket).
   * A new feeder's stream (MediaRecorder's first chunks, or a recorder restarted after the socket
   * reconnected, to this copy or another) must start with the WebM header; it starts ffmpeg,
   * replacing the run of an older feeder; the playlist goes on (numbering continues, a discontinuity marks the new timestamps). Chunks of
   * a stream whose start this copy has not seen are refused (they cannot be decoded alone).
   */
  async push(liveId: string, chunk: Buffer, feeder = 'socket'): Promise<boolean> {
    let s = this.sessions.get(liveId);
    if (s?.feeder !== feeder) {
      // A new feeder's stream must begin with the WebM header; MediaRecorder may hand its first
      // bytes over in a chunk shorter than the 4-byte magic, so those wait for the next chunk.
      const key = `${liveId}\n${feeder}`;
      const held = this.heads.get(key);
      this.heads.delete(key);
      const data = held ? Buffer.concat([held, chunk]) : chunk;
      if (data.length < EBML.length && EBML.subarray(0, data.length).equals(data)) {
        this.heads.set(key, data);
        return true;
      }
      if (!data.subarray(0, EBML.length).equals(EBML)) return false;
      // This feeder's stream replaces the run of an older one (on this copy) from here.
      if (s) await this.drop(liveId, s.feeder);
      fs.mkdirSync(this.dir(liveId), { recursive: true });
      const recording = fs.createWriteStream(this.recordingPart(liveId, 'webm'));
      s = this.start(
        liveId,
        [...LOW_DELAY_INPUT, '-fflags', '+genpts', '-f', 'matroska', '-i', 'pipe:0'],
        recording,
        feeder,
      );
      chunk = data;
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
    this.start(liveId, [...LOW_DELAY_INPUT, '-i', url], null, url, [
      '-map',
      '0',
      '-c',
      'copy',
      '-f',
      'flv',
      this.recordingPart(liveId, 'flv'),
    ]);
  }

  /**
   * The feeder went away (the creator's socket disconnected): its ffmpeg is killed at once, without
   * the final write of the playlist, so that a run already started on another copy for the
   * reconnected creator is not overwritten. The live goes on; the next stream start resumes it.
   */
  async drop(liveId: string, feeder: string): Promise<void> {
    this.heads.delete(`${liveId}\n${feeder}`);
    const s = this.sessions.get(liveId);
    if (!s || s.feeder !== feeder) return;
    this.sessions.delete(liveId);
    s.recording?.end();
    s.proc.kill('SIGKILL');
    await s.exited;
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

  /** The live's playlist template (`seg_N.ts` names, key URI `key`), or undefined before the first segment. */
  playlistFile(liveId: string): string | undefined {
    const file = path.join(this.dir(liveId), 'index.m3u8');
    return fs.existsSync(file) ? file : undefined;
  }

  /** Segment `index` of one variant, or undefined (not written yet, or deleted from the rolling window). */
  segmentFile(liveId: string, variant: MarkVariant, index: number): string | undefined {
    const file = path.join(this.dir(liveId), variant, `seg_${index}.ts`);
    return fs.existsSync(file) ? file : undefined;
  }

  /**
   * The parts of the tracer's reference written so far, one per run: each starts at the frame of
   * its run's first segment (ANALYSIS.fps), so the parts lay out on the live's segment numbers.
   */
  referenceParts(liveId: string): { file: string; startFrame: number }[] {
    const dir = path.join(this.dir(liveId), 'mark');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .map((name) => ({ name, segment: REFERENCE_PART.exec(name)?.[1] }))
      .filter((p): p is { name: string; segment: string } => p.segment !== undefined)
      .map((p) => ({
        file: path.join(dir, p.name),
        startFrame: Math.round(Number(p.segment) * this.segment * ANALYSIS.fps),
      }))
      .sort((a, b) => a.startFrame - b.startFrame);
  }

  /** Removes the reference parts (once the joined reference is kept in storage). */
  async dropReferenceParts(liveId: string): Promise<void> {
    await fs.promises.rm(path.join(this.dir(liveId), 'mark'), { recursive: true, force: true });
  }

  /**
   * Removes every file of the live (segments, playlists, recording, reference parts, the key): its
   * account was deleted. The caller stopped its ffmpeg first; missing files are fine.
   */
  async remove(liveId: string): Promise<void> {
    await fs.promises.rm(this.dir(liveId), { recursive: true, force: true });
    await fs.promises.rm(this.keyDir(liveId), { recursive: true, force: true });
  }

  /** The parts of the live's recording, in order (one per ffmpeg run), non-empty. */
  recordingParts(liveId: string): string[] {
    const dir = this.dir(liveId);
    if (!fs.existsSync(dir)) return [];
    const order = (name: string) => Number(/^recording\.(\d+)\./.exec(name)?.[1] ?? 0);
    return fs
      .readdirSync(dir)
      .filter((name) => /^recording(\.\d+)?\.(webm|flv)$/.test(name))
      .sort((a, b) => order(a) - order(b))
      .map((name) => path.join(dir, name))
      .filter((file) => fs.statSync(file).size > 0);
  }

  /** The live's recording, when there is one: the only part, or the parts joined (stream copy). */
  async recording(liveId: string): Promise<string | undefined> {
    const parts = this.recordingParts(liveId);
    const first = parts[0];
    if (!first || parts.length === 1) return first;
    const ext = path.extname(first);
    const joined = path.join(this.dir(liveId), `joined${ext}`);
    const list = path.join(this.dir(liveId), 'joined.txt');
    fs.writeFileSync(list, parts.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'));
    const code = await new Promise<number | null>((resolve) => {
      const proc = spawn(this.opts.ffmpeg(), [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        list,
        '-c',
        'copy',
        joined,
      ]);
      proc.on('error', () => resolve(-1));
      proc.on('close', resolve);
    });
    return code === 0 ? joined : first;
  }
}
