/** The PostgreSQL error behind a driver or ORM error, when there is one. */
export function pgErrorOf(err: unknown): { code?: string; constraint?: string } | undefined {
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const candidate = e as { code?: unknown; constraint?: string; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return { code: candidate.code, constraint: candidate.constraint };
    }
    e = candidate.cause;
  }
  return undefined;
}

export function isUniqueViolation(err: unknown): { constraint?: string } | undefined {
  const pgErr = pgErrorOf(err);
  return pgErr?.code === '23505' ? { constraint: pgErr.constraint } : undefined;
}
