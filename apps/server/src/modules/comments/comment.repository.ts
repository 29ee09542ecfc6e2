import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type CommentRow, comments, profiles, users } from '../../db/schema.ts';
import { publicUserColumns } from '../users/public-user.columns.ts';
import type { PublicUserRow } from '../users/public-user.presenter.ts';

export type CommentWithAuthor = CommentRow & { author: PublicUserRow };

/** Comments and replies. Queries only. */
export class CommentRepository {
  constructor(private readonly db: Db) {}

  /** A page of top-level comments, newest first, and the total of top-level comments. */
  async topLevel(postId: string, page: number, limit: number) {
    const where = and(eq(comments.postId, postId), isNull(comments.parentId));
    const [rows, totals] = await Promise.all([
      this.db
        .select({ comment: comments, author: publicUserColumns })
        .from(comments)
        .innerJoin(users, eq(users.id, comments.userId))
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(where)
        .orderBy(desc(comments.createdAt))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(comments).where(where),
    ]);
    return { rows: rows.map((r) => ({ ...r.comment, author: r.author })), total: totals[0]?.n ?? 0 };
  }

  /** Every reply under the given top-level comments, oldest first. */
  async replies(postId: string, rootIds: string[]): Promise<CommentWithAuthor[]> {
    if (!rootIds.length) return [];
    const rows = await this.db
      .select({ comment: comments, author: publicUserColumns })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.userId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(comments.postId, postId), inArray(comments.rootId, rootIds)))
      .orderBy(asc(comments.createdAt));
    return rows.map((r) => ({ ...r.comment, author: r.author }));
  }

  /** Every comment of the post, replies included (the count a post shows). */
  async countForPost(postId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(comments).where(eq(comments.postId, postId));
    return row?.n ?? 0;
  }

  async find(id: string): Promise<CommentRow | undefined> {
    const [row] = await this.db.select().from(comments).where(eq(comments.id, id)).limit(1);
    return row;
  }

  async create(row: typeof comments.$inferInsert): Promise<CommentWithAuthor> {
    const [created] = await this.db.insert(comments).values(row).returning();
    const [author] = await this.db
      .select(publicUserColumns)
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, created!.userId));
    return { ...created!, author: author! };
  }
}
