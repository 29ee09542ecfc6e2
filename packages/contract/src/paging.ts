import { z } from 'zod';

/** Paged list statistics of spec §3: hasMore = total > page * limit. */
export const pageStatisticsSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  hasMore: z.boolean(),
});
export type PageStatistics = z.infer<typeof pageStatisticsSchema>;

export function pageStatistics(page: number, limit: number, total: number): PageStatistics {
  return { page, limit, total, hasMore: total > page * limit };
}

export function pageQuerySchema(defaultLimit: number, maxLimit = 100) {
  return z.object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
  });
}
