import { z } from 'zod';
import { PAGE_LIMITS } from '../constants.ts';
import { pageStatisticsSchema } from '../paging.ts';
import { mediaSchema, optionalIsoTime } from './content.ts';

/** The creator's vault (ADR 0032): filter by type, used or not, name and upload date. */
export const vaultQuerySchema = z.object({
  type: z.enum(['all', 'image', 'video']).default('all'),
  used: z.enum(['all', 'used', 'unused']).default('all'),
  q: z.string().trim().max(100).default(''),
  /** Uploaded on or after this day. */
  from: optionalIsoTime,
  /** Uploaded before the end of this day. */
  to: optionalIsoTime,
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_LIMITS.vault),
});
export type VaultQuery = z.input<typeof vaultQuerySchema>;

/** Where a vault file is used (live posts and stories, messages, the welcome message, gallery). */
export const vaultUsesSchema = z.object({
  posts: z.number().int(),
  messages: z.number().int(),
  welcome: z.boolean(),
  gallery: z.number().int(),
});
export type VaultUses = z.infer<typeof vaultUsesSchema>;

export const vaultItemSchema = z.object({
  _id: z.string(),
  name: z.string(),
  size: z.number().int(),
  date: z.string(),
  /** The file as its owner sees it (thumbnails signed for the owner). */
  media: mediaSchema,
  uses: vaultUsesSchema,
  used: z.boolean(),
});
export type VaultItem = z.infer<typeof vaultItemSchema>;

export const vaultResponseSchema = z.object({
  items: z.array(vaultItemSchema),
  statistics: pageStatisticsSchema,
});
export type VaultResponse = z.infer<typeof vaultResponseSchema>;
