import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher.ts';

/** A batcher whose batches wait for `release()`, recording each batch it ran. */
function gated(maxInFlight = 1, fail?: (items: number[]) => boolean) {
  const batches: number[][] = [];
  let open: () => void = () => {};
  let gate = new Promise<void>((r) => {
    open = r;
  });
  const batcher = new Batcher<number, number>({
    run: async (items) => {
      batches.push(items);
      await gate;
      if (fail?.(items)) throw new Error(`refused ${items.join(',')}`);
      return items.map((n) => n * 10);
    },
    maxBatch: 3,
    maxInFlight,
  });
  const release = () => {
    open();
    gate = new Promise<void>((r) => {
      open = r;
    });
  };
  return { batcher, batches, release };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('Batcher', () => {
  it('runs a call alone at once, and gathers the calls made meanwhile into batches of at most maxBatch', async () => {
    const { batcher, batches, release } = gated();
    const answers = [1, 2, 3, 4, 5].map((n) => batcher.add(n));
    await tick();
    expect(batches).toEqual([[1]]);
    release();
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    release();
    await tick();
    release();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('runs up to maxInFlight batches at once', async () => {
    const { batcher, batches, release } = gated(2);
    const answers = [1, 2, 3].map((n) => batcher.add(n));
    await tick();
    expect(batches).toEqual([[1], [2]]);
    release();
    await tick();
    release();
    expect(await Promise.all(answers)).toEqual([10, 20, 30]);
  });

  it('runs a failed batch again item by item: only the bad item fails', async () => {
    const { batcher, release } = gated(1, (items) => items.includes(3));
    const answers = [1, 2, 3, 4].map((n) => batcher.add(n).catch((err: Error) => err.message));
    for (let i = 0; i < 6; i++) {
      release();
      await tick();
    }
    expect(await Promise.all(answers)).toEqual([10, 20, 'refused 3', 40]);
  });
});
