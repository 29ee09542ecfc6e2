import type { Comment } from '@fanverse/contract';
import { describe, expect, it } from 'vitest';
import { insertComment } from './commentTree.ts';

const user = {
  _id: 'u',
  user: 'fan',
  name: 'Fan',
  avatar: null,
  online: false,
  lastConnection: null,
  verified: false,
};
const c = (id: string, parent: string | null = null, deep = 0): Comment => ({
  _id: id,
  post: { _id: 'p' },
  user,
  message: id,
  deep,
  parent,
  date: '2026-01-01T00:00:00Z',
  replies: [],
});

describe('insertComment', () => {
  it('puts top-level comments first and replies under their parent, once', () => {
    let tree = insertComment([c('a')], c('b'));
    expect(tree.map((x) => x._id)).toEqual(['b', 'a']);
    tree = insertComment(tree, c('r', 'a', 1));
    tree = insertComment(tree, c('r', 'a', 1));
    expect(tree[1]?.replies.map((x) => x._id)).toEqual(['r']);
    tree = insertComment(tree, c('rr', 'r', 2));
    expect(tree[1]?.replies[0]?.replies.map((x) => x._id)).toEqual(['rr']);
  });
});
