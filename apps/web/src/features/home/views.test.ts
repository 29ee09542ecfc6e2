import { describe, expect, it } from 'vitest';
import { FEEDS, needsLogin, selectHomeView } from './views.ts';

const select = (query: string) => selectHomeView(new URLSearchParams(query));

describe('selectHomeView', () => {
  it('maps every feed value of spec §2 to its feed view', () => {
    for (const feed of FEEDS)
      expect(select(`feed=${feed}`)).toEqual({ kind: 'feed', feed, content: undefined });
  });

  it('maps view and content, defaulting content to all', () => {
    expect(select('view=content&content=saved')).toEqual({ kind: 'view', view: 'content', content: 'saved' });
    expect(select('view=wiki')).toEqual({ kind: 'view', view: 'wiki', content: 'all' });
  });

  it('reads explore, adminStatus, admin and feed_mode', () => {
    expect(select('explore=1')).toEqual({ kind: 'explore' });
    expect(select('adminStatus=pending')).toEqual({ kind: 'adminStatus', status: 'pending' });
    expect(select('admin=sales')).toEqual({ kind: 'admin', area: 'sales' });
    expect(select('feed_mode=grid')).toEqual({ kind: 'feedMode', mode: 'grid' });
  });

  it('falls back to the home feed for an empty or unknown query', () => {
    expect(select('')).toEqual({ kind: 'home' });
    expect(select('feed=nope')).toEqual({ kind: 'home' });
  });

  it('asks for login on own feeds and on the gallery', () => {
    expect(needsLogin(select('feed=my-credits'))).toBe(true);
    expect(needsLogin(select('feed=gallery'))).toBe(true);
  });
});
