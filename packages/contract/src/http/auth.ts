import { z } from 'zod';
import { LIMITS, ROLES } from '../constants.ts';
import { birthdateSchema, emailSchema, nameSchema, passwordSchema, usernameSchema } from '../validation.ts';

export const roleSchema = z.enum(ROLES);

/** The session user (spec §3). */
export const sessionUserSchema = z.object({
  _id: z.string(),
  id: z.string(),
  user: z.string(),
  name: z.string(),
  email: z.string(),
  country: z.string().nullable(),
  roles: z.array(roleSchema),
  verified: z.boolean(),
  avatar: z.string().nullable(),
  language: z.enum(['en', 'es']),
  subscriptions: z.array(z.object({ creator: z.string(), DynamicPricingID: z.string().nullable() })),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const authResponseSchema = z.object({ token: z.string(), user: sessionUserSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const signupRequestSchema = z.object({
  username: usernameSchema,
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  birthdate: birthdateSchema,
  acceptTerms: z.literal(true, { error: 'terms.required' }),
  /** Referral code of the person who invited this user, when any. */
  referral: z.string().trim().max(40).optional(),
});
export type SignupRequest = z.input<typeof signupRequestSchema>;

export const loginRequestSchema = z.object({
  login: z.string({ error: 'required' }).trim().min(1, 'required').max(LIMITS.emailMax, 'tooLong'),
  password: z.string({ error: 'required' }).min(1, 'required').max(LIMITS.passwordMax, 'password.length'),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const resetCodeRequestSchema = z.object({ email: emailSchema });
export type ResetCodeRequest = z.input<typeof resetCodeRequestSchema>;

/**
 * The reset step names the account (its email, as in the code request and the mail's link), so a
 * code is only ever compared with that one account's code.
 */
export const resetPasswordRequestSchema = z.object({
  email: emailSchema,
  code: z
    .string({ error: 'required' })
    .trim()
    .min(1, 'required')
    .regex(new RegExp(`^\\d{${LIMITS.resetCodeLength}}$`), 'code.invalid'),
  password: passwordSchema,
});
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

export const okResponseSchema = z.object({ success: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;
