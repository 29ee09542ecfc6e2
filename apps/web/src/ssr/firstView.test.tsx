import type { Language } from '@fanverse/contract';
import { sessionUserOf } from '@fanverse/contract';
import type { RouteObject } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../app/router.tsx';
import en from '../locales/en/content.json';
import { author, creatorProfileAnswer, feed, post, profileAnswer, startupAnswer } from '../test/fixtures.ts';
import {
  appPaths,
  type FirstViewInput,
  firstSegmentsOf,
  prepareFirstView,
  renderFirstView,
} from './firstView.tsx';

const lockedMedia = {
  _id: 'media-1',
  type: 'image' as const,
  status: 'ready' as const,
  src: null,
  thumb: null,
  poster: null,
  mediaPoster: null,
  location: null,
  blur: '/api/v1/media/media-1/blur?sig=b',
  width: 800,
  height: 600,
  info: null,
  locked: true,
  preview: 0,
  captions: [],
};

const fanProfile = profileAnswer({
  id: 'id-fan',
  username: 'fanuser1',
  name: 'Fan One',
  email: 'fan@example.com',
  roles: ['user', 'fan'],
});

const creatorProfile = creatorProfileAnswer(
  { id: author._id, handle: author.user, name: author.name },
  { about: 'Sunsets and yoga', counts: { posts: 2, media: 1, likes: 3, subscribers: 4 } },
);

function input(url: string, language: Language, fields: Partial<FirstViewInput>): FirstViewInput {
  return {
    url,
    language,
    user: null,
    profile: null,
    app: startupAnswer,
    queries: [],
    screen: 'mobile',
    ageAccepted: true,
    now: Date.now(),
    ...fields,
  };
}
const signedIn = { profile: fanProfile, user: sessionUserOf(fanProfile) };

/** Top-level keys of the catalogues: a rendered "creator.subscribe" would be an untranslated key. */
const KEY_LIKE = new RegExp(`[>"](${Object.keys(en).join('|')}|header|landing|age|feed)\\.[a-zA-Z.]+[<"]`);

beforeAll(async () => {
  await prepareFirstView();
});

describe('the first view (ADR 0048)', () => {
  it('renders the home page for a visitor in each language, four cards at most, with the age notice', () => {
    const posts = Array.from({ length: 6 }, (_, i) => post(`p${i}`));
    const queries = [{ key: ['posts.list', {}], data: feed(posts), infinite: true }];
    const en = renderFirstView(input('/', 'en', { queries, ageAccepted: false }));
    const es = renderFirstView(input('/', 'es', { queries, ageAccepted: false }));
    expect(en).toContain('Skip to content');
    expect(en).toContain('Adults only (18+)');
    expect(es).toContain('Saltar al contenido');
    expect(es).toContain('Solo para adultos (18+)');
    expect(es).not.toContain('Log in');
    expect(en.match(/data-fv-testid="post-card"/g)?.length).toBe(4);
    for (const html of [en, es]) {
      expect(html).not.toMatch(KEY_LIKE);
      // The notice is marked for the server to move out of #root (http/first-view.ts), once.
      expect(html.match(/<fv-outside>/g)?.length).toBe(1);
      expect(html).toMatch(
        /<fv-outside><div class="modal-backdrop[^>]*>[\s\S]*data-fv-testid="age-advice"[\s\S]*<\/fv-outside>/,
      );
    }
    const accepted = renderFirstView(input('/', 'en', { queries }));
    expect(accepted).not.toContain('data-fv-testid="age-advice"');
    expect(accepted).not.toContain('fv-outside');
  });

  it("renders a fan's feed, a creator page and a post in each language", () => {
    for (const language of ['en', 'es'] as const) {
      const homeFeed = renderFirstView(
        input('/', language, {
          ...signedIn,
          queries: [{ key: ['posts.list', {}], data: feed([post('a')]), infinite: true }],
        }),
      );
      expect(homeFeed).toContain(language === 'en' ? 'Your feed' : 'Tu feed');
      expect(homeFeed).toContain('Message of a');
      const creator = renderFirstView(
        input('/lunacreator', language, {
          ...signedIn,
          queries: [
            { key: ['creator.profile', 'lunacreator'], data: creatorProfile },
            { key: ['posts.list', { creator: 'lunacreator' }], data: feed([post('b')]), infinite: true },
            { key: ['stories.list', 'lunacreator'], data: { stories: [], creator: null, statistics: {} } },
          ],
        }),
      );
      expect(creator).toContain('data-fv-testid="creator-header"');
      expect(creator).toContain('Sunsets and yoga');
      expect(creator).toContain(language === 'en' ? 'Subscribe' : 'Suscribirse');
      expect(creator).toContain('Message of b');
      const single = renderFirstView(
        input('/post/00000000-0000-4000-8000-000000000001', language, {
          ...signedIn,
          queries: [
            {
              key: ['posts.list', { post: '00000000-0000-4000-8000-000000000001' }],
              data: feed([post('00000000-0000-4000-8000-000000000001')]),
              infinite: true,
            },
          ],
        }),
      );
      expect(single).toContain('data-fv-testid="post-page"');
      expect(single).toContain(language === 'en' ? 'Share' : 'Compartir');
      for (const html of [homeFeed, creator, single]) expect(html).not.toMatch(KEY_LIKE);
    }
  });

  it("shows a locked post's blurred preview and price, never its media", () => {
    const locked = post('locked', {
      visibility: 'ppv',
      price: 40,
      finalPrice: 40,
      access: false,
      media: [lockedMedia],
    });
    const html = renderFirstView(
      input('/', 'es', {
        ...signedIn,
        queries: [{ key: ['posts.list', {}], data: feed([locked]), infinite: true }],
      }),
    );
    expect(html).toContain('Desbloquear por 40 créditos');
    expect(html).not.toContain('/api/v1/media/media-1/web');
    expect(html).not.toMatch(/<video/);
  });
});

describe("the app's own first path segments (the server never takes them for a creator)", () => {
  /** Every route path at the top level of the URL: pathless routes are looked through. */
  const topLevel = (list: RouteObject[]): string[] =>
    list.flatMap((route) => (route.path === undefined ? topLevel(route.children ?? []) : [route.path]));

  it('holds the first segment of every top-level route of the router, and no parameter', () => {
    const paths = topLevel(routes);
    expect(paths).toContain(':creator');
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      const first = path.split('/')[0] ?? '';
      if (first.startsWith(':') || first === '*') expect(appPaths).not.toContain(first);
      else expect(appPaths).toContain(first.toLowerCase());
    }
    for (const nested of ['billing', 'offer', 'error', 'auth', 'dashboard', 'support']) {
      expect(appPaths).toContain(nested);
    }
    expect(appPaths).not.toContain('faq'); // /support/faq: not a first segment
  });

  it('takes a route added anywhere under pathless routes', () => {
    const tree: RouteObject[] = [
      { children: [{ children: [{ index: true }, { path: 'New-Page/:id' }, { path: ':creator' }] }] },
      { path: '/top', children: [{ path: 'below' }] },
      { path: '*' },
    ];
    expect(firstSegmentsOf(tree)).toEqual(['new-page', 'top']);
  });
});
