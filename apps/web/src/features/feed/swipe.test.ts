import { describe, expect, it } from 'vitest';
import { swipeDirection } from './swipe.ts';

describe('swipeDirection (spec §9)', () => {
  it('needs over 50 px and over 0.45 px/ms', () => {
    expect(swipeDirection(-60, 100)).toBe('left');
    expect(swipeDirection(80, 100)).toBe('right');
    expect(swipeDirection(50, 10)).toBeNull();
    expect(swipeDirection(60, 200)).toBeNull();
  });
});
