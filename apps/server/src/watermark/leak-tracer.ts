import fs from 'node:fs';
import { canSeeTraceOf, type Viewer } from '../access/index.ts';
import { type FfmpegPaths, probe } from '../media/ffmpeg.ts';
import { decodesAsImage } from '../media/processors.ts';
import type { LeakRepository } from './leak.repository.ts';
import { type MarkedStream, MarkedStreams } from './trace-candidates.ts';
import { type Alignment, COPY, CopyPicture, register, timeCandidates } from './video-align.ts';
import { analysisFrames, matchCodes, splitFrames } from './video-mark.ts';
import type { Watermarker } from './watermarker.ts';

/** Largest leaked picture the tracer reads. */
const MAX_LEAK_BYTES = 30 * 1024 * 1024;
/** Largest leaked video the tracer reads. */
const MAX_LEAK_VIDEO_BYTES = 300 * 1024 * 1024;
/** The tracer reads at most this much of a copy (150 bits: far more than a fan needs). */
const MAX_COPY_SECONDS = 300;
/** Candidates (best by the rough time search) registered in full. */
const REGISTERED = 2;
/** Grey levels of mean difference at ANALYSIS size beyond which a copy is another video. */
const SAME_PICTURE = 12;
/** Below this a video match names nobody (one minus the chance an unrelated code agrees as well). */
const VIDEO_FOUND = 0.99;
/** Marked videos and lives compared with one copy at most (as long as it or longer, the nearest first). */
const MAX_CANDIDATES = 20;

/** What the tracer needs to read videos (ADR 0041) and recordings of lives (ADR 0045). */
export interface LeakVideoDeps {
  ffmpeg(): FfmpegPaths;
  /** The stored reference of a marked video (MARK_REFERENCE), or null. */
  reference(mediaId: string): Promise<Buffer | null>;
  /** The reference of a marked live (kept in storage once ended), or null. */
  liveReference(liveId: string): Promise<Buffer | null>;
}

export type LeakKind = 'image' | 'video';

/** What a copy's mark said: the serve record it names, if the requester may learn it. */
export interface Finding {
  found: boolean;
  /** 0–1. */
  confidence: number;
  markId: number | null;
  fan: { id: string; username: string; name: string } | null;
  /** The media file the copy was made from, or null (nobody named, or a live's). */
  file: { id: string; name: string } | null;
  /** The live a recording was made from (ADR 0045), or null. */
  live: { id: string; title: string } | null;
  servedAt: Date | null;
}

const NONE: Finding = {
  found: false,
  confidence: 0,
  markId: null,
  fan: null,
  file: null,
  live: null,
  servedAt: null,
};

/** The copy could not be decoded (a picture or video that will not read however often it is tried). */
export class UnreadableCopy extends Error {
  constructor(cause: unknown) {
    super('the leaked copy could not be decoded', { cause });
    this.name = 'UnreadableCopy';
  }
}

/**
 * Reads leaked copies (ADR 0026 pictures, ADR 0041 videos, ADR 0045 recordings of lives): `kindOf` tells at upload whether a
 * file is something it can read, `trace` does the reading (seconds of CPU for a video) in the job.
 */
export class LeakTracer {
  private readonly streams: MarkedStreams;

  constructor(
    private readonly traces: LeakRepository,
    private readonly watermarker: Watermarker,
    private readonly video: LeakVideoDeps,
  ) {
    this.streams = new MarkedStreams({
      traces,
      watermarker,
      videoReference: (id) => video.reference(id),
      liveReference: (id) => video.liveReference(id),
    });
  }

  /** A picture, a video ffprobe can read, or null (neither, or too large). Quick: no decoding. */
  async kindOf(file: { path: string; size: number }): Promise<LeakKind | null> {
    if (file.size <= MAX_LEAK_BYTES && (await decodesAsImage(file.path))) return 'image';
    if (file.size <= MAX_LEAK_VIDEO_BYTES && (await this.videoDuration(file.path))) return 'video';
    return null;
  }

  /** What the copy at `path` says, as far as `viewer` may learn; UnreadableCopy when it can't be decoded. */
  async trace(viewer: NonNullable<Viewer>, kind: LeakKind, path: string): Promise<Finding> {
    if (kind === 'image') return this.traceImage(viewer, path);
    const duration = await this.videoDuration(path);
    if (!duration) throw new UnreadableCopy(new Error('ffprobe read no video'));
    return this.traceVideo(viewer, path, duration);
  }

  /** The length of a decodable video, or null (not a video, undecodable). */
  private async videoDuration(file: string): Promise<number | null> {
    try {
      const probed = await probe(this.video.ffmpeg(), file);
      const d = probed.info.format.duration;
      return probed.hasVideo && d && d > 0 ? d : null;
    } catch {
      return null;
    }
  }

  /**
   * A leaked video (ADR 0041) or recording of a live (ADR 0045): the viewer's marked videos and
   * lives at least about as long (staff: anyone's), the one whose reference picture it registers
   * against (time offset, crop, mirror: see video-align.ts), the A/B bit of each bit period it
   * covers, and the serve record whose code those bits spell. Every choice before the bits are
   * matched is made from the picture alone.
   */
  private async traceVideo(viewer: NonNullable<Viewer>, path: string, duration: number): Promise<Finding> {
    const candidates = await this.streams.candidates(viewer, duration, MAX_CANDIDATES);
    if (candidates.length === 0) return NONE;
    const seconds = Math.min(duration + 1, MAX_COPY_SECONDS);
    const frames = await analysisFrames(this.video.ffmpeg().ffmpeg, path, seconds, COPY).catch((err) => {
      throw new UnreadableCopy(err);
    });
    const copy = new CopyPicture(frames);
    if (copy.length === 0) return NONE;
    // A rough time search against each candidate; the best few are registered in full.
    type Candidate = { stream: MarkedStream; reference: Uint8Array[]; score: number };
    let rough: Candidate[] = [];
    for (const stream of candidates) {
      const raw = await this.streams.reference(stream);
      if (!raw) continue;
      const reference = splitFrames(raw);
      const [best] = timeCandidates(copy, reference, 1);
      if (!best) continue;
      rough = [...rough, { stream, reference, score: best.score }]
        .sort((a, b) => b.score - a.score)
        .slice(0, REGISTERED);
    }
    let found: { stream: MarkedStream; reference: Uint8Array[]; alignment: Alignment } | null = null;
    for (const { stream, reference } of rough) {
      const alignment = register(copy, reference);
      if (alignment && (!found || alignment.distance < found.alignment.distance))
        found = { stream, reference, alignment };
    }
    if (!found || found.alignment.distance > SAME_PICTURE) return NONE;
    const { stream } = found;
    const bits = Math.ceil(found.reference.length / stream.grid.framesPerBit);
    const readings = this.watermarker.videoKey.readBits(
      copy,
      found.reference,
      found.alignment,
      bits,
      stream.grid,
    );
    const serves = await this.streams.codes(stream, bits);
    // One reading, from the alignment the picture chose, matched against every serve record's code:
    // see matchCodes for why the search does not widen the false-match bound.
    const match = matchCodes(readings, serves);
    const serve =
      match && match.confidence >= VIDEO_FOUND ? serves.find((s) => s.id === match.id) : undefined;
    const fan = serve ? await this.traces.fanOf(serve.fanId) : null;
    if (!serve || !fan || !match) return NONE;
    return {
      found: true,
      confidence: match.confidence,
      markId: null,
      fan,
      file: stream.kind === 'video' ? { id: stream.id, name: stream.name } : null,
      live: stream.kind === 'live' ? { id: stream.id, title: stream.name } : null,
      servedAt: serve.servedAt,
    };
  }

  /** A leaked picture (ADR 0026): its blind mark names the serve record. */
  private async traceImage(viewer: NonNullable<Viewer>, path: string): Promise<Finding> {
    const { detection, record } = await this.watermarker
      .detect(await fs.promises.readFile(path))
      .catch((err: unknown) => {
        throw new UnreadableCopy(err);
      });
    const file = record ? await this.traces.mediaOf(record.mediaId) : null;
    // A mark of someone else's media reads, to a creator, as no mark of theirs.
    const mine = record && file && canSeeTraceOf(viewer, file) ? { record, file } : null;
    const fan = mine ? await this.traces.fanOf(mine.record.fanId) : null;
    if (!mine || !fan) return NONE;
    return {
      found: true,
      confidence: detection.confidence,
      markId: mine.record.markId,
      fan,
      file: { id: mine.file.id, name: mine.file.name },
      live: null,
      servedAt: mine.record.servedAt,
    };
  }
}
