import { describe, expect, it } from 'vitest';
import { type Measured, medianRow } from './rounds.ts';

const row = (rps: number, over: Partial<Measured> = {}): Measured => ({
  target: 'start-up call',
  rps,
  p50: 1,
  p99: 5,
  serverCpuMs: 0.02,
  dbCpuMs: 0.001,
  bytes: 3245,
  failed: 0,
  ...over,
});

describe('a row out of rounds', () => {
  it('is each figure’s median, with every round’s req/s kept and failures summed', () => {
    const median = medianRow([
      row(9_000, { p99: 9, serverCpuMs: 0.03, failed: 1 }),
      row(12_000, { p99: 4, serverCpuMs: 0.02 }),
      row(11_000, { p99: 6, serverCpuMs: 0.025, failed: 2 }),
    ]);
    expect(median).toEqual({
      target: 'start-up call',
      rps: 11_000,
      p50: 1,
      p99: 6,
      serverCpuMs: 0.025,
      dbCpuMs: 0.001,
      bytes: 3245,
      failed: 3,
      rounds: [9_000, 12_000, 11_000],
    });
  });

  it('averages the middle two of an even number of rounds and keeps PGlite’s missing DB figure', () => {
    const median = medianRow([
      row(4, { dbCpuMs: null }),
      row(1, { dbCpuMs: null }),
      row(3, { dbCpuMs: null }),
      row(2, { dbCpuMs: null }),
    ]);
    expect(median.rps).toBe(2.5);
    expect(median.dbCpuMs).toBeNull();
  });

  it('is the round itself when there is one', () => {
    const only = row(7_000);
    expect(medianRow([only])).toBe(only);
  });
});
