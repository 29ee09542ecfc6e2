import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LeakTrace } from '@fanverse/contract';
import { canSeeLeakTrace, canTraceLeaks } from '../access/index.ts';
import { AppError } from '../http/app-error.ts';
import type { AuthInfo } from '../http/guards.ts';
import type { UploadedFile } from '../http/multipart.ts';
import type { JobSender } from '../jobs/job.ts';
import type { Storage } from '../media/storage.ts';
import type { ReportRepository } from '../modules/reports/report.repository.ts';
import type { RealtimePublisher } from '../realtime/publisher.ts';
import { LEAK_TRACE } from './leak.jobs.ts';
import { presentLeakTrace } from './leak.presenter.ts';
import type { LeakRepository, LeakTraceOutcome, LeakTraceRow, LeakTraceView } from './leak.repository.ts';
import { type LeakTracer, UnreadableCopy } from './leak-tracer.ts';

/** Traces listed on the tracer page. */
const RECENT = 10;
/**
 * Runs of one trace that may do the work. A run that throws is retried by the queue until this
 * many have started; the last one records `failed` instead of throwing, and a later run (the
 * worker died during the last) records `failed` without reading the copy again.
 */
const MAX_RUNS = 2;

/** Where an uploaded copy waits for its job: private storage, never given a URL. */
export const leakCopyKey = (traceId: string) => `leaks/${traceId}/copy`;

export interface LeakServiceDeps {
  traces: LeakRepository;
  tracer: LeakTracer;
  reports: ReportRepository;
  /** The private storage (no URL reaches it): uploaded copies until their job has read them. */
  storage: Storage;
  jobs: JobSender;
  publisher: RealtimePublisher;
  logger?: { error(obj: unknown, msg?: string): void };
}

/**
 * The leak tracer (ADR 0026): a creator (their own media and lives) or staff (any) uploads a leaked copy;
 * the `leaks.trace` job learns whose marked copy it is and when it was served, and tells the
 * requester; the result can go with a DMCA complaint.
 */
export class LeakService {
  constructor(private readonly deps: LeakServiceDeps) {}

  /** Checks and stores the upload and queues its trace; answers the trace, `pending`. */
  async start(auth: AuthInfo, files: readonly UploadedFile[]): Promise<LeakTrace> {
    if (!canTraceLeaks(auth)) throw new AppError('FORBIDDEN');
    const [file] = files;
    if (!file || files.length !== 1) throw new AppError('LEAK_FILE_REQUIRED');
    const kind = await this.deps.tracer.kindOf(file);
    if (!kind) throw new AppError('LEAK_FILE_REQUIRED');
    const id = randomUUID();
    const key = leakCopyKey(id);
    await this.deps.storage.put(key, file.path, 'application/octet-stream');
    let created: LeakTraceView;
    try {
      created = await this.deps.traces.createPending(
        {
          id,
          requesterId: auth.userId,
          requesterRoles: auth.roles,
          kind,
          fileName: file.filename.slice(0, 255),
        },
        (within) => this.deps.jobs.send(LEAK_TRACE, { traceId: id }, { singletonKey: id, within }),
      );
    } catch (err) {
      await this.deps.storage.delete(key).catch(() => undefined);
      throw err;
    }
    return presentLeakTrace(created);
  }

  /** One trace, for its requester and staff; NOT_FOUND for anyone else. */
  async get(auth: AuthInfo, traceId: string): Promise<LeakTrace> {
    if (!canTraceLeaks(auth)) throw new AppError('FORBIDDEN');
    const view = await this.deps.traces.view(traceId);
    if (!view || !canSeeLeakTrace(auth, view.trace)) throw new AppError('NOT_FOUND');
    return presentLeakTrace(view);
  }

  /** The caller's most recent traces, newest first. */
  async recent(auth: AuthInfo): Promise<LeakTrace[]> {
    if (!canTraceLeaks(auth)) throw new AppError('FORBIDDEN');
    return (await this.deps.traces.recent(auth.userId, RECENT)).map(presentLeakTrace);
  }

  /**
   * The `leaks.trace` job: reads the stored copy with the requester's rights of the moment they
   * asked, writes the outcome once, tells the requester, removes the copy. Safe to run again: a
   * finished trace is not read again, and only the run that wrote the outcome tells anyone.
   */
  async run(traceId: string): Promise<void> {
    const row = await this.deps.traces.claim(traceId);
    if (row) await this.finish(row, await this.outcome(row));
    await this.deps.storage.delete(leakCopyKey(traceId));
  }

  private async outcome(row: LeakTraceRow): Promise<LeakTraceOutcome> {
    const failed = (error: 'unreadable' | 'failed') => ({ status: 'failed', error }) as const;
    if (row.attempts > MAX_RUNS || !row.kind) return failed('failed');
    const key = leakCopyKey(row.id);
    if (!(await this.deps.storage.exists(key))) return failed('failed');
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fanverse-leak-'));
    try {
      const local = path.join(dir, 'copy');
      await this.deps.storage.download(key, local);
      const viewer = { userId: row.requesterId, roles: row.requesterRoles };
      const finding = await this.deps.tracer.trace(viewer, row.kind, local);
      const { found, fan, file, live } = finding;
      return {
        status: 'done',
        markId: found ? finding.markId : null,
        mediaId: found ? (file?.id ?? null) : null,
        liveId: found ? (live?.id ?? null) : null,
        fanId: found ? (fan?.id ?? null) : null,
        servedAt: found ? finding.servedAt : null,
        confidence: found ? Math.floor(finding.confidence * 1000) / 10 : 0,
      };
    } catch (err) {
      const unreadable = err instanceof UnreadableCopy;
      // Anything else (storage, database) may pass: the queue runs it again while runs are left.
      if (!unreadable && row.attempts < MAX_RUNS) throw err;
      this.deps.logger?.error({ err, traceId: row.id }, 'leak trace failed');
      return failed(unreadable ? 'unreadable' : 'failed');
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  private async finish(row: LeakTraceRow, outcome: LeakTraceOutcome): Promise<void> {
    if (!(await this.deps.traces.finish(row.id, outcome))) return;
    this.deps.publisher.toUser(row.requesterId, 'leakTrace', { trace: await this.view(row.id) });
  }

  private async view(traceId: string): Promise<LeakTrace> {
    const view = await this.deps.traces.view(traceId);
    if (!view) throw new AppError('NOT_FOUND');
    return presentLeakTrace(view);
  }

  /** Files a DMCA complaint carrying a finished trace of the caller's that named a fan (once). */
  async complain(auth: AuthInfo, traceId: string): Promise<string> {
    if (!canTraceLeaks(auth)) throw new AppError('FORBIDDEN');
    const view = await this.deps.traces.view(traceId);
    if (!view || view.trace.requesterId !== auth.userId) throw new AppError('NOT_FOUND');
    const { trace, fan } = view;
    if (trace.complaintId) return trace.complaintId;
    if (trace.status !== 'done' || !fan) throw new AppError('LEAK_COMPLAINT_NEEDS_FAN');
    const source = trace.liveId ? `live ${trace.liveId}` : `media ${trace.mediaId}`;
    const complaintId = await this.deps.reports.create({
      reporterId: auth.userId,
      targetType: 'dmca',
      targetId: trace.mediaId ?? trace.liveId ?? trace.id,
      reason: 'other',
      details:
        `Leak trace ${trace.id}: marked copy of @${fan.username} (fan ${fan.id}), ${source}, ` +
        `served ${trace.servedAt?.toISOString()}, confidence ${trace.confidence}%.`,
    });
    await this.deps.traces.setComplaint(trace.id, complaintId);
    return complaintId;
  }
}
