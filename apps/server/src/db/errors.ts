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

/** SQLSTATEs of a lost or refused connection: class 08, admin/crash shutdown, "starting up / shutting down". */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3])$/;
/** Socket errors of a database that is not (yet) listening or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** node-postgres reports a dropped or timed-out connection by message only. */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end/;

/**
 * Whether the error means the database is away (restarting, unreachable), not that the query is
 * wrong: the request may succeed when retried a few seconds later. Follows `cause` chains (ORM
 * wrappers) and AggregateErrors (one per address tried). A failed `fetch` (object storage) is not
 * the database, whatever its socket error.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (err instanceof TypeError && e.message === 'fetch failed') return false;
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATE.test(e.code) || NETWORK_CODES.has(e.code)))
    return true;
  if (typeof e.message === 'string' && DRIVER_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
    return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
