import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
  pageStatistics,
  type WikiArticle,
  type WikiListResponse,
  type WikiSaveRequest,
  type WikiSummary,
} from '@fanverse/contract';
import MarkdownIt from 'markdown-it';
import { isAdministrator } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { ActionLog } from '../admin/action-log.ts';
import type { WikiRepository, WikiRow } from './wiki.repository.ts';

/** Characters of plain text in an article's excerpt. */
const EXCERPT_LENGTH = 160;

/**
 * Markdown to HTML for help articles: raw HTML in the source is escaped (html: false) and
 * markdown-it refuses javascript:, vbscript:, file: and data: links, so the page may show the
 * result as HTML even if an admin account were misused.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}

/** The first words of a Markdown body as plain text. */
export function excerptOf(body: string): string {
  const text = body
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^\s*(?:[-+*]|\d+[.)])\s+/gm, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`~|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…` : text;
}

function summary(row: WikiRow): WikiSummary {
  return {
    id: row.id,
    slug: row.slug,
    language: row.language as Language,
    title: row.title,
    excerpt: excerptOf(row.body),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The help knowledge base (issue 15): anyone reads and searches it, administrators write it. */
export class WikiService {
  constructor(
    private readonly repo: WikiRepository,
    private readonly actions: ActionLog,
  ) {}

  async list(query: { q: string; lang?: Language; page: number; limit: number }, callerLang: Language) {
    const language = query.lang ?? callerLang;
    const found = await this.repo.list(language, query.q, query.page, query.limit);
    return {
      articles: found.rows.map(summary),
      statistics: pageStatistics(query.page, query.limit, found.total),
    } satisfies WikiListResponse;
  }

  /** The article in the asked language, else in the default one, else in any. */
  async article(slug: string, lang: Language): Promise<{ article: WikiArticle }> {
    const rows = await this.repo.bySlug(slug);
    const row =
      rows.find((r) => r.language === lang) ?? rows.find((r) => r.language === DEFAULT_LANGUAGE) ?? rows[0];
    if (!row) throw new AppError('NOT_FOUND');
    return { article: this.present(row, rows) };
  }

  async save(auth: AuthInfo, input: WikiSaveRequest): Promise<{ article: WikiArticle }> {
    if (!isAdministrator(auth)) throw new AppError('FORBIDDEN');
    const row = await this.repo.save({
      slug: input.slug,
      language: input.language,
      title: input.title,
      body: input.body,
      html: renderMarkdown(input.body),
      authorId: auth.userId,
    });
    await this.actions.record(auth, 'wiki.save', 'wiki', row.id, { slug: row.slug, language: row.language });
    return { article: this.present(row, await this.repo.bySlug(row.slug)) };
  }

  async delete(auth: AuthInfo, id: string): Promise<{ success: true }> {
    if (!isAdministrator(auth)) throw new AppError('FORBIDDEN');
    if (!(await this.repo.delete(id))) throw new AppError('NOT_FOUND');
    await this.actions.record(auth, 'wiki.delete', 'wiki', id);
    return { success: true };
  }

  private present(row: WikiRow, all: readonly WikiRow[]): WikiArticle {
    const languages = LANGUAGES.filter((l) => all.some((r) => r.language === l));
    return { ...summary(row), body: row.body, html: row.html, languages };
  }
}
