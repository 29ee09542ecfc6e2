import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, loadPage, MissingModuleError, withTimeout } from './lazy.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('lazy pages', () => {
  it('rejects an unknown page with a missing-module error', async () => {
    await expect(loadPage('nowhere/NopePage')).rejects.toBeInstanceOf(MissingModuleError);
  });

  it('fails a chunk that has not arrived after the timeout, not before', async () => {
    vi.useFakeTimers();
    const never = new Promise<never>(() => undefined);
    let settled: unknown = null;
    const result = withTimeout(never, 120_000, 'SomePage').catch((error: unknown) => {
      settled = error;
    });
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await result;
    expect(settled).toBeInstanceOf(ChunkLoadError);
  });

  it('passes a chunk that arrives in time through', async () => {
    await expect(withTimeout(Promise.resolve(42), 1000, 'x')).resolves.toBe(42);
  });
});
