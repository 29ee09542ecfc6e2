// @vitest-environment jsdom
import type { Profile, Role } from '@fanverse/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { creatorProfileAnswer, profileAnswer, startupAnswer, ZERO_COUNTERS } from '../test/fixtures.ts';
import i18n from './i18n.ts';
import { createQueryClient } from './queryClient.ts';
import { routes } from './router.tsx';
import { useSession } from './session.store.ts';

// No realtime connection in these tests; the rest of socket.ts (listeners, rooms) stays real.
vi.mock('./socket.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./socket.ts')>()),
  connectSocket: () => undefined,
  disconnectSocket: () => undefined,
  getSocket: () => null,
  loadSocketClient: () => Promise.resolve({}),
}));

type Who = 'visitor' | 'fan' | 'creator' | 'super';
const ROLES: Record<Exclude<Who, 'visitor'>, Role[]> = {
  fan: ['user', 'fan'],
  creator: ['user', 'creator'],
  super: ['super', 'admin', 'user'],
};
const HANDLE: Record<Exclude<Who, 'visitor'>, string> = {
  fan: 'fanuser1',
  creator: 'creator1',
  super: 'superadmin',
};

function profileOf(who: Exclude<Who, 'visitor'>): Profile {
  return profileAnswer({
    id: `id-${who}`,
    username: HANDLE[who],
    name: who,
    email: `${who}@example.com`,
    roles: ROLES[who],
  });
}

const creatorProfile = creatorProfileAnswer({ id: 'id-creator2', handle: 'creator2', name: 'Mateo' });

let current: Who = 'visitor';
/** Every translation key a rendered page asked for that the catalogue lacks. */
const missingKeys = new Set<string>();
i18n.options.saveMissing = true;
i18n.on('missingKey', (_languages, namespace, key) => missingKeys.add(`${namespace}:${key}`));
function respond(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.startsWith('/api/v1/?view=home')) return respond(startupAnswer);
      if (url.startsWith('/api/v1/user/profile') && current !== 'visitor') return respond(profileOf(current));
      if (url === '/api/v1/creator/profile/creator2' && current !== 'visitor') return respond(creatorProfile);
      if (url.startsWith('/api/v1/report/connection')) {
        return respond({ counter: ZERO_COUNTERS, online: true, lastConnection: new Date(0).toISOString() });
      }
      return respond({ code: 'NOT_FOUND', message: 'Not found.' }, 404);
    }),
  );
  window.scrollTo = () => undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

/** Opens `path` as `who` and answers where the app lands (path + query). */
async function land(path: string, who: Who): Promise<string> {
  current = who;
  localStorage.setItem('ageAccepted', 'confirm');
  if (who === 'visitor') useSession.getState().logout();
  else {
    const p = profileOf(who);
    useSession.getState().login(`token-${who}`, {
      _id: p._id,
      id: p._id,
      user: p.username,
      name: p.name,
      email: p.email,
      country: null,
      roles: p.roles,
      verified: true,
      avatar: null,
      language: 'en',
      subscriptions: [],
    });
  }
  useSession.setState({ status: 'loading', app: null, api: false });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
  // Start-up call, lazy chunks and redirects settle within a few ticks: wait until no loader
  // shows and the location has not changed for three ticks.
  let last = '';
  let stable = 0;
  for (let i = 0; i < 200 && stable < 3; i++) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 5)));
    const where = `${router.state.location.pathname}${router.state.location.search}`;
    const loading = document.querySelector('[data-testid=loader],[data-testid=app-loader]');
    stable = where === last && !loading ? stable + 1 : 0;
    last = where;
  }
  return last;
}

// path, visitor, fan, creator, super ('=' means it stays on the path)
const TABLE: [string, string, string, string, string][] = [
  ['/', '=', '=', '=', '='],
  ['/home', '=', '=', '=', '='],
  ['/admin', '=', '=', '=', '='],
  ['/notifications', '=', '=', '=', '='],
  ['/members', '=', '=', '=', '='],
  ['/about', '=', '=', '=', '='],
  ['/gallery', '/login', '/?feed=gallery', '/?feed=gallery', '/?feed=gallery'],
  ['/blog', '=', '=', '=', '='],
  ['/contact', '=', '=', '=', '='],
  ['/help', '=', '=', '=', '='],
  ['/signup', '=', '/', '/', '/'],
  ['/login', '=', '/', '/', '/'],
  ['/terms', '=', '=', '=', '='],
  ['/privacy', '=', '=', '=', '='],
  ['/usc2257', '=', '=', '=', '='],
  ['/dmca', '=', '=', '=', '='],
  ['/support/billing', '=', '=', '=', '='],
  ['/content-removal', '=', '=', '=', '='],
  ['/support', '=', '=', '=', '='],
  ['/support/faq', '=', '=', '=', '='],
  ['/watch', '=', '=', '=', '='],
  ['/favorites', '=', '=', '=', '='],
  ['/error/test', '=', '=', '=', '='],
  ['/error/api', '=', '=', '=', '='],
  ['/post/abc', '=', '=', '=', '='],
  ['/auth/code', '=', '/', '/', '/'],
  ['/auth/pass', '/auth/code', '/', '/', '/'],
  ['/auth/pass?code=123456', '=', '/', '/', '/'],
  ['/user', '/login', '/?feed=my-profile', '/?feed=my-profile', '/?feed=my-profile'],
  ['/user/credits', '/login', '/?feed=my-credits', '/?feed=my-credits', '/?feed=my-credits'],
  [
    '/user/subscriptions',
    '/login',
    '/?feed=my-subscriptions',
    '/?feed=my-subscriptions',
    '/?feed=my-subscriptions',
  ],
  [
    '/user/gifts',
    '/login',
    '/?feed=creator-statistics',
    '/?feed=creator-statistics',
    '/?feed=creator-statistics',
  ],
  ['/user/creator', '/login', '=', '=', '='],
  ['/user/verify', '/login', '=', '=', '='],
  ['/alice', '/login', '=', '=', '='],
  ['/alice?post=p1', '/login', '=', '=', '='],
  ['/@alice', '/login', '/alice', '/alice', '/alice'],
  ['/zzqq', '/login', '=', '=', '='],
  ['/alice/post/create', '/login', '/', '=', '/'],
  ['/post/create', '/', '/', '=', '/'],
  ['/post/edit/p1', '/', '/', '=', '/'],
  ['/dashboard', '/', '/', '/', '='],
  ['/dashboard/admin/products', '/', '/', '/', '='],
  ['/?feed=my-credits', '/login', '=', '=', '='],
  ['/?feed=gallery', '/login', '=', '=', '='],
  ['/?admin=sales', '/login', '/', '/', '='],
  ['/a/b/c', '=', '=', '=', '='],
];
const WHO: Who[] = ['visitor', 'fan', 'creator', 'super'];

describe('routes of spec §2', () => {
  const cases = TABLE.flatMap(([path, ...expected]) =>
    WHO.map((who, i) => [path, who, expected[i] === '=' ? path : (expected[i] as string)] as const),
  );
  it.each(cases)('%s as %s lands on %s', async (path, who, expected) => {
    expect(await land(path, who)).toBe(expected);
  });

  it('shows the 404 page for a path of more than one unknown segment', async () => {
    await land('/a/b/c', 'fan');
    expect(document.querySelector('[data-testid=not-found-page]')).not.toBeNull();
  });

  it('asks the catalogues for no missing key on any of these pages', () => {
    expect([...missingKeys]).toEqual([]);
  });

  it('shows a known creator and the 404 page for an unknown handle', async () => {
    expect(await land('/creator2', 'fan')).toBe('/creator2');
    expect(document.querySelector('[data-testid=creator-page]')?.getAttribute('data-creator')).toBe(
      'creator2',
    );
    cleanup();
    expect(await land('/nobodyhere', 'fan')).toBe('/nobodyhere');
    expect(document.querySelector('[data-testid=not-found-page]')).not.toBeNull();
  });

  it('goes to /error/api when the start-up call fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('network down'))),
    );
    expect(await land('/about', 'visitor')).toBe('/error/api');
  });
});
