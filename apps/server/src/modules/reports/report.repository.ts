import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { complaints } from '../../db/schema.ts';

/** Reports from fans; they become complaints in the admin area. Queries only. */
export class ReportRepository {
  constructor(private readonly db: Db) {}

  /**
   * Files the complaint, or answers the reporter's open complaint about the same thing (one open
   * complaint per reporter and target, kept by a unique partial index, so concurrent repeats too).
   */
  async create(row: typeof complaints.$inferInsert): Promise<string> {
    const [created] = await this.db
      .insert(complaints)
      .values(row)
      .onConflictDoNothing({
        target: [complaints.reporterId, complaints.targetType, complaints.targetId],
        where: sql`${complaints.status} = 'pending'`,
      })
      .returning({ id: complaints.id });
    if (created) return created.id;
    const [open] = await this.db
      .select({ id: complaints.id })
      .from(complaints)
      .where(
        and(
          row.reporterId ? eq(complaints.reporterId, row.reporterId) : isNull(complaints.reporterId),
          eq(complaints.targetType, row.targetType),
          eq(complaints.targetId, row.targetId),
          eq(complaints.status, 'pending'),
        ),
      )
      .limit(1);
    // The open one was decided between the two statements: file this one anew.
    return open ? open.id : this.create(row);
  }

  async pendingCount(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(complaints)
      .where(eq(complaints.status, 'pending'));
    return row?.n ?? 0;
  }
}
