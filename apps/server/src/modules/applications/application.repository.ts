import type { ApplicationStatus } from '@fanverse/contract';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { creatorApplications, identityDocuments, profiles, users } from '../../db/schema.ts';

export type ApplicationRow = typeof creatorApplications.$inferSelect;
export type DocumentRow = typeof identityDocuments.$inferSelect;

/** Creator applications and their private identity documents. Queries only. */
export class ApplicationRepository {
  constructor(private readonly db: Db) {}

  async findByUser(userId: string): Promise<ApplicationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(creatorApplications)
      .where(eq(creatorApplications.userId, userId));
    return row;
  }

  async find(id: string): Promise<ApplicationRow | undefined> {
    const [row] = await this.db.select().from(creatorApplications).where(eq(creatorApplications.id, id));
    return row;
  }

  /** The user's application, created empty on first use. */
  async ensure(userId: string): Promise<ApplicationRow> {
    await this.db.insert(creatorApplications).values({ userId }).onConflictDoNothing();
    return (await this.findByUser(userId))!;
  }

  async update(id: string, changes: Partial<typeof creatorApplications.$inferInsert>): Promise<void> {
    await this.db
      .update(creatorApplications)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(creatorApplications.id, id));
  }

  async documents(applicationId: string): Promise<DocumentRow[]> {
    return this.db.select().from(identityDocuments).where(eq(identityDocuments.applicationId, applicationId));
  }

  async documentsOf(applicationIds: string[]): Promise<DocumentRow[]> {
    if (!applicationIds.length) return [];
    return this.db
      .select()
      .from(identityDocuments)
      .where(inArray(identityDocuments.applicationId, applicationIds));
  }

  /** Stores (or replaces) one side; answers the replaced storage key, if any. */
  async putDocument(
    applicationId: string,
    side: string,
    storageKey: string,
    mime: string,
  ): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      const [old] = await tx
        .delete(identityDocuments)
        .where(and(eq(identityDocuments.applicationId, applicationId), eq(identityDocuments.side, side)))
        .returning({ key: identityDocuments.storageKey });
      await tx.insert(identityDocuments).values({ applicationId, side, storageKey, mime });
      return old?.key ?? null;
    });
  }

  async deleteDocuments(applicationId: string): Promise<string[]> {
    const rows = await this.db
      .delete(identityDocuments)
      .where(eq(identityDocuments.applicationId, applicationId))
      .returning({ key: identityDocuments.storageKey });
    return rows.map((r) => r.key);
  }

  /** Applications decided before `before` that still hold documents. */
  async decidedWithDocuments(before: Date): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ id: creatorApplications.id })
      .from(creatorApplications)
      .innerJoin(identityDocuments, eq(identityDocuments.applicationId, creatorApplications.id))
      .where(
        and(
          inArray(creatorApplications.status, ['accepted', 'rejected']),
          sql`${creatorApplications.decidedAt} < ${before.toISOString()}`,
        ),
      );
    return rows.map((r) => r.id);
  }

  async list(status: ApplicationStatus | 'all', q: string | undefined, page: number, limit: number) {
    const parts: (SQL | undefined)[] = [
      status === 'all'
        ? sql`${creatorApplications.status} <> 'draft'`
        : eq(creatorApplications.status, status),
    ];
    if (q) {
      const w = `%${q.toLowerCase()}%`;
      parts.push(
        sql`(lower(${users.username}) LIKE ${w} OR lower(${users.email}) LIKE ${w} OR lower(${users.name}) LIKE ${w})`,
      );
    }
    const where = and(...parts);
    const [rows, totals] = await Promise.all([
      this.db
        .select({ application: creatorApplications, user: users, profile: profiles })
        .from(creatorApplications)
        .innerJoin(users, eq(users.id, creatorApplications.userId))
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(where)
        .orderBy(desc(creatorApplications.submittedAt))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db
        .select({ n: count() })
        .from(creatorApplications)
        .innerJoin(users, eq(users.id, creatorApplications.userId))
        .where(where),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }

  /** One application with its applicant, as the verification queue shows it. */
  async findWithUser(id: string) {
    const [row] = await this.db
      .select({ application: creatorApplications, user: users, profile: profiles })
      .from(creatorApplications)
      .innerJoin(users, eq(users.id, creatorApplications.userId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(creatorApplications.id, id));
    return row;
  }

  async pendingCounts(): Promise<{ applications: number; documents: number }> {
    const [[a], [d]] = await Promise.all([
      this.db
        .select({ n: count() })
        .from(creatorApplications)
        .where(eq(creatorApplications.status, 'pending')),
      this.db
        .select({ n: count() })
        .from(identityDocuments)
        .innerJoin(creatorApplications, eq(creatorApplications.id, identityDocuments.applicationId))
        .where(eq(creatorApplications.status, 'pending')),
    ]);
    return { applications: a?.n ?? 0, documents: d?.n ?? 0 };
  }

  /** Accepting makes the person a verified creator, in the same transaction as the decision. */
  async accept(id: string, userId: string, adminId: string, at: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(creatorApplications)
        .set({ status: 'accepted', reason: null, decidedBy: adminId, decidedAt: at, updatedAt: at })
        .where(eq(creatorApplications.id, id));
      await tx
        .update(users)
        .set({
          verified: true,
          roles: sql`(SELECT array_agg(DISTINCT r) FROM unnest(array_append(array_remove(${users.roles}, 'fan'), 'creator')) AS r)`,
          updatedAt: at,
        })
        .where(eq(users.id, userId));
    });
  }
}
