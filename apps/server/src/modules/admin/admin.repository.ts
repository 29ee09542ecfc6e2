import type { ComplaintStatus } from '@fanverse/contract';
import { and, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { creatorSql, fanAccountSql, staffSql } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import { adminActions, complaints, posts, profiles, users } from '../../db/schema.ts';
import { publicUserColumns } from '../users/public-user.columns.ts';
import type { PublicUserRow } from '../users/public-user.presenter.ts';

export type ComplaintRow = typeof complaints.$inferSelect & {
  reporter: PublicUserRow | null;
  action: string | null;
};

/** Complaints, accounts and the admin action log. Queries only. */
export class AdminRepository {
  constructor(private readonly db: Db) {}

  async logAction(row: typeof adminActions.$inferInsert): Promise<void> {
    await this.db.insert(adminActions).values(row);
  }

  async complaints(
    status: ComplaintStatus | 'all',
    page: number,
    limit: number,
    q?: string,
  ): Promise<{ rows: ComplaintRow[]; total: number }> {
    const w = q ? `%${q.toLowerCase()}%` : undefined;
    const where = and(
      status === 'all' ? undefined : eq(complaints.status, status),
      w
        ? sql`(lower(${complaints.reason}) LIKE ${w} OR lower(coalesce(${complaints.details}, '')) LIKE ${w}
            OR ${complaints.reporterId} IN (SELECT id FROM ${users} WHERE lower(username) LIKE ${w}))`
        : undefined,
    );
    const [rows, totals] = await Promise.all([
      this.complaintRows(where, page, limit),
      this.db.select({ n: count() }).from(complaints).where(where),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }

  /** One complaint with its reporter and last action, as the list shows it. */
  async complaintRow(id: string): Promise<ComplaintRow | undefined> {
    const [row] = await this.complaintRows(eq(complaints.id, id), 1, 1);
    return row;
  }

  private async complaintRows(where: SQL | undefined, page: number, limit: number): Promise<ComplaintRow[]> {
    const rows = await this.db
      .select({
        complaint: complaints,
        reporter: publicUserColumns,
        action: sql<string | null>`(SELECT a.details->>'action' FROM ${adminActions} a
          WHERE a.target_type = 'complaint' AND a.target_id = ${complaints.id}::text ORDER BY a.created_at DESC LIMIT 1)`,
      })
      .from(complaints)
      .leftJoin(users, eq(users.id, complaints.reporterId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(where)
      .orderBy(desc(complaints.createdAt))
      .limit(limit)
      .offset((page - 1) * limit);
    return rows.map((r) => ({
      ...r.complaint,
      reporter: r.reporter?.id ? (r.reporter as PublicUserRow) : null,
      action: r.action,
    }));
  }

  async findComplaint(id: string) {
    const [row] = await this.db.select().from(complaints).where(eq(complaints.id, id));
    return row;
  }

  async resolveComplaint(id: string, response: string | null): Promise<void> {
    await this.db.update(complaints).set({ status: 'resolved', response }).where(eq(complaints.id, id));
  }

  async postAuthor(postId: string): Promise<string | undefined> {
    const [row] = await this.db.select({ id: posts.creatorId }).from(posts).where(eq(posts.id, postId));
    return row?.id;
  }

  /** Every account, deleted ones included: they stay listed anonymised ('Deleted user', ADR 0011). */
  async users(role: string, q: string | undefined, page: number, limit: number) {
    const parts: (SQL | undefined)[] = [];
    if (role === 'creators') parts.push(creatorSql(users.roles));
    if (role === 'fans') parts.push(fanAccountSql(users.roles));
    if (role === 'admins') parts.push(staffSql(users.roles));
    if (q) {
      const w = `%${q.toLowerCase()}%`;
      parts.push(
        sql`(lower(${users.username}) LIKE ${w} OR lower(${users.email}) LIKE ${w} OR lower(${users.name}) LIKE ${w})`,
      );
    }
    const where = and(...parts);
    const [rows, totals] = await Promise.all([
      this.db
        .select({ user: users, profile: profiles })
        .from(users)
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(where)
        .orderBy(desc(users.createdAt))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(users).where(where),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }

  async setSuspended(userId: string, suspended: boolean, at: Date): Promise<void> {
    await this.db
      .update(users)
      .set({ suspendedAt: suspended ? at : null, updatedAt: at })
      .where(eq(users.id, userId));
  }

  async setRole(userId: string, role: string, grant: boolean, at: Date): Promise<void> {
    await this.db
      .update(users)
      .set({
        roles: grant
          ? sql`(SELECT array_agg(DISTINCT r) FROM unnest(array_append(${users.roles}, ${role})) AS r)`
          : sql`array_remove(${users.roles}, ${role})`,
        updatedAt: at,
      })
      .where(eq(users.id, userId));
  }

  /** Roles of an account that can still be acted on (undefined when unknown or deleted). */
  async rolesOf(userId: string): Promise<string[] | undefined> {
    const [row] = await this.db
      .select({ roles: users.roles })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)));
    return row?.roles;
  }
}
