import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { birthdateSchema, nameSchema, usernameSchema } from '../validation.ts';
import { roleSchema } from './auth.ts';

/** User-store counters of spec §3. */
export const countersSchema = z.object({
  documentsByVerify: z.number().int(),
  profilesByVerify: z.number().int(),
  creatorsByVerify: z.number().int(),
  complaintsByVerify: z.number().int(),
  messagesUnread: z.number().int(),
  notificationsUnread: z.number().int(),
  postsByReview: z.number().int(),
  storiesByReview: z.number().int(),
});
export type Counters = z.infer<typeof countersSchema>;
export const COUNTER_NAMES = Object.keys(countersSchema.shape) as (keyof Counters)[];

/** The own profile (spec §3). */
export const profileSchema = z.object({
  _id: z.string(),
  username: z.string(),
  name: z.string(),
  displayName: z.string().nullable(),
  about: z.string().nullable(),
  location: z.string().nullable(),
  birthdate: z.string().nullable(),
  country: z.string().nullable(),
  email: z.string(),
  avatar: z.string().nullable(),
  cover: z.string().nullable(),
  /** Creators: the visible "site/@handle" mark is on (ADR 0026). */
  visibleWatermark: z.boolean(),
  roles: z.array(roleSchema),
  verified: z.boolean(),
  online: z.boolean(),
  lastConnection: z.string().nullable(),
  language: z.enum(['en', 'es']),
  createdAt: z.string(),
  /** Unread notifications. */
  notifications: z.number().int(),
  counters: countersSchema,
});
export type Profile = z.infer<typeof profileSchema>;

const optionalText = (max: number) => z.string().trim().max(max, 'tooLong').nullable().optional();

export const updateProfileRequestSchema = z.object({
  username: usernameSchema.optional(),
  name: nameSchema.optional(),
  displayName: optionalText(LIMITS.displayNameMax),
  about: optionalText(LIMITS.aboutMax),
  location: optionalText(LIMITS.locationMax),
  birthdate: birthdateSchema.optional(),
  country: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/, 'invalid')
    .nullable()
    .optional(),
  language: z.enum(['en', 'es']).optional(),
  /** Creators: a visible "site/@handle" mark on the pictures fans see (ADR 0026). */
  visibleWatermark: z.boolean().optional(),
});
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;

export const deleteAccountRequestSchema = z.object({
  confirm: z.string({ error: 'required' }).trim().min(1, 'required'),
  password: z.string({ error: 'required' }).min(1, 'required'),
});
export type DeleteAccountRequest = z.input<typeof deleteAccountRequestSchema>;

export const connectionReportRequestSchema = z.object({
  time: z.union([z.number(), z.string()]).optional(),
});
export const connectionReportResponseSchema = z.object({
  counter: countersSchema,
  online: z.boolean(),
  lastConnection: z.string(),
});
export type ConnectionReportResponse = z.infer<typeof connectionReportResponseSchema>;

/** Avatar or cover upload (multipart with one file); the crop comes from the image adjust editor. */
export const profileImageFieldsSchema = z.object({
  kind: z.enum(['avatar', 'cover']),
  x: z.coerce.number().int().min(0).optional(),
  y: z.coerce.number().int().min(0).optional(),
  width: z.coerce.number().int().min(1).optional(),
  height: z.coerce.number().int().min(1).optional(),
});
export type ProfileImageFields = z.input<typeof profileImageFieldsSchema>;
