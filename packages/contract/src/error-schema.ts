import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './errors.ts';

// Apart from errors.ts so that the error catalogue (errorMessage) comes without zod: the web app's
// first load uses the catalogue and no schema.
/** The body of every error answer. `fields` maps a field name to its message. */
export const apiErrorSchema = z.object({
  code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
