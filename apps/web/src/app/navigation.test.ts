// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { myFeedPath, openOverlays, storeLoginTarget, takeLoginTarget } from './navigation.ts';

afterEach(() => sessionStorage.clear());

describe('navigation helpers', () => {
  it('finds the query overlays of spec §2, profile only for review', () => {
    expect(openOverlays('?feed=gallery&comments=p1&story_view=alice')).toEqual(['comments', 'story_view']);
    expect(openOverlays('?profile=review')).toEqual(['profile']);
    expect(openOverlays('?profile=other')).toEqual([]);
  });

  it('sends a creator to their page and others to their profile ("my feed")', () => {
    expect(myFeedPath({ user: 'alice', roles: ['user', 'creator'] })).toBe('/alice');
    expect(myFeedPath({ user: 'bob', roles: ['user', 'fan'] })).toBe('/?feed=my-profile');
  });

  it('remembers one login target, never an auth page', () => {
    storeLoginTarget('/login');
    expect(takeLoginTarget()).toBeNull();
    storeLoginTarget('/alice?post=p1');
    expect(takeLoginTarget()).toBe('/alice?post=p1');
    expect(takeLoginTarget()).toBeNull();
  });
});
