import { z } from 'zod';
import { LIMITS } from './constants.ts';
import {
  ageOn,
  EMAIL_PATTERN,
  isRealIsoDate,
  PHONE_PATTERN,
  todayIso,
  USERNAME_PATTERN,
} from './field-rules.ts';

// The zod-free rules (messages, patterns, dates) are in field-rules.ts, so that code using only
// them (the web app's first load) comes without zod.
export * from './field-rules.ts';

const trimmed = () => z.string({ error: 'required' }).trim();

export const usernameSchema = trimmed()
  .min(1, 'required')
  .min(LIMITS.usernameMin, 'username.length')
  .max(LIMITS.usernameMax, 'username.length')
  .regex(USERNAME_PATTERN, 'username.chars');

export const emailSchema = trimmed()
  .min(1, 'required')
  .max(LIMITS.emailMax, 'tooLong')
  .regex(EMAIL_PATTERN, 'email.invalid')
  .transform((v) => v.toLowerCase());

export const passwordSchema = z
  .string({ error: 'required' })
  .min(1, 'required')
  .min(LIMITS.passwordMin, 'password.length')
  .max(LIMITS.passwordMax, 'password.length');

export const nameSchema = trimmed().min(1, 'required').max(LIMITS.nameMax, 'tooLong');

export const birthdateSchema = trimmed()
  .min(1, 'required')
  .refine(isRealIsoDate, 'birthdate.invalid')
  .refine((v) => !isRealIsoDate(v) || v <= todayIso(), 'birthdate.invalid')
  .refine((v) => !isRealIsoDate(v) || ageOn(v, todayIso()) >= LIMITS.minimumAge, 'birthdate.minimumAge');

export const phoneSchema = trimmed()
  .min(1, 'required')
  .max(32, 'tooLong')
  .regex(PHONE_PATTERN, 'phone.invalid');
