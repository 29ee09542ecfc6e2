import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { pageStatisticsSchema } from '../paging.ts';

/** Help articles a page lists (`?feed=wiki`). */
export const WIKI_PAGE_LIMIT = 30;
/** Longest article body, in characters of Markdown. */
export const WIKI_BODY_MAX = 50_000;

const language = z.enum(LANGUAGES, { error: 'invalid' });
/** The address of an article: lower-case letters, digits and dashes (`how-to-subscribe`). */
export const wikiSlugSchema = z
  .string({ error: 'required' })
  .trim()
  .min(1, 'required')
  .max(80, 'tooLong')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'wiki.slug');

export const wikiListQuerySchema = z.object({
  /** Words searched in titles and bodies (the language's stemming: "subscription" finds "subscriptions"). */
  q: z.string().trim().max(100).default(''),
  /** The articles' language; the caller's language when absent. */
  lang: language.optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  limit: z.coerce.number().int().min(1).max(60).default(WIKI_PAGE_LIMIT),
});
export type WikiListQuery = z.input<typeof wikiListQuerySchema>;

export const wikiSummarySchema = z.object({
  id: z.string(),
  slug: z.string(),
  language: language,
  title: z.string(),
  /** The body's first words as plain text. */
  excerpt: z.string(),
  updatedAt: z.string(),
});
export type WikiSummary = z.infer<typeof wikiSummarySchema>;

export const wikiListResponseSchema = z.object({
  articles: z.array(wikiSummarySchema),
  statistics: pageStatisticsSchema,
});
export type WikiListResponse = z.infer<typeof wikiListResponseSchema>;

export const wikiArticleQuerySchema = z.object({ lang: language.optional() });
export const wikiArticleSchema = wikiSummarySchema.extend({
  /** The Markdown source (what an admin edits). */
  body: z.string(),
  /** The body rendered to HTML by the server: Markdown only, raw HTML escaped, safe links only. */
  html: z.string(),
  /** Languages this article is written in. */
  languages: z.array(language),
});
export type WikiArticle = z.infer<typeof wikiArticleSchema>;
export const wikiArticleResponseSchema = z.object({ article: wikiArticleSchema });

export const wikiSaveRequestSchema = z.object({
  slug: wikiSlugSchema,
  language,
  title: z.string({ error: 'required' }).trim().min(1, 'required').max(150, 'tooLong'),
  body: z.string({ error: 'required' }).trim().min(1, 'required').max(WIKI_BODY_MAX, 'tooLong'),
});
export type WikiSaveRequest = z.input<typeof wikiSaveRequestSchema>;

export const wikiEndpoints = {
  'wiki.list': {
    method: 'GET',
    path: '/wiki',
    input: wikiListQuerySchema,
    output: wikiListResponseSchema,
    auth: 'optional',
    summary: 'Help articles of one language, searched (full text, best first) or by title; 30 a page.',
  },
  'wiki.article': {
    method: 'GET',
    path: '/wiki/:slug',
    params: z.object({ slug: wikiSlugSchema }),
    input: wikiArticleQuerySchema,
    output: wikiArticleResponseSchema,
    auth: 'optional',
    summary: 'One help article in the asked language, or in the other one when not translated yet.',
  },
  'wiki.save': {
    method: 'PUT',
    path: '/admin/wiki',
    input: wikiSaveRequestSchema,
    output: wikiArticleResponseSchema,
    auth: 'required',
    summary: 'Write or rewrite the article of a slug in one language, in Markdown (admins).',
  },
  'wiki.delete': {
    method: 'DELETE',
    path: '/admin/wiki/:id',
    params: z.object({ id: z.string().uuid('NOT_FOUND') }),
    output: z.object({ success: z.literal(true) }),
    auth: 'required',
    summary: 'Delete one language of a help article (admins).',
  },
} as const;
