import { count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { complaints } from '../../db/schema.ts';

/** Reports from fans; they become complaints in the admin area. Queries only. */
export class ReportRepository {
  constructor(private readonly db: Db) {}

  async create(row: typeof complaints.$inferInsert): Promise<string> {
    const [created] = await this.db.insert(complaints).values(row).returning({ id: complaints.id });
    return created!.id;
  }

  async pendingCount(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(complaints)
      .where(eq(complaints.status, 'pending'));
    return row?.n ?? 0;
  }
}
