import { z } from 'zod';
import { emailSchema, nameSchema } from '../validation.ts';

export const contactRequestSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  subject: z.string({ error: 'required' }).trim().min(1, 'required').max(150, 'tooLong'),
  message: z.string({ error: 'required' }).trim().min(1, 'required').max(4000, 'tooLong'),
  kind: z.enum(['contact', 'dmca', 'content-removal', 'billing']).default('contact'),
});
export type ContactRequest = z.input<typeof contactRequestSchema>;
export const contactResponseSchema = z.object({ success: z.literal(true), id: z.string() });

export const outboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export const outboxResponseSchema = z.object({ mails: z.array(outboxMailSchema) });
export type OutboxMail = z.infer<typeof outboxMailSchema>;
