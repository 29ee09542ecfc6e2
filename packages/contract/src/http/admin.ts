import { z } from 'zod';
import { REPORT_REASONS } from '../constants.ts';
import { pageStatisticsSchema } from '../paging.ts';
import { birthdateSchema, emailSchema, nameSchema, phoneSchema } from '../validation.ts';
import { roleSchema } from './auth.ts';
import { publicUserSchema } from './content.ts';

export const DOCUMENT_TYPES = ['national_id', 'passport', 'driving_licence'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
/** The three identity photos of spec §3: front, back, and the document held beside the face. */
export const DOCUMENT_SIDES = ['front', 'back', 'face'] as const;
export type DocumentSide = (typeof DOCUMENT_SIDES)[number];
export const APPLICATION_STATUSES = ['draft', 'pending', 'accepted', 'rejected'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const COMPLAINT_STATUSES = ['pending', 'resolved'] as const;
export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number];

const text = (max: number) => z.string().trim().max(max, 'tooLong');
const required = (max: number) =>
  z.string({ error: 'required' }).trim().min(1, 'required').max(max, 'tooLong');

/** Step 1 of the creator application: the profile and the application fields (spec §3, §5). */
export const applicationProfileSchema = z.object({
  fullName: nameSchema,
  country: z
    .string({ error: 'required' })
    .trim()
    .regex(/^[A-Z]{2}$/, 'required'),
  profileUrl: text(200).optional(),
  email: emailSchema,
  phone: phoneSchema,
  birthday: birthdateSchema,
  description: required(1000),
  socialNetworks: text(300).optional(),
  instagram: required(60),
  experience: text(500).optional(),
  currentlyWorking: z
    .union([z.boolean(), z.enum(['true', 'false', ''])])
    .optional()
    .transform((v) => v === true || v === 'true'),
  platformName: text(100).optional(),
  comments: text(1000).optional(),
  howKnown: text(200).optional(),
});
export type ApplicationProfile = z.input<typeof applicationProfileSchema>;

/** Multipart body of POST /creator/apply; `step` says which part is being sent. */
export const applyRequestSchema = z.discriminatedUnion('step', [
  applicationProfileSchema.extend({ step: z.literal('1') }),
  z.object({
    step: z.literal('2'),
    acceptCreatorTerms: z.union([z.literal(true), z.literal('true')], { error: 'terms.required' }),
  }),
  z.object({ step: z.literal('3'), documentType: z.enum(DOCUMENT_TYPES, { error: 'required' }) }),
]);
export type ApplyRequest = z.input<typeof applyRequestSchema>;

/** Apply state of spec §3. */
export const applyStateSchema = z.object({
  step1: z.boolean(),
  step2: z.boolean(),
  step3: z.boolean(),
  step4: z.boolean(),
  DataApplyCreatorComplete: z.boolean(),
  status: z.enum(APPLICATION_STATUSES),
  reason: z.string().nullable(),
  fields: applicationProfileSchema.partial().extend({ currentlyWorking: z.boolean().optional() }),
  documentType: z.enum(DOCUMENT_TYPES).nullable(),
  documents: z.object({ front: z.boolean(), back: z.boolean(), face: z.boolean() }),
  submittedAt: z.string().nullable(),
});
export type ApplyState = z.infer<typeof applyStateSchema>;

const adminUserSchema = publicUserSchema.extend({
  email: z.string(),
  roles: z.array(roleSchema),
  suspended: z.boolean(),
  /** When the person deleted the account (the row stays anonymised for the ledger), or null. */
  deletedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const verificationSchema = z.object({
  _id: z.string(),
  user: adminUserSchema,
  fields: applyStateSchema.shape.fields,
  documentType: z.enum(DOCUMENT_TYPES).nullable(),
  documents: z.array(z.enum(DOCUMENT_SIDES)),
  status: z.enum(APPLICATION_STATUSES),
  reason: z.string().nullable(),
  submittedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export type Verification = z.infer<typeof verificationSchema>;

const listQuery = <T extends readonly [string, ...string[]]>(statuses: T, def: T[number]) =>
  z.object({
    status: z.enum(statuses).default(def),
    q: z.string().trim().max(60).optional(),
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  });

export const verificationsQuerySchema = listQuery(
  ['pending', 'accepted', 'rejected', 'all'] as const,
  'pending',
);
export const verificationsResponseSchema = z.object({
  items: z.array(verificationSchema),
  statistics: pageStatisticsSchema,
});
export const verificationDecisionSchema = z
  .object({ decision: z.enum(['accept', 'reject']), reason: z.string().trim().max(500).optional() })
  .refine((v) => v.decision === 'accept' || !!v.reason, { path: ['reason'], message: 'required' });

export const complaintSchema = z.object({
  _id: z.string(),
  reporter: publicUserSchema.nullable(),
  targetType: z.enum(['post', 'story', 'profile', 'message', 'dmca', 'content-removal']),
  targetId: z.string(),
  reason: z.enum(REPORT_REASONS),
  details: z.string().nullable(),
  status: z.enum(COMPLAINT_STATUSES),
  response: z.string().nullable(),
  action: z.string().nullable(),
  date: z.string(),
});
export type Complaint = z.infer<typeof complaintSchema>;
export const complaintsQuerySchema = listQuery([...COMPLAINT_STATUSES, 'all'] as const, 'pending');
export const complaintsResponseSchema = z.object({
  items: z.array(complaintSchema),
  statistics: pageStatisticsSchema,
});
export const complaintActionSchema = z.object({
  /** The answer to the reporter; absent or empty means none. */
  response: z.string().trim().max(1000).optional(),
  action: z.enum(['none', 'remove_content', 'suspend_user']).default('none'),
});

export const adminUsersQuerySchema = z.object({
  role: z.enum(['all', 'fans', 'creators', 'admins']).default('all'),
  q: z.string().trim().max(60).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const adminUsersResponseSchema = z.object({
  items: z.array(adminUserSchema),
  statistics: pageStatisticsSchema,
});
export const adminUserActionSchema = z.object({ action: z.enum(['suspend', 'restore']) });
/** Super administrators grant or take away the staff roles. */
/** Roles a super administrator grants and takes away: staff roles, and developer (API tokens, ADR 0034). */
export const adminRoleRequestSchema = z.object({
  role: z.enum(['admin', 'coord', 'developer']),
  grant: z.boolean(),
});
