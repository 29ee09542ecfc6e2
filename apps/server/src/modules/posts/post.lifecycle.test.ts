import { describe, expect, it } from 'vitest';
import {
  canTransition,
  POST_STATES,
  type PostActor,
  type PostState,
  stateOf,
  TRANSITIONS,
} from './post.lifecycle.ts';

const ACTORS: PostActor[] = ['creator', 'moderator', 'system'];

/** Every allowed move, written out: anything not in this table is refused. */
const ALLOWED: [PostState, PostState, PostActor][] = [
  ['draft', 'processing', 'creator'],
  ['draft', 'in_review', 'creator'],
  ['processing', 'in_review', 'system'],
  ['processing', 'failed', 'system'],
  ['failed', 'processing', 'creator'],
  ['failed', 'in_review', 'creator'],
  ['in_review', 'approved', 'moderator'],
  ['in_review', 'rejected', 'moderator'],
  ['approved', 'rejected', 'moderator'],
  ['rejected', 'approved', 'moderator'],
  ['approved', 'in_review', 'moderator'],
  ['rejected', 'in_review', 'moderator'],
  ['published', 'rejected', 'moderator'],
  ['published', 'in_review', 'moderator'],
  ['approved', 'published', 'system'],
  ['approved', 'published', 'creator'],
  ['in_review', 'in_review', 'creator'],
  ['in_review', 'processing', 'creator'],
  ['approved', 'in_review', 'creator'],
  ['approved', 'processing', 'creator'],
  ['rejected', 'in_review', 'creator'],
  ['rejected', 'processing', 'creator'],
  ['published', 'in_review', 'creator'],
  ['published', 'processing', 'creator'],
];

describe('post lifecycle', () => {
  it('the transition table holds exactly the allowed moves', () => {
    const listed = TRANSITIONS.map((t) => `${t.from}>${t.to}:${t.by}`).sort();
    expect(listed).toEqual(ALLOWED.map(([f, t, b]) => `${f}>${t}:${b}`).sort());
  });

  describe.each(POST_STATES.flatMap((from) => POST_STATES.map((to) => [from, to] as const)))(
    '%s → %s',
    (from, to) => {
      it.each(ACTORS)('by %s', (by) => {
        const allowed = ALLOWED.some(([f, t, b]) => f === from && t === to && b === by);
        expect(canTransition(from, to, by)).toBe(allowed);
      });
    },
  );

  it('failed media cannot be approved, and nobody but the system ends processing', () => {
    expect(canTransition('failed', 'approved', 'moderator')).toBe(false);
    expect(canTransition('processing', 'approved', 'moderator')).toBe(false);
    expect(canTransition('processing', 'in_review', 'creator')).toBe(false);
    expect(canTransition('processing', 'in_review', 'moderator')).toBe(false);
  });

  it('reads the state of a stored post at a time', () => {
    const now = new Date('2030-01-01T12:00:00Z');
    const later = new Date('2030-01-02T00:00:00Z');
    expect(stateOf({ adminStatus: 'approved', publishAt: later }, now)).toBe('approved');
    expect(stateOf({ adminStatus: 'approved', publishAt: later }, later)).toBe('published');
    expect(stateOf({ adminStatus: 'approved', publishAt: null }, now)).toBe('published');
    expect(stateOf({ adminStatus: 'new', publishAt: null }, now)).toBe('in_review');
    expect(stateOf({ adminStatus: 'pending', publishAt: null }, now)).toBe('in_review');
    expect(stateOf({ adminStatus: 'processing', publishAt: null }, now)).toBe('processing');
    expect(stateOf({ adminStatus: 'failed', publishAt: null }, now)).toBe('failed');
    expect(stateOf({ adminStatus: 'rejected', publishAt: null }, now)).toBe('rejected');
  });
});
