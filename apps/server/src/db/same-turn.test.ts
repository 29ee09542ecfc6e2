import { describe, expect, it } from 'vitest';
import { sameTurnReads } from './same-turn.ts';

/** A batched read that records each batch it was asked for. */
function recorded(max: number) {
  const batches: number[][] = [];
  const reads = sameTurnReads(async (keys: readonly number[]) => {
    batches.push([...keys]);
    return keys.map((k) => k * 10);
  }, max);
  return { batches, reads };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('sameTurnReads', () => {
  it('answers the loads of one turn with one call, sent when the turn ends', async () => {
    const { batches, reads } = recorded(16);
    const answers = Promise.all([1, 2, 3].map((k) => reads.load(k)));
    expect(batches).toEqual([]);
    await nextTurn();
    expect(await answers).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('sends a batch as soon as it is full, before the turn ends, and each batch once', async () => {
    const { batches, reads } = recorded(3);
    const answers = [1, 2, 3, 4, 5, 6, 7].map((k) => reads.load(k));
    // The two full batches went at once; the last one waits for the end of the turn.
    await Promise.resolve();
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50, 60, 70]);
    await nextTurn();
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('fails the loads of a batch whose read failed, and only those', async () => {
    let calls = 0;
    const reads = sameTurnReads(async (keys: readonly number[]) => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return keys.map((k) => k);
    }, 2);
    const first = [reads.load(1), reads.load(2)];
    const second = [reads.load(3)];
    await expect(Promise.all(first)).rejects.toThrow('connection lost');
    expect(await Promise.all(second)).toEqual([3]);
  });
});
