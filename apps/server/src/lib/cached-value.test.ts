import { afterEach, describe, expect, it, vi } from 'vitest';
import { CachedValue } from './cached-value.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('CachedValue', () => {
  it('loads once per period for every caller, and peek() gives the loaded value without waiting', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let loads = 0;
    const cached = new CachedValue(1000, async () => ++loads);
    expect(cached.peek()).toBeUndefined(); // nothing loaded yet
    const [a, b] = await Promise.all([cached.get(), cached.get()]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    expect(cached.peek()).toEqual({ value: 1 });
    vi.advanceTimersByTime(1001);
    expect(cached.peek()).toBeUndefined(); // stale: the caller loads through get()
    const next = cached.get();
    expect(cached.peek()).toBeUndefined(); // loading, not settled
    expect(await next).toBe(2);
    expect(cached.peek()).toEqual({ value: 2 });
    cached.clear();
    expect(cached.peek()).toBeUndefined();
  });

  it('forgets a failed load, so peek() has nothing and the next get() tries again', async () => {
    let fail = true;
    const cached = new CachedValue(60_000, async () => {
      if (fail) throw new Error('database away');
      return 'ok';
    });
    await expect(cached.get()).rejects.toThrow('database away');
    expect(cached.peek()).toBeUndefined();
    fail = false;
    expect(await cached.get()).toBe('ok');
    expect(cached.peek()).toEqual({ value: 'ok' });
  });
});
