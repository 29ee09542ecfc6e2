import { describe, expect, it } from 'vitest';
import { actionsFor, targetPath } from './ComplaintsView.tsx';

describe('complaint targets', () => {
  it('links posts and stories to /post/{id} and profiles to the handle', () => {
    expect(targetPath({ targetType: 'post', targetId: 'p1' })).toBe('/post/p1');
    expect(targetPath({ targetType: 'story', targetId: 's1' })).toBe('/post/s1');
    expect(targetPath({ targetType: 'profile', targetId: 'creator1' })).toBe('/creator1');
    expect(targetPath({ targetType: 'dmca', targetId: 'x' })).toBeNull();
  });

  it('offers only the actions the server can take on the target', () => {
    expect(actionsFor('post')).toEqual(['none', 'remove_content', 'suspend_user']);
    expect(actionsFor('profile')).toEqual(['none', 'suspend_user']);
    expect(actionsFor('message')).toEqual(['none']);
    expect(actionsFor('content-removal')).toEqual(['none']);
  });
});
