import { z } from 'zod';
import { PAGE_LIMITS } from '../constants.ts';
import { pageStatisticsSchema } from '../paging.ts';
import { mediaSchema, optionalIsoTime } from './content.ts';

/** A folder filter: every file, the files in no folder, or one folder's (its id). */
export const vaultFolderFilter = z.union([z.enum(['all', 'none']), z.string().uuid('invalid')]);

/** The creator's vault (ADR 0032): filter by folder, type, used or not, name and upload date. */
export const vaultQuerySchema = z.object({
  folder: vaultFolderFilter.default('all'),
  type: z.enum(['all', 'image', 'video']).default('all'),
  used: z.enum(['all', 'used', 'unused']).default('all'),
  /** `ready`: only files ready to attach again (the pickers); `all` also those processing or failed. */
  status: z.enum(['all', 'ready']).default('all'),
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

/**
 * What the paid posts and paid messages holding a file sold, from the ledger (ADR 0032): unlocks,
 * the credits fans paid and the creator's share in cents. An item with several files counts in
 * full for each of them (never split), so these figures are not summed across files.
 */
export const vaultEarningsSchema = z.object({
  sales: z.number().int(),
  credits: z.number().int(),
  earnings: z.number().int(),
});
export type VaultEarnings = z.infer<typeof vaultEarningsSchema>;

export const vaultItemSchema = z.object({
  _id: z.string(),
  name: z.string(),
  size: z.number().int(),
  date: z.string(),
  /** The file as its owner sees it (thumbnails signed for the owner). */
  media: mediaSchema,
  uses: vaultUsesSchema,
  used: z.boolean(),
  /** The folder it is in, or null. */
  folder: z.string().nullable(),
  earned: vaultEarningsSchema,
});
export type VaultItem = z.infer<typeof vaultItemSchema>;

export const vaultResponseSchema = z.object({
  items: z.array(vaultItemSchema),
  statistics: pageStatisticsSchema,
});
export type VaultResponse = z.infer<typeof vaultResponseSchema>;

/** A folder of the vault with how many files it holds. */
export const vaultFolderSchema = z.object({
  _id: z.string(),
  name: z.string(),
  files: z.number().int(),
});
export type VaultFolder = z.infer<typeof vaultFolderSchema>;

export const vaultFoldersResponseSchema = z.object({
  folders: z.array(vaultFolderSchema),
  /** Files in no folder. */
  unfiled: z.number().int(),
});
export type VaultFoldersResponse = z.infer<typeof vaultFoldersResponseSchema>;

export const VAULT_FOLDER_NAME_MAX = 60;

/** Create or rename a folder: a name unique (case-insensitive) among the creator's folders. */
export const vaultFolderInputSchema = z.object({
  name: z.string({ error: 'required' }).trim().min(1, 'required').max(VAULT_FOLDER_NAME_MAX, 'tooLong'),
});
export type VaultFolderInput = z.infer<typeof vaultFolderInputSchema>;

/** Move files into a folder, or out of any folder (`folder: null`). */
export const vaultMoveSchema = z.object({
  ids: z.array(z.string().uuid('invalid')).min(1, 'required').max(100, 'tooLong'),
  folder: z.string().uuid('invalid').nullable(),
});
export type VaultMove = z.infer<typeof vaultMoveSchema>;

/** A post or story holding the file, with what its unlocks earned. */
export const vaultPostUseSchema = vaultEarningsSchema.extend({
  _id: z.string(),
  kind: z.enum(['post', 'story']),
  /** The start of its text. */
  text: z.string(),
  date: z.string(),
  price: z.number().int(),
  /** False once the post was deleted (its past sales still count). */
  live: z.boolean(),
});
export type VaultPostUse = z.infer<typeof vaultPostUseSchema>;

/** A message holding the file (a mass message once, with its recipients), with what unlocks earned. */
export const vaultMessageUseSchema = vaultEarningsSchema.extend({
  _id: z.string(),
  /** The receiver of a direct message; null for a mass message. */
  to: z.string().nullable(),
  recipients: z.number().int(),
  text: z.string(),
  date: z.string(),
  price: z.number().int(),
});
export type VaultMessageUse = z.infer<typeof vaultMessageUseSchema>;

/** One vault file: where it is used (with links' data) and what each use sold. */
export const vaultFileResponseSchema = z.object({
  item: vaultItemSchema,
  posts: z.array(vaultPostUseSchema),
  messages: z.array(vaultMessageUseSchema),
  /** The welcome message holds it (its price in credits), or null. */
  welcome: z.object({ price: z.number().int() }).nullable(),
  /** Gallery items and category covers showing it. */
  gallery: z.number().int(),
});
export type VaultFileResponse = z.infer<typeof vaultFileResponseSchema>;
