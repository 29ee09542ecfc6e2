import fs from 'node:fs';
import type { LeakTrace } from '@fanverse/contract';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { canSeeTraceOf, canTraceLeaks, isStaff } from '../access/index.ts';
import type { Db } from '../db/client.ts';
import { leakTraces, media, users } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import type { AuthInfo } from '../http/guards.ts';
import type { UploadedFile } from '../http/multipart.ts';
import { type FfmpegPaths, probe } from '../media/ffmpeg.ts';
import { decodesAsImage } from '../media/processors.ts';
import type { ReportRepository } from '../modules/reports/report.repository.ts';
import { type Alignment, COPY, CopyPicture, register, timeCandidates } from './video-align.ts';
import { ANALYSIS, analysisFrames, matchCodes, splitFrames } from './video-mark.ts';
import type { Watermarker } from './watermarker.ts';

/** Largest leaked picture the tracer reads. */
const MAX_LEAK_BYTES = 30 * 1024 * 1024;
/** Largest leaked video the tracer reads. */
const MAX_LEAK_VIDEO_BYTES = 300 * 1024 * 1024;
/** A marked video more than this shorter than a copy is not what it was copied from. */
const DURATION_SLACK_SECONDS = 2;
/** The tracer reads at most this much of a copy (150 bits: far more than a fan needs). */
const MAX_COPY_SECONDS = 300;
/** Candidates (best by the rough time search) registered in full. */
const REGISTERED = 2;
/** Grey levels of mean difference at ANALYSIS size beyond which a copy is another video. */
const SAME_PICTURE = 12;
/** Below this a video match names nobody (one minus the chance an unrelated code agrees as well). */
const VIDEO_FOUND = 0.99;
/** Marked videos compared with one copy at most (as long as it or longer, the nearest first). */
const MAX_CANDIDATES = 20;

/** What the tracer needs to read videos (ADR 0041). */
export interface LeakVideoDeps {
  ffmpeg(): FfmpegPaths;
  /** The stored reference of a marked video (MARK_REFERENCE), or null. */
  reference(mediaId: string): Promise<Buffer | null>;
}

interface Finding {
  kind: 'image' | 'video';
  found: boolean;
  confidence: number;
  markId: number | null;
  fan: { id: string; username: string; name: string } | null;
  file: { id: string; name: string } | null;
  servedAt: Date | null;
}

/**
 * The leak tracer (ADR 0026): a creator (their own media) or staff (any) uploads a leaked copy and
 * learns whose marked copy it is and when it was served; the result can go with a DMCA complaint.
 */
export class LeakService {
  constructor(
    private readonly db: Db,
    private readonly watermarker: Watermarker,
    private readonly reports: ReportRepository,
    private readonly video: LeakVideoDeps,
  ) {}

  async trace(auth: AuthInfo, files: readonly UploadedFile[]): Promise<LeakTrace> {
    if (!canTraceLeaks(auth)) throw new AppError('FORBIDDEN');
    const [file] = files;
    if (!file || files.length !== 1) throw new AppError('LEAK_FILE_REQUIRED');
    let finding: Finding;
    if (file.size <= MAX_LEAK_BYTES && (await decodesAsImage(file.path))) {
      finding = await this.traceImage(auth, file);
    } else {
      const duration = file.size <= MAX_LEAK_VIDEO_BYTES ? await this.videoDuration(file.path) : null;
      if (!duration) throw new AppError('LEAK_FILE_REQUIRED');
      finding = await this.traceVideo(auth, file.path, duration);
    }
    const { found, fan, file: file_ } = finding;
    const confidence = found ? Math.floor(finding.confidence * 1000) / 10 : 0;
    const [row] = await this.db
      .insert(leakTraces)
      .values({
        requesterId: auth.userId,
        markId: found ? finding.markId : null,
        mediaId: found ? (file_?.id ?? null) : null,
        fanId: found ? (fan?.id ?? null) : null,
        servedAt: found ? finding.servedAt : null,
        confidence: Math.round(confidence),
      })
      .returning({ id: leakTraces.id });
    if (!row) throw new Error('insert returned no row');
    return {
      _id: row.id,
      kind: finding.kind,
      found,
      confidence,
      fan: found && fan ? { _id: fan.id, user: fan.username, name: fan.name } : null,
      media: found && file_ ? { _id: file_.id, name: file_.name } : null,
      servedAt: found ? (finding.servedAt?.toISOString() ?? null) : null,
      complaintId: null,
    };
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

  private async fanOf(id: string) {
    const [fan] = await this.db
      .select({ id: users.id, username: users.username, name: users.name })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    return fan ?? null;
  }

  /**
   * A leaked video (ADR 0041): the caller's marked videos at least about as long (staff: anyone's),
   * the one whose reference picture it registers against (time offset, crop, mirror: see
   * video-align.ts), the A/B bit of each segment it covers, and the serve record whose code those
   * bits spell. Every choice before the bits are matched is made from the picture alone.
   */
  private async traceVideo(auth: AuthInfo, path: string, duration: number): Promise<Finding> {
    const none: Finding = {
      kind: 'video',
      found: false,
      confidence: 0,
      markId: null,
      fan: null,
      file: null,
      servedAt: null,
    };
    const { userId } = auth;
    const staff = isStaff(auth);
    const length = sql<number>`((${media.info} -> 'format' ->> 'duration')::float8)`;
    const candidates = await this.db
      .select({ id: media.id, name: media.name, ownerId: media.ownerId, info: media.info })
      .from(media)
      .where(
        and(
          eq(media.kind, 'video'),
          eq(media.status, 'ready'),
          isNotNull(sql`${media.info} -> 'video' -> 'mark'`),
          sql`${length} >= ${duration - DURATION_SLACK_SECONDS}`,
          staff ? undefined : eq(media.ownerId, userId),
        ),
      )
      .orderBy(sql`abs(${length} - ${duration})`)
      .limit(MAX_CANDIDATES);
    if (candidates.length === 0) return none;
    const seconds = Math.min(duration + 1, MAX_COPY_SECONDS);
    const copy = new CopyPicture(await analysisFrames(this.video.ffmpeg().ffmpeg, path, seconds, COPY));
    if (copy.length === 0) return none;
    // A rough time search against each candidate; the best few are registered in full.
    type Candidate = { row: (typeof candidates)[number]; reference: Uint8Array[]; score: number };
    let rough: Candidate[] = [];
    for (const row of candidates) {
      if (!canSeeTraceOf(auth, row)) continue;
      const raw = await this.video.reference(row.id);
      if (!raw) continue;
      const reference = splitFrames(raw);
      const [best] = timeCandidates(copy, reference, 1);
      if (!best) continue;
      rough = [...rough, { row, reference, score: best.score }]
        .sort((a, b) => b.score - a.score)
        .slice(0, REGISTERED);
    }
    let found: { row: Candidate['row']; reference: Uint8Array[]; alignment: Alignment } | null = null;
    for (const { row, reference } of rough) {
      const alignment = register(copy, reference);
      if (alignment && (!found || alignment.distance < found.alignment.distance))
        found = { row, reference, alignment };
    }
    if (!found || found.alignment.distance > SAME_PICTURE) return none;
    const mark = (found.row.info as { video?: { mark?: { segmentSeconds: number } } }).video?.mark;
    if (!mark) return none;
    const segments = Math.ceil(found.reference.length / (mark.segmentSeconds * ANALYSIS.fps));
    const readings = this.watermarker.videoKey.readBits(copy, found.reference, found.alignment, segments);
    const serves = await this.watermarker.videoServesOf(found.row.id);
    // One reading, from the alignment the picture chose, matched against every serve record's code:
    // see matchCodes for why the search does not widen the false-match bound.
    const match = matchCodes(
      readings,
      serves.map((s) => ({ id: s.id, code: this.watermarker.videoKey.code(s.id, segments) })),
    );
    const serve =
      match && match.confidence >= VIDEO_FOUND ? serves.find((s) => s.id === match.id) : undefined;
    const fan = serve ? await this.fanOf(serve.fanId) : null;
    if (!serve || !fan || !match) return none;
    return {
      kind: 'video',
      found: true,
      confidence: match.confidence,
      markId: null,
      fan,
      file: { id: found.row.id, name: found.row.name },
      servedAt: serve.servedAt,
    };
  }

  /** A leaked picture (ADR 0026): its blind mark names the serve record. */
  private async traceImage(auth: AuthInfo, file: UploadedFile): Promise<Finding> {
    const { detection, record } = await this.watermarker.detect(await fs.promises.readFile(file.path));
    const [file_] = record
      ? await this.db
          .select({ id: media.id, name: media.name, ownerId: media.ownerId })
          .from(media)
          .where(eq(media.id, record.mediaId))
          .limit(1)
      : [];
    // A mark of someone else's media reads, to a creator, as no mark of theirs.
    const mine = record && file_ && canSeeTraceOf(auth, file_) ? { record, file: file_ } : null;
    const fan = mine ? await this.fanOf(mine.record.fanId) : null;
    const found = !!(mine && fan);
    return {
      kind: 'image',
      found,
      confidence: found ? detection.confidence : 0,
      markId: mine?.record.markId ?? null,
      fan,
      file: mine ? { id: mine.file.id, name: mine.file.name } : null,
      servedAt: mine?.record.servedAt ?? null,
    };
  }

  /** Files a DMCA complaint carrying a trace of the caller's (once; a repeat answers the same one). */
  async complain(auth: AuthInfo, traceId: string): Promise<string> {
    if (!canTraceLeaks(auth)) throw new AppError('FORBIDDEN');
    const [row] = await this.db
      .select({
        trace: leakTraces,
        fan: users.username,
      })
      .from(leakTraces)
      .leftJoin(users, eq(users.id, leakTraces.fanId))
      .where(and(eq(leakTraces.id, traceId), eq(leakTraces.requesterId, auth.userId)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    const { trace } = row;
    if (trace.complaintId) return trace.complaintId;
    const details = trace.fanId
      ? `Leak trace ${trace.id}: marked copy of @${row.fan} (fan ${trace.fanId}), media ${trace.mediaId}, ` +
        `served ${trace.servedAt?.toISOString()}, confidence ${trace.confidence}%.`
      : `Leak trace ${trace.id}: no fan's mark found in the copy.`;
    const complaintId = await this.reports.create({
      reporterId: auth.userId,
      targetType: 'dmca',
      targetId: trace.mediaId ?? trace.id,
      reason: 'other',
      details,
    });
    await this.db.update(leakTraces).set({ complaintId }).where(eq(leakTraces.id, trace.id));
    return complaintId;
  }
}
