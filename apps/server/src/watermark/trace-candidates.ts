import { canSeeTraceOf, isStaff, type Viewer } from '../access/index.ts';
import type { LeakRepository } from './leak.repository.ts';
import { liveBitGrid } from './live-mark.ts';
import { ANALYSIS, type BitGrid, EDGE_FRAMES, type MarkVariant } from './video-mark.ts';
import type { Watermarker } from './watermarker.ts';

/** A marked stream a leaked video may have been copied from: an uploaded video or a live. */
export interface MarkedStream {
  kind: 'video' | 'live';
  id: string;
  /** The video's file name, the live's title. */
  name: string;
  ownerId: string;
  /** The reference's frames per bit and the frames skipped at each end of one (VideoMarkKey.readBits). */
  grid: BitGrid;
}

/** Who was served a stream, and the variant of each of its first `bits` bits. */
export interface ServedCode {
  id: string;
  fanId: string;
  servedAt: Date;
  code: MarkVariant[];
}

export interface MarkedStreamDeps {
  traces: Pick<LeakRepository, 'markedVideos' | 'markedLives'>;
  watermarker: Pick<Watermarker, 'videoKey' | 'videoServesOf' | 'liveServesOf'>;
  /** A marked video's stored reference (ADR 0041), or null. */
  videoReference(mediaId: string): Promise<Buffer | null>;
  /** A marked live's reference (ADR 0045), or null. */
  liveReference(liveId: string): Promise<Buffer | null>;
}

/** A marked stream more than this shorter than a copy is not what it was copied from. */
const DURATION_SLACK_SECONDS = 2;

/**
 * The marked streams the leak tracer compares a video with (ADR 0041, 0045): the viewer's (staff:
 * anyone's) marked videos and marked lives at least about as long as the copy, the nearest in
 * length first; their references and their serve records' codes.
 */
export class MarkedStreams {
  constructor(private readonly deps: MarkedStreamDeps) {}

  async candidates(viewer: NonNullable<Viewer>, duration: number, limit: number): Promise<MarkedStream[]> {
    const { userId } = viewer;
    const owner = isStaff(viewer) ? null : userId;
    const q = { seconds: duration, minSeconds: duration - DURATION_SLACK_SECONDS, limit };
    const videos = await this.deps.traces.markedVideos({ ...q, ownerId: owner });
    const marked = await this.deps.traces.markedLives({ ...q, creatorId: owner });
    const found: (MarkedStream & { seconds: number })[] = [];
    for (const v of videos) {
      const mark = (v.info as { video?: { mark?: { segmentSeconds: number } } }).video?.mark;
      if (mark)
        found.push({
          kind: 'video',
          id: v.id,
          name: v.name,
          ownerId: v.ownerId,
          seconds: v.seconds,
          grid: { framesPerBit: mark.segmentSeconds * ANALYSIS.fps, edgeFrames: EDGE_FRAMES },
        });
    }
    for (const l of marked)
      found.push({
        kind: 'live',
        id: l.id,
        name: l.title,
        ownerId: l.creatorId,
        seconds: l.seconds,
        grid: liveBitGrid(l.mark),
      });
    return found
      .filter((c) => canSeeTraceOf(viewer, c))
      .sort((a, b) => Math.abs(a.seconds - duration) - Math.abs(b.seconds - duration))
      .slice(0, limit);
  }

  reference(stream: MarkedStream): Promise<Buffer | null> {
    return stream.kind === 'video' ? this.deps.videoReference(stream.id) : this.deps.liveReference(stream.id);
  }

  /** Every serve record of the stream with the first `bits` bits of its code. */
  async codes(stream: MarkedStream, bits: number): Promise<ServedCode[]> {
    const { watermarker } = this.deps;
    const serves =
      stream.kind === 'video'
        ? await watermarker.videoServesOf(stream.id)
        : await watermarker.liveServesOf(stream.id);
    return serves.map((s) => ({
      id: s.id,
      fanId: s.fanId,
      servedAt: s.servedAt,
      code: watermarker.videoKey.code(s.id, bits),
    }));
  }
}
