import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  AGE_ACCEPTED,
  DEFAULT_LANGUAGE,
  type EndpointName,
  type EndpointOutput,
  endpoints,
  FIRST_VIEW_AGE_PATH,
  FIRST_VIEW_COOKIES,
  FIRST_VIEW_OUTSIDE,
  FIRST_VIEW_SCRIPT_ID,
  FIRST_VIEW_SESSION_PATH,
  type FirstViewData,
  type FirstViewInput,
  firstViewCookie,
  LANGUAGES,
  type Language,
  SCREEN_CLASSES,
  type ScreenClass,
  type SeededQuery,
  sessionUserOf,
} from '@fanverse/contract';
import { type Cookies, parseCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthService } from '../modules/auth/auth.service.ts';
import { isApiToken } from '../modules/developer/api-token.service.ts';
import type { Services } from '../services.ts';
import { extractToken } from './auth.ts';
import type { AuthInfo } from './guards.ts';
import { compressHtml, type HtmlPage } from './html.ts';
import { answerFormat, type OutputMode, outputModeOf } from './route.ts';

/**
 * The server's first view of a page (ADR 0048): for a GET of the home page, a creator page or a
 * post, the page's first screen rendered by the web app's own components (apps/web/src/ssr,
 * built to apps/web/dist-ssr/firstView.js) from data asked of the same services, with the same
 * rules, as the API routes that the client would call. The data goes into the page as JSON so the
 * client's first render starts from it instead of asking again.
 *
 * Who is looking comes from the fv_session cookie, which only this module reads, and only for
 * page loads: an /api/ route never reads a cookie (http/auth.ts takes the token from a header).
 * Rendering changes nothing: the session is looked up without touching it, nothing is counted
 * or marked read.
 */

/** The web app's server-render entry (apps/web/src/ssr/firstView.tsx). */
export interface FirstViewRenderer {
  prepareFirstView(): Promise<void>;
  renderFirstView(input: FirstViewInput): string;
  /** The first path segments of the app's own routes (from router.tsx's route objects): never a creator. */
  appPaths: readonly string[];
}

/** Loads the built renderer from `dir` (apps/web/dist-ssr); null when it is not built. */
export async function loadFirstViewRenderer(dir: string): Promise<FirstViewRenderer | null> {
  const file = path.join(dir, 'firstView.js');
  if (!fs.existsSync(file)) return null;
  const renderer = (await import(pathToFileURL(file).href)) as FirstViewRenderer;
  await renderer.prepareFirstView();
  return renderer;
}

/** The page a URL shows, when it is one the first view renders. */
export type FirstViewRoute =
  | { kind: 'home' }
  | { kind: 'post'; id: string }
  | { kind: 'creator'; handle: string };

/** First path segments the server answers itself (health checks, /web/session, the API): never a creator. */
const SERVER_PATHS = ['healthz', 'readyz', 'web', 'api'] as const;

/** Paths that are never a creator's handle: the app's own (the renderer's `appPaths`) and the server's. */
function ownPathsOf(renderer: Pick<FirstViewRenderer, 'appPaths'>): ReadonlySet<string> {
  return new Set([...renderer.appPaths, ...SERVER_PATHS].map((segment) => segment.toLowerCase()));
}

/**
 * The home page without a query, /post/{id} and /{handle} (no @, no query: those pages first
 * redirect or open something else in the client).
 */
export function firstViewRoute(url: string, ownPaths: ReadonlySet<string>): FirstViewRoute | null {
  const [pathname = '/', search] = url.split('?', 2);
  if (search) return null;
  if (pathname === '/') return { kind: 'home' };
  const post = /^\/post\/([0-9a-f-]{36})$/i.exec(pathname);
  if (post?.[1]) return { kind: 'post', id: post[1] };
  const handle = /^\/([A-Za-z0-9_.-]{3,40})$/.exec(pathname);
  if (handle?.[1] && !ownPaths.has(handle[1].toLowerCase())) return { kind: 'creator', handle: handle[1] };
  return null;
}

/**
 * The request's cookies by name (the `cookie` package: the first of a repeated name wins; a value
 * that is not valid percent-encoding is kept as it came, never an error).
 */
export function readCookies(header: string | undefined): Cookies {
  return parseCookie(header ?? '');
}

/**
 * The screen class to render for: the browser's own (its fv_screen cookie), else a guess from the
 * client hint or the user agent (phones: mobile).
 */
export function screenOf(req: Pick<FastifyRequest, 'headers'>, cookies: Cookies = {}): ScreenClass {
  const saved = cookies[FIRST_VIEW_COOKIES.screen];
  if (SCREEN_CLASSES.some((c) => c.name === saved)) return saved as ScreenClass;
  const hint = req.headers['sec-ch-ua-mobile'];
  if (hint === '?1') return 'mobile';
  if (hint === '?0') return 'desktop';
  return /Mobi|iPhone|Android/i.test(req.headers['user-agent'] ?? '') ? 'mobile' : 'desktop';
}

/**
 * JSON for a `<script type="application/json">`: no `<` (so no `</script>` or `<!--`), `>`, `&`
 * or line separators survive as such; JSON.parse reads the escapes back to the same text.
 */
export function scriptJson(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** What the Vite manifest says of a chunk (apps/web/dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type ViteManifest = Record<string, ManifestChunk>;

/**
 * What a page chunk needs in the head: its stylesheets inline (a `<link>` would hold the first
 * paint until it arrives) with a disabled `<link>` for each, which Vite's loader takes as already
 * there (it does not fetch it again when the chunk loads; a disabled stylesheet is not fetched);
 * a modulepreload of the chunk and the chunks it imports.
 */
export function pageLinks(
  manifest: ViteManifest | null,
  page: string,
  readCss: (file: string) => string | null,
): string {
  const chunk = manifest?.[`src/features/${page}.tsx`];
  if (!manifest || !chunk) return '';
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string, seen: Set<string>) => {
    const c = manifest[key];
    if (!c || seen.has(key) || c.isEntry) return;
    seen.add(key);
    scripts.add(c.file);
    for (const css of c.css ?? []) styles.add(css);
    for (const next of c.imports ?? []) visit(next, seen);
  };
  visit(`src/features/${page}.tsx`, new Set());
  const links: string[] = [];
  for (const file of styles) {
    const css = readCss(file);
    if (css === null) links.push(`<link rel="stylesheet" crossorigin href="/${file}">`);
    else links.push(`<style>${css}</style><link rel="stylesheet" crossorigin href="/${file}" disabled>`);
  }
  for (const file of scripts) links.push(`<link rel="modulepreload" crossorigin href="/${file}">`);
  return links.join('');
}

/** index.html with the first view: the markup in #root, the data, the page's links, lang and screen. */
export function injectFirstView(
  indexHtml: string,
  view: { markup: string; data: FirstViewData; links: string; screen: ScreenClass },
): string {
  const root = /<div id="root">[\s\S]*?<\/main>\s*<\/div>/;
  if (!root.test(indexHtml)) return indexHtml;
  // #root is inert (no focus, no clicks) and hidden from assistive technology until the app has
  // replaced the markup with its own, live one (main.tsx): nothing done on it would be kept.
  // A modal open in the view (a visitor's age notice, shell/Gates.tsx) stands outside it, after it,
  // so that the keyboard reaches it alone: it is a form the browser can send before the app has
  // taken over (POST FIRST_VIEW_AGE_PATH). The renderer marks it (ui/Modal.tsx); the tag is unique
  // and the renderer escapes every `<` of text, so the first closing tag is the marked element's.
  const outside: string[] = [];
  const markup = view.markup.replace(
    new RegExp(`<${FIRST_VIEW_OUTSIDE}>([\\s\\S]*?)</${FIRST_VIEW_OUTSIDE}>`, 'g'),
    (_, modal: string) => {
      outside.push(modal);
      return '';
    },
  );
  const outsideHtml = outside.length ? `<div id="${FIRST_VIEW_OUTSIDE}">${outside.join('')}</div>` : '';
  // The app's modules are asked for once the markup is painted (public/first-view-boot.js): the
  // entry's <script> and every modulepreload (index.html's and the page's) go to the boot script.
  const modules: string[] = [];
  const collect = (_: string, href: string) => {
    if (!modules.includes(href)) modules.push(href);
    return '';
  };
  let html = indexHtml.replace(
    /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">/g,
    collect,
  );
  const links = view.links.replace(
    /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">/g,
    collect,
  );
  let entry = '';
  html = html.replace(
    /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/,
    (_, src: string) => {
      entry = src;
      return '';
    },
  );
  const boot = entry
    ? `<script type="module" async src="/first-view-boot.js" data-entry="${entry}" data-modules="${modules.join(' ')}"></script>`
    : '';
  return html
    .replace(
      /<html lang="[^"]*">/,
      `<html lang="${view.data.language}" class="${view.screen}" data-screen="${view.screen}">`,
    )
    .replace('</head>', `${links}</head>`)
    .replace(
      root,
      () =>
        `<div id="root" data-first-view="" inert aria-hidden="true">${markup}</div>${outsideHtml}<script type="application/json" id="${FIRST_VIEW_SCRIPT_ID}">${scriptJson(view.data)}</script>${boot}`,
    );
}

/** The page's first view and whether it is one person's (private) or anyone's with these cookies. */
export interface FirstViewPage {
  html: string;
  personal: boolean;
}

export interface FirstViewDeps {
  services: Pick<Services, 'auth' | 'home' | 'user' | 'posts' | 'creators'>;
  renderer: FirstViewRenderer;
  manifest: ViteManifest | null;
  /** A built stylesheet's text (dist/assets/…css), or null to link it instead. */
  readCss?: (file: string) => string | null;
  /** How answers are shaped, as the API routes shape them (route.ts `answerFormat`); validate by default. */
  output?: OutputMode;
}

/**
 * An answer as its API route sends it: shaped by the endpoint's answer format (route.ts: the
 * compiled serializer in production, the output schema in tests), so whatever the endpoint does
 * not show is dropped; once per answer object (shared answers are reused).
 */
function shaper(output: OutputMode) {
  const shaped = new WeakMap<object, unknown>();
  return <N extends EndpointName>(name: N, answer: EndpointOutput<N>): EndpointOutput<N> => {
    const kept = shaped.get(answer as object);
    if (kept) return kept as EndpointOutput<N>;
    const out = answerFormat(name, output).shape(answer);
    shaped.set(answer as object, out);
    return out;
  };
}

/** The session of the page load's fv_session cookie, or null (none, unknown, expired, revoked, suspended). */
export async function cookieSession(auth: AuthService, cookies: Cookies): Promise<AuthInfo | null> {
  const token = cookies[FIRST_VIEW_COOKIES.session];
  // Personal API tokens are for programs, not pages.
  if (!token || isApiToken(token)) return null;
  return auth.authenticate(token, { touch: false }).catch(() => null);
}

export function createFirstView(deps: FirstViewDeps) {
  const { services, renderer, manifest } = deps;
  const readCss = deps.readCss ?? (() => null);
  const linksOf = new Map<string, string>();
  const shape = shaper(deps.output ?? 'validate');
  const ownPaths = ownPathsOf(renderer);
  /** The page a URL shows, when it is one with a first view. */
  const route = (url: string) => firstViewRoute(url, ownPaths);
  const feed = async (auth: AuthInfo | null, query: Record<string, string>) =>
    shape('posts.list', await services.posts.feed(auth, endpoints['posts.list'].input.parse(query)));

  /** The page's data as the client would ask for it (same keys), or null when there is no first view. */
  async function gather(
    route: FirstViewRoute,
    auth: AuthInfo | null,
  ): Promise<{ page: string; queries: SeededQuery[] } | null> {
    switch (route.kind) {
      case 'home': {
        // A visitor's landing shows the day's stories above the feed (VisitorStories): rendered
        // here too, or the row would push the feed down when the app takes over (CLS, issue 13).
        const [posts, stories] = await Promise.all([
          feed(auth, {}),
          auth ? null : services.posts.stories(null).then((answer) => shape('stories.list', answer)),
        ]);
        return {
          page: 'home/HomePage',
          queries: [
            { key: ['posts.list', {}], data: posts, infinite: true },
            ...(stories ? [{ key: ['stories.list', ''], data: stories }] : []),
          ],
        };
      }
      case 'post':
        return {
          page: 'post/PostPage',
          queries: [
            {
              key: ['posts.list', { post: route.id }],
              data: await feed(auth, { post: route.id }),
              infinite: true,
            },
          ],
        };
      case 'creator': {
        // A creator page needs a session (spec §2): a visitor's client goes to /login.
        if (!auth) return null;
        const profile = shape('creator.profile', await services.creators.profile(auth, route.handle));
        const [posts, stories] = await Promise.all([
          feed(auth, { creator: profile.user }),
          services.posts
            .stories(auth, endpoints['stories.list'].input.parse({ creator: profile.user }).creator)
            .then((answer) => shape('stories.list', answer)),
        ]);
        return {
          page: 'creator/CreatorPage',
          queries: [
            { key: ['creator.profile', route.handle.toLowerCase()], data: profile },
            { key: ['posts.list', { creator: profile.user }], data: posts, infinite: true },
            { key: ['stories.list', profile.user.toLowerCase()], data: stories },
          ],
        };
      }
    }
  }

  /**
   * The page for this request with its first view, or null (not a page with one, or its data
   * could not be had: the plain index.html is sent and the client does as it always did).
   */
  async function render(
    req: FastifyRequest,
    indexHtml: string,
    known?: { route: FirstViewRoute; cookies: Cookies },
  ): Promise<FirstViewPage | null> {
    const page = known?.route ?? route(req.url);
    if (!page) return null;
    const cookies = known?.cookies ?? readCookies(req.headers.cookie);
    const saved = cookies[FIRST_VIEW_COOKIES.language];
    const language = (LANGUAGES as readonly string[]).includes(saved ?? '')
      ? (saved as Language)
      : DEFAULT_LANGUAGE;
    const auth = await cookieSession(services.auth, cookies);
    try {
      const [app, profile, content] = await Promise.all([
        services.home.startup(language).then((a) => shape('home.get', a)),
        auth ? services.user.profile(auth).then((p) => shape('user.profile', p)) : null,
        gather(page, auth),
      ]);
      if (!content) return null;
      const screen = screenOf(req, cookies);
      const user = profile ? sessionUserOf(profile) : null;
      const ageAccepted = !!auth || cookies[FIRST_VIEW_COOKIES.age] === AGE_ACCEPTED;
      const now = Date.now();
      const markup = renderer.renderFirstView({
        url: req.url,
        language,
        user,
        profile,
        app,
        queries: content.queries,
        screen,
        ageAccepted,
        now,
      });
      // What the render read goes with the data: the client hydrates the markup with the same.
      const data: FirstViewData = {
        language,
        viewer: auth ? auth.userId : null,
        app,
        profile,
        queries: content.queries,
        pages: [content.page],
        screen,
        renderedAt: now,
        ageAccepted,
      };
      let links = linksOf.get(content.page);
      if (links === undefined) {
        links = pageLinks(manifest, content.page, readCss);
        linksOf.set(content.page, links);
      }
      return { html: injectFirstView(indexHtml, { markup, data, links, screen }), personal: !!auth };
    } catch {
      // Not found, blocked, not allowed…: the client asks the API and shows the page's own answer.
      return null;
    }
  }

  return { route, render };
}

/** `Set-Cookie` for the session mirror: HttpOnly, SameSite=Lax, Path=/, Secure over https, until `expires`. */
export function sessionCookie(token: string | null, secure: boolean, expires?: Date): string {
  const flags = `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  if (token === null || !expires) return `${FIRST_VIEW_COOKIES.session}=; ${flags}; Max-Age=0`;
  const maxAge = Math.max(0, Math.floor((expires.getTime() - Date.now()) / 1000));
  return `${FIRST_VIEW_COOKIES.session}=${encodeURIComponent(token)}; ${flags}; Max-Age=${maxAge}; Expires=${expires.toUTCString()}`;
}

/**
 * Whether a request comes from this site's own pages, as the browser says: `Sec-Fetch-Site`
 * (every current browser sends it) must be `same-origin`; a browser without it sends `Origin` on a
 * POST or DELETE, which must be this site's. A request with neither is not a browser's cross-site
 * request (a program, a test), which could send any header anyway.
 */
export function fromOwnPages(req: FastifyRequest, publicOrigin: string | null): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origin === publicOrigin || origin === `${req.protocol}://${req.host}`;
}

/**
 * The routes that set the first view's cookies on request. Only this site's own pages may call
 * them (`fromOwnPages`): another site gets 403 and no cookie.
 *
 * POST `FIRST_VIEW_SESSION_PATH` with the session token in the API's header sets fv_session to it
 * (valid sessions only, until the session's own expiry; otherwise 401 and a clearing cookie);
 * DELETE (sign-out, a stale cookie) clears it, with or without a session left to name. Another
 * site can neither set nor clear it (a cross-site form POST needs no CORS and carries no token: it
 * would otherwise be answered 401 with a clearing cookie).
 *
 * POST `FIRST_VIEW_AGE_PATH?to=<path>` is the age notice's form, sent by the browser itself when
 * the page's script is not running yet (a slow connection) or at all: it sets fv_age, as the
 * running app does, and answers 303 to `to` (a path on this site; anything else goes home), so the
 * page is loaded again without the notice. Another site cannot accept the notice for a visitor.
 */
export function registerFirstViewCookies(
  app: FastifyInstance,
  auth: AuthService,
  publicUrl: string | undefined,
): void {
  // Secure over https: the request's own (or, with TRUST_PROXY, the proxy's) or the public address's.
  const httpsSite = !!publicUrl?.startsWith('https://');
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : null;
  const isSecure = (req: FastifyRequest) => httpsSite || req.protocol === 'https';
  const refuseOtherSites = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!fromOwnPages(req, publicOrigin)) {
      return reply.header('cache-control', 'no-store').status(403).send();
    }
  };
  app.post(FIRST_VIEW_SESSION_PATH, { onRequest: refuseOtherSites }, async (req, reply) => {
    const token = extractToken(req);
    const session = token && !isApiToken(token) ? await auth.sessionExpiry(token).catch(() => null) : null;
    const secure = isSecure(req);
    reply.header('cache-control', 'no-store');
    if (!token || !session) {
      return reply.header('set-cookie', sessionCookie(null, secure)).status(401).send();
    }
    return reply
      .header('set-cookie', sessionCookie(token, secure, session))
      .status(204)
      .send();
  });
  app.delete(FIRST_VIEW_SESSION_PATH, { onRequest: refuseOtherSites }, async (req, reply) =>
    reply
      .header('cache-control', 'no-store')
      .header('set-cookie', sessionCookie(null, isSecure(req)))
      .status(204)
      .send(),
  );
  void app.register(async (scope) => {
    // A form's body (it has no fields) is not read.
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
      { bodyLimit: 1024 },
      (_req, _payload, done) => done(null, undefined),
    );
    scope.post<{ Querystring: { to?: unknown } }>(
      FIRST_VIEW_AGE_PATH,
      { onRequest: refuseOtherSites },
      async (req, reply) =>
        reply
          .header('cache-control', 'no-store')
          .header('set-cookie', ageCookie(isSecure(req)))
          .redirect(localPathOf(req.query.to), 303),
    );
  });
}

/** `Set-Cookie` for the accepted age notice: a year, readable by the app (which sets it itself too). */
export function ageCookie(secure: boolean): string {
  return firstViewCookie(FIRST_VIEW_COOKIES.age, AGE_ACCEPTED, secure);
}

/** `to` when it names a page of this site (path, query and fragment), otherwise the home page. */
export function localPathOf(to: unknown): string {
  if (typeof to !== 'string' || !to.startsWith('/')) return '/';
  const here = 'http://here.invalid';
  try {
    const url = new URL(to, here);
    return url.origin === here ? `${url.pathname}${url.search}${url.hash}` : '/';
  } catch {
    return '/';
  }
}

/** How long a visitor's page (the same for every visitor with the same cookies) is kept, made and compressed. */
const VISITOR_PAGE_MS = 1000;
const VISITOR_PAGES_MAX = 200;

/** A page load's page with its first view, compressed, and whether it is one person's. */
export type FirstViewPages = {
  page(req: FastifyRequest, html: string): Promise<{ page: HtmlPage; personal: boolean } | null>;
};

/**
 * Pages with their first view, made by `view`. Visitors' pages are kept a second (their feed is
 * the shared one, ADR 0046's `shared` answers), so a burst of visitors costs one render. The URL is
 * looked at first: a page without a first view (/about, /login…) costs nothing more.
 */
export function firstViewPages(view: ReturnType<typeof createFirstView>): FirstViewPages {
  const visitorPages = new Map<string, { page: HtmlPage; at: number; html: string }>();
  return {
    async page(req, html) {
      const route = view.route(req.url);
      if (!route) return null;
      const cookies = readCookies(req.headers.cookie);
      const visitor = !cookies[FIRST_VIEW_COOKIES.session];
      const key = visitor
        ? `${req.url}|${cookies[FIRST_VIEW_COOKIES.language] ?? ''}|${cookies[FIRST_VIEW_COOKIES.age] ?? ''}|${screenOf(req, cookies)}`
        : '';
      const kept = visitor ? visitorPages.get(key) : undefined;
      if (kept && kept.html === html && Date.now() - kept.at < VISITOR_PAGE_MS) {
        return { page: kept.page, personal: false };
      }
      const made = await view.render(req, html, { route, cookies });
      if (!made) return null;
      const page = compressHtml(made.html, false);
      if (visitor && !made.personal) {
        if (visitorPages.size >= VISITOR_PAGES_MAX)
          visitorPages.delete(visitorPages.keys().next().value ?? '');
        visitorPages.set(key, { page, at: Date.now(), html });
      }
      return { page, personal: made.personal };
    },
  };
}

/**
 * The first view of the built web app (apps/web/dist-ssr, apps/web/dist/.vite/manifest.json), or
 * null when the renderer is not built. Answers are shaped as the API's routes shape them in this
 * environment (`outputModeOf(env)`).
 */
export async function createWebFirstView(
  config: { webDistDir: string; env: string },
  services: FirstViewDeps['services'],
): Promise<FirstViewPages | null> {
  const renderer = await loadFirstViewRenderer(path.join(path.dirname(config.webDistDir), 'dist-ssr')).catch(
    () => null,
  );
  if (!renderer) return null;
  const manifestFile = path.join(config.webDistDir, '.vite', 'manifest.json');
  const manifest = fs.existsSync(manifestFile)
    ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as ViteManifest)
    : null;
  const css = new Map<string, string | null>();
  const readCss = (file: string) => {
    if (!css.has(file)) {
      const full = path.join(config.webDistDir, file);
      // A `</style>` inside would end the element early: link such a file instead.
      const text = fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : null;
      css.set(file, text && !/<\/style/i.test(text) ? text : null);
    }
    return css.get(file) ?? null;
  };
  return firstViewPages(
    createFirstView({ services, renderer, manifest, readCss, output: outputModeOf(config.env) }),
  );
}
