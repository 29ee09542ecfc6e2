import path from 'node:path';
import {
  type EndpointName,
  endpoints,
  type FirstViewData,
  type Post,
  type PostsResponse,
} from '@fanverse/contract';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CERTIFIED_FORM, createPost, createUser, subscribe } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { jpeg, postForm } from '../../test/media-fixtures.ts';
import {
  ageCookie,
  createFirstView,
  type FirstViewRenderer,
  firstViewPages,
  fromOwnPages,
  injectFirstView,
  pageLinks,
  readCookies,
  screenOf,
  scriptJson,
  sessionCookie,
} from './first-view.ts';

/** The shape of the built index.html that matters here (apps/web/index.html). */
const INDEX = `<!doctype html>
<html lang="en">
  <head><title>Fanverse</title></head>
  <body>
    <div id="root">
      <header class="app-header"><span class="app-header__logo">Fanverse</span></header>
      <main class="app-main"><div class="loader loader--page"></div></main>
    </div>
    <noscript>Fanverse needs JavaScript to run.</noscript>
    <script type="module" crossorigin src="/assets/index.js"></script>
  </body>
</html>`;

// The web app's own renderer, from its source (the build makes apps/web/dist-ssr/firstView.js of it).
const RENDERER = path.resolve(import.meta.dirname, '../../../web/src/ssr/firstView.tsx');

let t: TestApp;
let base: string;
let renderer: FirstViewRenderer;
let view: ReturnType<typeof createFirstView>;
let creator: Awaited<ReturnType<typeof createUser>>;
let fan: Awaited<ReturnType<typeof createUser>>;
let free: string;
let paid: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  renderer = (await import(/* @vite-ignore */ RENDERER)) as FirstViewRenderer;
  await renderer.prepareFirstView();
  view = createFirstView({ services: t.services, renderer, manifest: null });
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  fan = await createUser(t);
  free = await createPost(t, creator, { message: 'Free sunrise for everyone' });
  paid = await createPost(t, creator, { message: 'Pay to see the sunset', visibility: 'ppv', price: 10 });
});
afterAll(async () => {
  await t?.stop();
});

function request(url: string, cookies: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const cookie = Object.entries(cookies)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('; ');
  return { url, headers: { ...(cookie ? { cookie } : {}), ...headers } } as unknown as FastifyRequest;
}

/** The first view's data in a page. */
function dataOf(html = ''): FirstViewData {
  const json = /<script type="application\/json" id="fv-first-view">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return JSON.parse(json ?? 'null') as FirstViewData;
}

async function render(url: string, cookies: Record<string, string> = {}) {
  const page = await view.render(request(url, cookies), INDEX);
  if (!page) return null;
  // #root, inert, then what stands outside it (an open modal: the age notice), then the data.
  const parts =
    /<div id="root" data-first-view="" inert aria-hidden="true">([\s\S]*?)<\/div>(?:<div id="fv-outside">([\s\S]*)<\/div>)?<script type="application\/json"/.exec(
      page.html,
    );
  if (!parts) throw new Error(`no inert #root in the first view of ${url}`);
  return { ...page, root: parts[1] ?? '', outside: parts[2] ?? '', data: dataOf(page.html) };
}

function feedOf(data: FirstViewData, index = 0): PostsResponse {
  return data.queries.filter((q) => q.infinite)[index]?.data as PostsResponse;
}

describe('the first view of a page (ADR 0048)', () => {
  it('renders the home page for a visitor in English and in Spanish, with free published posts only', async () => {
    const en = await render('/');
    const es = await render('/', { fv_lang: 'es' });
    if (!en || !es) throw new Error('no first view');
    expect(en.html).toContain('<html lang="en"');
    expect(es.html).toContain('<html lang="es"');
    expect(en.root).toContain('Skip to content');
    expect(en.root).toContain('Log in');
    expect(es.root).toContain('Saltar al contenido');
    expect(es.root).toContain('Iniciar sesión');
    expect(es.root).not.toContain('Log in');
    for (const page of [en, es]) {
      expect(page.personal).toBe(false);
      expect(page.data.viewer).toBeNull();
      expect(page.root).toContain('Free sunrise for everyone');
      // A visitor's feed holds free posts only: the paid one is in neither the markup nor the data.
      expect(page.html).not.toContain('Pay to see the sunset');
      // No age notice accepted: it is rendered over the page, outside the inert #root (so that the
      // keyboard reaches it alone), in the page's language.
      expect(page.outside).toContain('data-fv-testid="age-advice"');
      expect(page.outside).toContain('role="alertdialog"');
      expect(page.root).not.toContain('age-advice');
    }
    expect(en.outside).toContain('Adults only (18+)');
    expect(es.outside).toContain('Solo para adultos (18+)');
    const accepted = await render('/', { fv_age: '1' });
    expect(accepted?.html).not.toContain('data-fv-testid="age-advice"');
    expect(accepted?.html).not.toContain('fv-outside');
  });

  it("a visitor's home holds the day's stories above the feed, as the app shows them (nothing moves at the takeover)", async () => {
    const before = await render('/');
    expect(before?.root).not.toContain('data-fv-testid="visitor-stories"');
    const story = await postForm(
      base,
      '/api/v1/posts',
      creator.token,
      { message: 'Morning story', kind: 'story', visibility: 'free', ...CERTIFIED_FORM },
      [{ name: 'story.jpg', data: await jpeg(320, 240, '#2a6fdb') }],
    );
    expect(story.status, JSON.stringify(story.body)).toBe(200);
    await t.jobs.drain();
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    const id = (story.body.post as Post)._id;
    expect(
      (await t.call('admin.postReview', { id, adminStatus: 'approved' }, { token: admin.token })).status,
    ).toBe(200);

    // A second later: a visitor's page is kept for a second.
    await new Promise((r) => setTimeout(r, 1_100));
    for (const cookies of [{}, { fv_lang: 'es' }] as Record<string, string>[]) {
      const page = await render('/', cookies);
      const api = await t.call('stories.list', {});
      expect(page?.root).toContain('data-fv-testid="visitor-stories"');
      expect(page?.data.queries.find((q) => q.key[0] === 'stories.list')).toEqual({
        key: ['stories.list', ''],
        data: api.body,
      });
    }
    // A signed-in fan's home has no visitor stories row, nor its query.
    const fans = await render('/', { fv_session: fan.token });
    expect(fans?.data.queries.map((q) => q.key[0])).toEqual(['posts.list']);
  });

  it('seeds the client with what the API answers the same viewer', async () => {
    const page = await render('/', { fv_session: fan.token });
    const api = await t.call('posts.list', {}, { token: fan.token });
    expect(page?.personal).toBe(true);
    expect(page?.data.viewer).toBe(fan.id);
    expect(page?.data.queries[0]?.key).toEqual(['posts.list', {}]);
    expect(feedOf(page?.data as FirstViewData).posts.map((p) => p._id)).toEqual(
      api.body.posts.map((p) => p._id),
    );
    expect(page?.data.profile?.username).toBe(fan.username);
    expect(page?.root).toContain('data-fv-testid="user-menu-button"');
    expect(page?.html).not.toContain('data-fv-testid="age-advice"');
  });

  it("renders a creator's page for a signed-in fan in both languages; a visitor gets none (login first)", async () => {
    const en = await render(`/${creator.username}`, { fv_session: fan.token });
    const es = await render(`/${creator.username}`, { fv_session: fan.token, fv_lang: 'es' });
    expect(en?.root).toContain('data-fv-testid="creator-header"');
    expect(en?.root).toContain('Posts');
    expect(es?.root).toContain('Publicaciones');
    expect(es?.root).toContain('Mensaje');
    expect(en?.data.queries.map((q) => q.key[0])).toEqual(['creator.profile', 'posts.list', 'stories.list']);
    expect(await render(`/${creator.username}`)).toBeNull();
    expect(await render('/nobody-here-at-all', { fv_session: fan.token })).toBeNull();
  });

  it('renders a post in both languages; a post the viewer may not see has no first view', async () => {
    const en = await render(`/post/${free}`);
    const es = await render(`/post/${free}`, { fv_lang: 'es' });
    expect(en?.root).toContain('Free sunrise for everyone');
    expect(en?.root).toContain('data-fv-testid="post-page"');
    expect(es?.root).toContain('Free sunrise for everyone');
    expect(es?.root).toContain('Compartir');
    expect(en?.root).toContain('Share');
    // A paid post by its link: what the API shows a visitor (locked, as the API answers it).
    const visitor = await render(`/post/${paid}`);
    const api = await t.call('posts.list', { post: paid });
    expect(feedOf(visitor?.data as FirstViewData).posts).toEqual(api.body.posts);
    expect(feedOf(visitor?.data as FirstViewData).posts[0]?.access).toBe(false);
    // Not published (waiting for review): nobody but its creator (and staff) gets it.
    const pending = await createPost(t, creator, { message: 'Still in review' }, { approve: false });
    expect((await render(`/post/${pending}`, { fv_session: fan.token }))?.html ?? '').not.toContain(
      'Still in review',
    );
  });

  it("a paid post's media stays locked in the page of a fan who has not paid", async () => {
    const res = await postForm(
      base,
      '/api/v1/posts',
      creator.token,
      {
        ...CERTIFIED_FORM,
        message: 'Locked photo',
        visibility: 'subscribers',
      },
      [{ name: 'photo.jpg', data: await jpeg() }],
    );
    expect(res.status).toBe(200);
    const id = (res.body.post as Post)._id;
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    // Processing runs in the background: the review is accepted once it is done (409 until then).
    let review = 0;
    for (let i = 0; i < 300 && review !== 200; i++) {
      review = (await t.call('admin.postReview', { id, adminStatus: 'approved' }, { token: admin.token }))
        .status;
      if (review !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(review).toBe(200);
    const subscriber = await createUser(t);
    await subscribe(t, subscriber.id, creator.id);
    const urls = (post: Post | undefined) =>
      (post?.media ?? []).flatMap((m) => [m.src, m.thumb, m.poster].filter((u): u is string => !!u));
    const full = urls((await t.call('posts.list', { post: id }, { token: subscriber.token })).body.posts[0]);
    expect(full.length).toBeGreaterThan(0);

    const locked = await render(`/post/${id}`, { fv_session: fan.token });
    const lockedPost = feedOf(locked?.data as FirstViewData).posts[0];
    expect(lockedPost?.access).toBe(false);
    for (const url of full) {
      const path = url.split('?')[0] ?? url;
      expect(locked?.html).not.toContain(path);
    }
    const open = await render(`/post/${id}`, { fv_session: subscriber.token });
    expect(feedOf(open?.data as FirstViewData).posts[0]?.access).toBe(true);
    expect(open?.root).toContain((full[0] ?? '').split('?')[0]);
  });

  it('a signed-out, revoked or unknown session cookie renders the visitor view', async () => {
    const gone = await createUser(t);
    expect((await render('/', { fv_session: gone.token }))?.data.viewer).toBe(gone.id);
    await t.call('auth.logout', {}, { token: gone.token });
    for (const token of [gone.token, 'not-a-session', 'fv_personal-api-token']) {
      const page = await render('/', { fv_session: token });
      expect(page?.personal).toBe(false);
      expect(page?.data.viewer).toBeNull();
      expect(page?.root).toContain('Log in');
    }
  });

  it('renders the first view only for the pages it knows, without a query', () => {
    expect(view.route('/')).toEqual({ kind: 'home' });
    expect(view.route('/?feed=my-profile')).toBeNull();
    expect(view.route(`/post/${free}`)).toEqual({ kind: 'post', id: free });
    expect(view.route('/creator3')).toEqual({ kind: 'creator', handle: 'creator3' });
    for (const url of ['/login', '/about', '/post/create', '/@creator3', '/user/credits', '/a']) {
      expect(view.route(url)).toBeNull();
    }
  });

  it("never takes a path of the app's routes (the renderer's list) or of the server for a creator", () => {
    expect(renderer.appPaths).toEqual(expect.arrayContaining(['about', 'login', 'dashboard', 'billing']));
    for (const segment of [...renderer.appPaths, 'healthz', 'readyz', 'web', 'api']) {
      expect(view.route(`/${segment}`), segment).toBeNull();
      expect(view.route(`/${segment.toUpperCase()}`), segment).toBeNull();
    }
    // A route the app gains is known from the renderer, with no list to keep here.
    const withNewRoute = createFirstView({
      services: t.services,
      renderer: { ...renderer, appPaths: [...renderer.appPaths, 'new-page'] },
      manifest: null,
    });
    expect(withNewRoute.route('/new-page')).toBeNull();
    expect(view.route('/new-page')).toEqual({ kind: 'creator', handle: 'new-page' });
  });

  it('works nothing out (cookies, screen class) for a URL without a first view', async () => {
    const read: string[] = [];
    const headers = new Proxy(
      {},
      {
        get: (_, name) => {
          read.push(String(name));
          return undefined;
        },
      },
    );
    const pages = firstViewPages(view);
    for (const url of ['/about', '/login', '/?feed=gallery', '/post/create']) {
      expect(await pages.page({ url, headers } as unknown as FastifyRequest, INDEX)).toBeNull();
    }
    expect(read).toEqual([]);
    // A page with one reads them.
    expect(await pages.page({ url: '/', headers } as unknown as FastifyRequest, INDEX)).not.toBeNull();
    expect(read).toContain('cookie');
  });

  it('a malformed or percent-broken cookie header is no error: the visitor view', async () => {
    const pages = firstViewPages(view);
    for (const cookie of [
      'fv_session=%E0%A4%A; fv_lang=%ZZ; fv_age=%',
      '=; ;;fv_session; fv_lang="es',
      'fv_session=%00%ff%; fv_lang=es%',
      `fv_session=${'%'.repeat(5000)}`,
    ]) {
      const page = await view.render(request('/', {}, { cookie }), INDEX);
      expect(page?.personal, cookie).toBe(false);
      expect(dataOf(page?.html).viewer).toBeNull();
      expect(dataOf(page?.html).language).toBe('en');
      expect(await pages.page(request('/', {}, { cookie }), INDEX)).not.toBeNull();
    }
  });

  it('shapes answers as the API routes do: compiled serializers in production (no zod parse), the schema in tests', async () => {
    const names: EndpointName[] = [
      'home.get',
      'user.profile',
      'posts.list',
      'creator.profile',
      'stories.list',
    ];
    const spies = names.map((name) => vi.spyOn(endpoints[name].output, 'parse'));
    try {
      const production = createFirstView({
        services: t.services,
        renderer,
        manifest: null,
        output: 'serialize',
      });
      const url = `/${creator.username}`;
      const served = await production.render(request(url, { fv_session: fan.token }), INDEX);
      expect(served?.html).toContain('data-fv-testid="creator-header"');
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      const tested = await view.render(request(url, { fv_session: fan.token }), INDEX);
      for (const spy of spies.slice(1)) expect(spy).toHaveBeenCalled();
      const [a, b] = [dataOf(served?.html), dataOf(tested?.html)];
      expect(a.queries).toEqual(b.queries);
      expect(a.profile).toEqual(b.profile);
      expect(a.queries.length).toBe(3);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe('page loads through the server', () => {
  it('the fv_session cookie is never read by /api/: with only the cookie, a call is anonymous', async () => {
    const cookie = `fv_session=${fan.token}`;
    const profile = await t.app.inject({ url: '/api/v1/user/profile', headers: { cookie } });
    expect(profile.statusCode).toBe(401);
    const feed = await t.app.inject({ url: '/api/v1/posts', headers: { cookie } });
    const visitor = await t.call('posts.list', {});
    expect((JSON.parse(feed.body) as PostsResponse).posts.map((p) => p._id)).toEqual(
      visitor.body.posts.map((p) => p._id),
    );
    const like = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/post/like',
      headers: { cookie, 'content-type': 'application/json' },
      payload: { id: free, creator: creator.username },
    });
    expect(like.statusCode).toBe(401);
  });

  it('POST /web/session sets an HttpOnly, SameSite=Lax cookie for a valid session only; DELETE clears it', async () => {
    const set = await t.app.inject({ method: 'POST', url: '/web/session', headers: { a1sledom: fan.token } });
    expect(set.statusCode).toBe(204);
    const cookie = String(set.headers['set-cookie']);
    expect(cookie).toContain(`fv_session=${fan.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure'); // plain http here; https (or a trusted proxy's) gets Secure
    expect(set.headers['cache-control']).toBe('no-store');
    const bad = await t.app.inject({ method: 'POST', url: '/web/session', headers: { a1sledom: 'nope' } });
    expect(bad.statusCode).toBe(401);
    expect(String(bad.headers['set-cookie'])).toContain('Max-Age=0');
    const anonymous = await t.app.inject({ method: 'POST', url: '/web/session' });
    expect(anonymous.statusCode).toBe(401);
    const cleared = await t.app.inject({ method: 'DELETE', url: '/web/session' });
    expect(String(cleared.headers['set-cookie'])).toContain('fv_session=;');
    expect(String(cleared.headers['set-cookie'])).toContain('Max-Age=0');
  });

  it("another site can neither set nor clear fv_session; the site's own sign-out clears it, session or not", async () => {
    const cleared = (res: { headers: Record<string, unknown> }) =>
      String(res.headers['set-cookie'] ?? '').includes('fv_session=;');
    const session = (
      await t.app.inject({ method: 'POST', url: '/web/session', headers: { a1sledom: fan.token } })
    ).statusCode;
    expect(session).toBe(204);
    // A form or fetch of another site: the browser says so (Sec-Fetch-Site, or Origin alone in
    // older browsers). A text/plain form needs no CORS and carries no token: it used to be
    // answered 401 with a clearing cookie.
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ]) {
      for (const method of ['POST', 'DELETE'] as const) {
        const res = await t.app.inject({
          method,
          url: '/web/session',
          headers: { ...headers, 'content-type': 'text/plain' },
          payload: 'a=1',
        });
        expect(res.statusCode, `${method} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      const withToken = await t.app.inject({
        method: 'POST',
        url: '/web/session',
        headers: { ...headers, a1sledom: fan.token },
      });
      expect(withToken.statusCode).toBe(403);
      expect(withToken.headers['set-cookie']).toBeUndefined();
    }
    // The app's own fetch (what firstViewCookies.ts sends): DELETE needs no token, so sign-out
    // clears the cookie even when the session is already over on the server.
    const gone = await createUser(t);
    await t.call('auth.logout', {}, { token: gone.token });
    const own = {
      'sec-fetch-site': 'same-origin',
      origin: 'http://localhost',
      cookie: `fv_session=${gone.token}`,
    };
    const signOut = await t.app.inject({ method: 'DELETE', url: '/web/session', headers: own });
    expect(signOut.statusCode).toBe(204);
    expect(cleared(signOut)).toBe(true);
    const stale = await t.app.inject({
      method: 'POST',
      url: '/web/session',
      headers: { ...own, a1sledom: gone.token },
    });
    expect(stale.statusCode).toBe(401);
    expect(cleared(stale)).toBe(true);
    // An older browser: Origin only, this site's.
    const older = await t.app.inject({
      method: 'DELETE',
      url: '/web/session',
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(older.statusCode).toBe(204);
    expect(cleared(older)).toBe(true);
  });

  it("POST /web/age (the age notice's form before the script runs) sets fv_age and sends the browser back to a page of this site", async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };
    const accept = (to: string, headers: Record<string, string> = form) =>
      t.app.inject({ method: 'POST', url: `/web/age?to=${encodeURIComponent(to)}`, headers, payload: '' });
    const ok = await accept('/creator/someone?tab=media#top');
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/creator/someone?tab=media#top');
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(String(ok.headers['set-cookie'])).toMatch(/^fv_age=1; Path=\/; Max-Age=31536000; SameSite=Lax$/);
    // The page it goes back to is rendered without the notice (the cookie is what the first view reads).
    expect((await render('/', { fv_age: '1' }))?.html).not.toContain('data-fv-testid="age-advice"');
    // Until then the notice's form stands outside #root, which is inert with or without it (render()
    // finds an inert #root or fails): the notice takes the clicks and the keys, the page behind none.
    const before = await render('/', {});
    expect(before?.outside).toContain('<form class="button-row" action="/web/age?to=%2F" method="post">');
    expect(before?.root).not.toContain('<form');
    // Never away from this site: an open redirect would let a link use the notice to send people anywhere.
    for (const to of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '',
    ]) {
      const res = await accept(to);
      expect(res.statusCode, to).toBe(303);
      expect(res.headers.location, to).toBe('/');
    }
    const bare = await t.app.inject({ method: 'POST', url: '/web/age' });
    expect(bare.statusCode).toBe(303);
    expect(bare.headers.location).toBe('/');
    // Another site cannot accept the notice for a visitor.
    const otherSites: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of otherSites) {
      const res = await accept('/', { 'content-type': 'application/x-www-form-urlencoded', ...headers });
      expect(res.statusCode).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Over https the cookie is Secure.
    expect(ageCookie(true)).toBe('fv_age=1; Path=/; Max-Age=31536000; SameSite=Lax; Secure');
  });

  it("tells this site's pages from others'", () => {
    const req = (headers: Record<string, string>, protocol = 'https', host = 'fans.example') =>
      ({ headers, protocol, host }) as unknown as FastifyRequest;
    expect(fromOwnPages(req({ 'sec-fetch-site': 'same-origin' }), null)).toBe(true);
    expect(fromOwnPages(req({ 'sec-fetch-site': 'none' }), null)).toBe(false);
    expect(fromOwnPages(req({ 'sec-fetch-site': 'cross-site', origin: 'https://fans.example' }), null)).toBe(
      false,
    );
    expect(fromOwnPages(req({ origin: 'https://fans.example' }), null)).toBe(true);
    expect(
      fromOwnPages(req({ origin: 'https://fans.example' }, 'http', 'internal:3000'), 'https://fans.example'),
    ).toBe(true);
    expect(fromOwnPages(req({ origin: 'https://other.example' }), 'https://fans.example')).toBe(false);
    expect(fromOwnPages(req({}), null)).toBe(true); // no browser's cross-site request
  });

  it('makes Secure cookies when asked to', () => {
    const expires = new Date(Date.now() + 86_400_000);
    expect(sessionCookie('tok', true, expires)).toMatch(
      /^fv_session=tok; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=86\d{3}; Expires=/,
    );
  });
});

describe('first-view helpers', () => {
  it('escapes the data so no text can end the script element or open a comment', () => {
    const hostile = { message: '</script><script>alert(1)</script><!-- & \u2028\u2029' };
    const json = scriptJson(hostile);
    expect(json).not.toMatch(/<|>|&|\u2028|\u2029/);
    expect(JSON.parse(json)).toEqual(hostile);
    const html = injectFirstView(INDEX, {
      markup: '<p>hi</p>',
      data: { language: 'en', viewer: null, app: hostile, profile: null, queries: [], pages: [] } as never,
      links: '',
      screen: 'mobile',
    });
    expect(html.match(/<\/script>/g)?.length).toBe(2); // the data's and the module's
    expect(html).toContain('<html lang="en" class="mobile" data-screen="mobile">');
    expect(html).toContain(
      '<div id="root" data-first-view="" inert aria-hidden="true"><p>hi</p></div><script type="application/json" id="fv-first-view">',
    );
    // An open modal the renderer marked stands outside the inert #root, in the page's #fv-outside.
    const withNotice = injectFirstView(INDEX, {
      markup:
        '<p>a</p><fv-outside><div role="alertdialog"><p>&lt;/fv-outside&gt;</p></div></fv-outside><p>b</p>',
      data: { language: 'en', viewer: null, app: {}, profile: null, queries: [], pages: [] } as never,
      links: '',
      screen: 'mobile',
    });
    expect(withNotice).toContain(
      '<div id="root" data-first-view="" inert aria-hidden="true"><p>a</p><p>b</p></div><div id="fv-outside"><div role="alertdialog"><p>&lt;/fv-outside&gt;</p></div></div><script type="application/json"',
    );
    expect(html).not.toContain('fv-outside');
    // The entry runs after the first paint: the boot script has it and the modules to preload.
    expect(html).toContain(
      '<script type="module" async src="/first-view-boot.js" data-entry="/assets/index.js"',
    );
    expect(html).toContain('<noscript>');
  });

  it("inlines the page chunk's stylesheets (a disabled link stands for each) and preloads its modules", () => {
    const manifest = {
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_shared.js'] },
      'src/features/post/PostPage.tsx': {
        file: 'assets/PostPage.js',
        imports: ['_shared.js', 'index.html'],
        css: ['assets/PostPage.css'],
      },
      '_shared.js': { file: 'assets/shared.js', css: ['assets/shared.css'] },
    };
    const links = pageLinks(manifest, 'post/PostPage', (file) =>
      file === 'assets/shared.css' ? null : '.p{}',
    );
    expect(links).toBe(
      '<style>.p{}</style><link rel="stylesheet" crossorigin href="/assets/PostPage.css" disabled>' +
        '<link rel="stylesheet" crossorigin href="/assets/shared.css">' +
        '<link rel="modulepreload" crossorigin href="/assets/PostPage.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/shared.js">',
    );
    expect(pageLinks(null, 'post/PostPage', () => null)).toBe('');
  });

  it('reads cookies and guesses the screen class', () => {
    const cookies = readCookies('a=1; fv_lang=es; fv_lang=en; bad=%E0%A4%A; sp=a%20b');
    expect(cookies.fv_lang).toBe('es'); // the first of a repeated name
    expect(cookies.bad).toBe('%E0%A4%A'); // not percent-encoding: kept as it came
    expect(cookies.sp).toBe('a b');
    expect(readCookies(undefined)).toEqual({});
    expect(screenOf(request('/', {}, { 'sec-ch-ua-mobile': '?1' }))).toBe('mobile');
    expect(
      screenOf(request('/', {}, { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile' })),
    ).toBe('mobile');
    expect(screenOf(request('/', {}, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' }))).toBe('desktop');
    // The browser's own class (fv_screen) wins over any guess; an unknown value is ignored.
    const phone = {
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile',
      'sec-ch-ua-mobile': '?1',
    };
    expect(screenOf(request('/', {}, phone), readCookies('fv_screen=tablet'))).toBe('tablet');
    expect(screenOf(request('/', {}, { 'sec-ch-ua-mobile': '?0' }), readCookies('fv_screen=mobile'))).toBe(
      'mobile',
    );
    expect(screenOf(request('/', {}, phone), readCookies('fv_screen=huge'))).toBe('mobile');
  });

  it("lays the first view out for the browser's own screen class (a narrow desktop window)", async () => {
    const narrow = await view.render(
      request('/', { fv_screen: 'mobile' }, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' }),
      INDEX,
    );
    expect(narrow?.html).toContain('<html lang="en" class="mobile" data-screen="mobile">');
    const guessed = await view.render(
      request('/', {}, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' }),
      INDEX,
    );
    expect(guessed?.html).toContain('class="desktop" data-screen="desktop"');
  });
});
