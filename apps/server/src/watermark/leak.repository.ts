import type { LeakTraceError, Role } from '@fanverse/contract';
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type LiveMarkGrid, leakTraces, lives, media, users } from '../db/schema.ts';
import type { JobTransaction } from '../jobs/job.ts';
import { jobTransaction } from '../jobs/pg-boss-db.ts';

export type LeakTraceRow = typeof leakTraces.$inferSelect;

/** A trace with the names its answer shows: the fan's and the file's (or the live's). */
export interface LeakTraceView {
  trace: LeakTraceRow;
  fan: { id: string; username: string; name: string } | null;
  file: { id: string; name: string } | null;
  live: { id: string; title: string } | null;
}

/** What a finished run writes: the result, or why there is none. */
export type LeakTraceOutcome =
  | {
      status: 'done';
      markId: number | null;
      mediaId: string | null;
      liveId: string | null;
      fanId: string | null;
      servedAt: Date | null;
      confidence: number;
    }
  | { status: 'failed'; error: LeakTraceError };

/** A marked video the tracer may compare a copy with. */
export interface VideoCandidate {
  id: string;
  name: string;
  ownerId: string;
  info: unknown;
  /** Its length in seconds. */
  seconds: number;
}

/** A marked live the tracer may compare a recording with (ADR 0045). */
export interface LiveCandidate {
  id: string;
  title: string;
  creatorId: string;
  mark: LiveMarkGrid;
  /** Its length on the clock, start to end (or to now), in seconds. */
  seconds: number;
}

/** The leak tracer's queries (ADR 0026): traces, and the media and fans their results name. */
export class LeakRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores a `pending` trace and, in the same transaction, queues its job (`enqueue` sends it
   * `within` the transaction): there is never a pending trace without a job, nor a job without its row.
   * Answers the trace as created, read in that transaction: a worker that takes the job at once
   * (another copy, or this one polling) cannot have moved it on yet.
   */
  async createPending(
    values: {
      id: string;
      requesterId: string;
      requesterRoles: Role[];
      kind: 'image' | 'video';
      fileName: string;
    },
    enqueue: (within: JobTransaction) => Promise<void>,
  ): Promise<LeakTraceView> {
    return this.db.transaction(async (tx) => {
      await tx.insert(leakTraces).values({ ...values, status: 'pending' });
      await enqueue(jobTransaction(tx));
      const [created] = await this.views(tx).where(eq(leakTraces.id, values.id)).limit(1);
      if (!created) throw new Error(`leak trace ${values.id} not read back`);
      return created;
    });
  }

  /**
   * Takes an unfinished trace for a run: `running`, one more attempt. Undefined when it is finished
   * (a re-run after the result was written) or gone (its requester's account was deleted).
   */
  async claim(id: string): Promise<LeakTraceRow | undefined> {
    const [row] = await this.db
      .update(leakTraces)
      .set({ status: 'running', attempts: sql`${leakTraces.attempts} + 1` })
      .where(and(eq(leakTraces.id, id), inArray(leakTraces.status, ['pending', 'running'])))
      .returning();
    return row;
  }

  /** Writes a run's outcome once: false when another run already finished the trace. */
  async finish(id: string, outcome: LeakTraceOutcome): Promise<boolean> {
    const written = await this.db
      .update(leakTraces)
      .set({ ...outcome, finishedAt: sql`now()` })
      .where(and(eq(leakTraces.id, id), eq(leakTraces.status, 'running')))
      .returning({ id: leakTraces.id });
    return written.length > 0;
  }

  async view(id: string): Promise<LeakTraceView | undefined> {
    const [row] = await this.views().where(eq(leakTraces.id, id)).limit(1);
    return row;
  }

  /** A requester's most recent traces, newest first. */
  async recent(requesterId: string, limit: number): Promise<LeakTraceView[]> {
    return this.views()
      .where(eq(leakTraces.requesterId, requesterId))
      .orderBy(desc(leakTraces.createdAt), desc(leakTraces.id))
      .limit(limit);
  }

  private views(db: Pick<Db, 'select'> = this.db) {
    return db
      .select({
        trace: leakTraces,
        fan: { id: users.id, username: users.username, name: users.name },
        file: { id: media.id, name: media.name },
        live: { id: lives.id, title: lives.title },
      })
      .from(leakTraces)
      .leftJoin(users, eq(users.id, leakTraces.fanId))
      .leftJoin(media, eq(media.id, leakTraces.mediaId))
      .leftJoin(lives, eq(lives.id, leakTraces.liveId))
      .$dynamic();
  }

  async setComplaint(id: string, complaintId: string): Promise<void> {
    await this.db.update(leakTraces).set({ complaintId }).where(eq(leakTraces.id, id));
  }

  async fanOf(id: string): Promise<{ id: string; username: string; name: string } | null> {
    const [fan] = await this.db
      .select({ id: users.id, username: users.username, name: users.name })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    return fan ?? null;
  }

  async mediaOf(id: string): Promise<{ id: string; name: string; ownerId: string } | null> {
    const [row] = await this.db
      .select({ id: media.id, name: media.name, ownerId: media.ownerId })
      .from(media)
      .where(eq(media.id, id))
      .limit(1);
    return row ?? null;
  }

  /**
   * Marked, ready videos at least `minSeconds` long (of `ownerId`, or anyone's when null), the
   * nearest in length to `seconds` first.
   */
  async markedVideos(q: {
    ownerId: string | null;
    seconds: number;
    minSeconds: number;
    limit: number;
  }): Promise<VideoCandidate[]> {
    const length = sql<number>`((${media.info} -> 'format' ->> 'duration')::float8)`;
    return this.db
      .select({ id: media.id, name: media.name, ownerId: media.ownerId, info: media.info, seconds: length })
      .from(media)
      .where(
        and(
          eq(media.kind, 'video'),
          eq(media.status, 'ready'),
          // A manifest of an unmarked video holds `mark: null` (JSON null, not SQL NULL).
          sql`jsonb_typeof(${media.info} -> 'video' -> 'mark') = 'object'`,
          sql`${length} >= ${q.minSeconds}`,
          q.ownerId ? eq(media.ownerId, q.ownerId) : undefined,
        ),
      )
      .orderBy(sql`abs(${length} - ${q.seconds})`)
      .limit(q.limit);
  }

  /**
   * Marked lives (ADR 0045) at least `minSeconds` long on the clock (of `creatorId`, or anyone's
   * when null), the nearest in length to `seconds` first.
   */
  async markedLives(q: {
    creatorId: string | null;
    seconds: number;
    minSeconds: number;
    limit: number;
  }): Promise<LiveCandidate[]> {
    // Reconnect gaps included: never shorter than what the live streamed.
    const length = sql<number>`extract(epoch FROM coalesce(${lives.endedAt}, now()) - ${lives.startedAt})::float8`;
    const rows = await this.db
      .select({
        id: lives.id,
        title: lives.title,
        creatorId: lives.creatorId,
        mark: lives.mark,
        seconds: length,
      })
      .from(lives)
      .where(
        and(
          isNotNull(lives.mark),
          sql`${length} >= ${q.minSeconds}`,
          q.creatorId ? eq(lives.creatorId, q.creatorId) : undefined,
        ),
      )
      .orderBy(sql`abs(${length} - ${q.seconds})`)
      .limit(q.limit);
    return rows.flatMap(({ mark, ...row }) => (mark ? [{ ...row, mark }] : []));
  }
}
