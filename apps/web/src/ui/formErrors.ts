import { FIELD_MESSAGES, isFieldMessageKey, type Language } from '@fanverse/contract';
import { ApiError } from '../app/api.ts';

export type FieldErrors = Record<string, string>;

/** The part of a zod schema the forms use, so the web app needs no zod import of its own. */
interface SafeParser<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/**
 * Validates form values with the contract schema the server uses (same rules, same texts).
 * Messages that are FIELD_MESSAGES keys are shown in the user's language.
 */
export function validateWith<T>(
  schema: SafeParser<T>,
  values: unknown,
  language: Language,
): { ok: true; data: T } | { ok: false; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '_');
    if (errors[field]) continue;
    errors[field] = isFieldMessageKey(issue.message)
      ? FIELD_MESSAGES[issue.message][language]
      : FIELD_MESSAGES.invalid[language];
  }
  return { ok: false, errors };
}

/** Field messages of an API error (already localized by the server). */
export function serverFieldErrors(error: unknown): FieldErrors {
  return error instanceof ApiError ? { ...error.fields } : {};
}
