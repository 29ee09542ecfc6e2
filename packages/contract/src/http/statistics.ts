import { z } from 'zod';

export const STATISTICS_PERIODS = ['month', '3months', '6months', 'year', 'all'] as const;
export type StatisticsPeriod = (typeof STATISTICS_PERIODS)[number];
/** How many months back each period reaches (spec §9); `all` has no start. */
export const STATISTICS_PERIOD_MONTHS: Record<StatisticsPeriod, number | null> = {
  month: 1,
  '3months': 3,
  '6months': 6,
  year: 12,
  all: null,
};
export const ADMIN_STATISTICS_PAGES = [
  'home',
  'sales',
  'creators',
  'bags',
  'fans',
  'users',
  'salesByCreator',
] as const;
export type AdminStatisticsPage = (typeof ADMIN_STATISTICS_PAGES)[number];
/** Sale categories of spec §1. */
/** Sale categories of spec §1, and `live` (tickets, tips and gifts during a live, issue 17). */
export const SALE_CATEGORIES = [
  'subscriptions',
  'content',
  'gifts',
  'flowers',
  'tips',
  'live',
  'dollars',
] as const;
export type SaleCategory = (typeof SALE_CATEGORIES)[number];

export const statisticsQuerySchema = z.object({
  period: z.enum(STATISTICS_PERIODS).default('month'),
  sort: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type StatisticsQuery = z.input<typeof statisticsQuerySchema>;

const cell = z.union([z.string(), z.number(), z.null()]);

/**
 * Admin statistics pages of spec §3: each answers items and statistics. Amounts are integer cents,
 * counts integers; `items` rows are keyed as `columns` lists them (the first column is the label).
 */
export const adminStatisticsResponseSchema = z.object({
  page: z.enum(ADMIN_STATISTICS_PAGES),
  period: z.enum(STATISTICS_PERIODS),
  columns: z.array(z.string()),
  items: z.array(z.record(z.string(), cell)),
  statistics: z.object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    hasMore: z.boolean(),
    totalCreators: z.number().int().optional(),
    totals: z.record(z.string(), z.number()),
  }),
});
export type AdminStatistics = z.infer<typeof adminStatisticsResponseSchema>;

export const creatorStatisticsResponseSchema = z.object({
  period: z.enum(STATISTICS_PERIODS),
  subscribers: z.object({ active: z.number().int(), new: z.number().int() }),
  /** Net sales per day (cents) for the chart, in the platform's time zone. */
  series: z.array(z.object({ date: z.string(), amount: z.number().int() })),
  topPosts: z.array(
    z.object({
      _id: z.string(),
      message: z.string(),
      likes: z.number().int(),
      comments: z.number().int(),
      unlocks: z.number().int(),
      earnings: z.number().int(),
    }),
  ),
});
export type CreatorStatistics = z.infer<typeof creatorStatisticsResponseSchema>;
