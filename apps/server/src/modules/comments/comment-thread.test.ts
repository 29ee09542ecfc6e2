import { describe, expect, it } from 'vitest';
import { rethread, type ThreadComment } from './comment-thread.ts';

let clock = 0;
function c(id: string, parentId: string | null, root: string | null, deep: number): ThreadComment {
  clock += 1;
  return { id, parentId, rootId: root, deep, createdAt: new Date(1_700_000_000_000 + clock * 1000) };
}

describe('rethread', () => {
  it('moves replies of a removed reply to its nearest remaining ancestor, one level up', () => {
    const thread = [c('r', null, null, 0), c('a', 'r', 'r', 1), c('b', 'a', 'r', 2), c('d', 'b', 'r', 3)];
    expect(rethread(thread, new Set(['a']))).toEqual([
      { id: 'b', parentId: 'r', rootId: 'r', deep: 1 },
      { id: 'd', parentId: 'b', rootId: 'r', deep: 2 },
    ]);
  });

  it('makes the oldest remaining reply the top-level comment when the top-level one goes', () => {
    const thread = [c('r', null, null, 0), c('a', 'r', 'r', 1), c('b', 'r', 'r', 1), c('d', 'a', 'r', 2)];
    expect(rethread(thread, new Set(['r']))).toEqual([
      { id: 'a', parentId: null, rootId: null, deep: 0 },
      { id: 'b', parentId: 'a', rootId: 'a', deep: 1 },
      { id: 'd', parentId: 'a', rootId: 'a', deep: 1 },
    ]);
  });

  it('skips a chain of removed comments and changes nothing that stays in place', () => {
    const thread = [
      c('r', null, null, 0),
      c('x', 'r', 'r', 1),
      c('y', 'x', 'r', 2),
      c('z', 'y', 'r', 3),
      c('k', 'r', 'r', 1),
    ];
    expect(rethread(thread, new Set(['x', 'y']))).toEqual([{ id: 'z', parentId: 'r', rootId: 'r', deep: 1 }]);
    expect(rethread(thread, new Set(['k']))).toEqual([]);
  });

  it('answers nothing when the whole thread goes', () => {
    const thread = [c('r', null, null, 0), c('a', 'r', 'r', 1)];
    expect(rethread(thread, new Set(['r', 'a']))).toEqual([]);
  });
});
