import type { ErrorCode } from '@fanverse/contract';

/** An expected failure with a catalogue code; the error handler turns it into `{code, message, fields}`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    /** Field name → FIELD_MESSAGES key (or catalogue text) of each failing field. */
    readonly fields?: Record<string, string>,
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'AppError';
  }
}
