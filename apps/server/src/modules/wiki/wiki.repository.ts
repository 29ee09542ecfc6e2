import type { Language } from '@fanverse/contract';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { wikiArticles } from '../../db/schema.ts';
import { escapeLike } from '../search/spelling.ts';

/** PostgreSQL text-search configuration of each language (stemming: "subscription" finds "subscriptions"). */
const SEARCH_CONFIG: Record<Language, string> = { en: 'english', es: 'spanish' };

export type WikiRow = typeof wikiArticles.$inferSelect;

/** Help articles: search, lookup by slug, writes. Queries only. */
export class WikiRepository {
  constructor(private readonly db: Db) {}

  /**
   * Articles of a language: with words, those whose title or body match them in full text (the
   * language's stemming) or whose title contains them, best match first; without, by title.
   */
  async list(language: Language, q: string, page: number, limit: number) {
    // The configuration is a constant of this file, never input: inlined so the planner sees it.
    const config = sql.raw(`'${SEARCH_CONFIG[language]}'::regconfig`);
    const document = sql`to_tsvector(${config}, ${wikiArticles.title} || ' ' || ${wikiArticles.body})`;
    const query = sql`websearch_to_tsquery(${config}, ${q})`;
    const matches: SQL | undefined = q
      ? sql`(${document} @@ ${query} OR ${wikiArticles.title} ILIKE ${`%${escapeLike(q)}%`})`
      : undefined;
    const where = and(eq(wikiArticles.language, language), matches);
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(wikiArticles)
        .where(where)
        .orderBy(...(q ? [sql`ts_rank(${document}, ${query}) DESC`] : []), asc(wikiArticles.title))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ n: count() }).from(wikiArticles).where(where),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }

  /** Every language of one slug. */
  async bySlug(slug: string): Promise<WikiRow[]> {
    return this.db.select().from(wikiArticles).where(eq(wikiArticles.slug, slug));
  }

  /** Writes the article of a slug and language (a new one, or a rewrite of the existing one). */
  async save(
    row: Pick<WikiRow, 'slug' | 'language' | 'title' | 'body' | 'html' | 'authorId'>,
  ): Promise<WikiRow> {
    const [saved] = await this.db
      .insert(wikiArticles)
      .values(row)
      .onConflictDoUpdate({
        target: [wikiArticles.slug, wikiArticles.language],
        set: {
          title: row.title,
          body: row.body,
          html: row.html,
          authorId: row.authorId,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    if (!saved) throw new Error('wiki article not saved');
    return saved;
  }

  /** Deletes one article; answers whether it existed. */
  async delete(id: string): Promise<boolean> {
    const gone = await this.db
      .delete(wikiArticles)
      .where(eq(wikiArticles.id, id))
      .returning({ id: wikiArticles.id });
    return gone.length > 0;
  }
}
