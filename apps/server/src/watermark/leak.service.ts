import fs from 'node:fs';
import type { LeakTrace } from '@fanverse/contract';
import { and, eq } from 'drizzle-orm';
import { canSeeTraceOf, canTraceLeaks } from '../access/index.ts';
import type { Db } from '../db/client.ts';
import { leakTraces, media, users } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import type { AuthInfo } from '../http/guards.ts';
import type { UploadedFile } from '../http/multipart.ts';
import { decodesAsImage } from '../media/processors.ts';
import type { ReportRepository } from '../modules/reports/report.repository.ts';
import type { Watermarker } from './watermarker.ts';

/** Largest leaked copy the tracer reads. */
const MAX_LEAK_BYTES = 30 * 1024 * 1024;

/**
 * The leak tracer (ADR 0026): a creator (their own media) or staff (any) uploads a leaked copy and
 * learns whose marked copy it is and when it was served; the result can go with a DMCA complaint.
 */
export class LeakService {
  constructor(
    private readonly db: Db,
    private readonly watermarker: Watermarker,
    private readonly reports: ReportRepository,
  ) {}

  async trace(auth: AuthInfo, files: readonly UploadedFile[]): Promise<LeakTrace> {
    if (!canTraceLeaks(auth)) throw new AppError('FORBIDDEN');
    const [file] = files;
    if (!file || files.length !== 1 || file.size > MAX_LEAK_BYTES || !(await decodesAsImage(file.path)))
      throw new AppError('LEAK_IMAGE_REQUIRED');
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
    const [fan] = mine
      ? await this.db
          .select({ id: users.id, username: users.username, name: users.name })
          .from(users)
          .where(eq(users.id, mine.record.fanId))
          .limit(1)
      : [];
    const found = !!(mine && fan);
    const confidence = found ? Math.floor(detection.confidence * 1000) / 10 : 0;
    const [row] = await this.db
      .insert(leakTraces)
      .values({
        requesterId: auth.userId,
        markId: found ? mine.record.markId : null,
        mediaId: found ? mine.file.id : null,
        fanId: found ? fan.id : null,
        servedAt: found ? mine.record.servedAt : null,
        confidence: Math.round(confidence),
      })
      .returning({ id: leakTraces.id });
    if (!row) throw new Error('insert returned no row');
    return {
      _id: row.id,
      found,
      confidence,
      fan: found ? { _id: fan.id, user: fan.username, name: fan.name } : null,
      media: found ? { _id: mine.file.id, name: mine.file.name } : null,
      servedAt: found ? mine.record.servedAt.toISOString() : null,
      complaintId: null,
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
