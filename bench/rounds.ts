/**
 * One benchmark row out of several rounds (bench/run.ts): each round measures a target on a freshly
 * started server; the row reports the median of each figure and keeps every round's req/s.
 */

export interface Measured {
  target: string;
  rps: number;
  p50: number;
  p99: number;
  /** Server process CPU per request, ms. */
  serverCpuMs: number;
  /** PostgreSQL CPU per request, ms (all postgres processes of the machine; null on PGlite). */
  dbCpuMs: number | null;
  bytes: number;
  /** Non-2xx answers, errors and timeouts (30 s). */
  failed: number;
  /** Requests per second of each round (the row is their median); absent in one-round runs. */
  rounds?: number[];
}

/** The median of each figure over a target's rounds (failures are summed); the rounds' req/s kept. */
export function medianRow(rounds: Measured[]): Measured {
  const first = rounds[0];
  if (!first) throw new Error('no rounds');
  if (rounds.length === 1) return first;
  const median = (pick: (m: Measured) => number) => {
    const sorted = rounds.map(pick).sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  };
  return {
    target: first.target,
    rps: median((m) => m.rps),
    p50: median((m) => m.p50),
    p99: median((m) => m.p99),
    serverCpuMs: median((m) => m.serverCpuMs),
    dbCpuMs: first.dbCpuMs === null ? null : median((m) => m.dbCpuMs ?? 0),
    bytes: median((m) => m.bytes),
    failed: rounds.reduce((n, m) => n + m.failed, 0),
    rounds: rounds.map((m) => m.rps),
  };
}
