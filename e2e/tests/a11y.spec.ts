// axe-core on EVERY route of the web route table (apps/web/src/app/router.tsx, read with the
// TypeScript parser so a new route is checked without touching this file), as the people the
// route is for, at phone or desktop width, in light or in dark (`scansOf`: every pairing across
// the table): no serious or critical finding. One page load per route and person; width and colour scheme change in place
// (the app follows prefers-color-scheme), so the checks cost one navigation.
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import ts from 'typescript';
import { acceptAge, DESKTOP, PHONE, sessionOf } from './helpers.ts';

type Who = 'visitor' | 'fanuser1' | 'creator1' | 'superadmin';
interface Route {
  path: string;
  guard: 'public' | 'loggedIn' | 'loggedOut' | 'creator' | 'super' | 'creatorPage';
}

const ROUTER = path.resolve(import.meta.dirname, '../../apps/web/src/app/router.tsx');

/** The leaf paths of `export const routes` with the guard written in their element. */
function routeTable(file = ROUTER): Route[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Route[] = [];
  const guardOf = (text: string, inherited: Route['guard']): Route['guard'] => {
    if (text.includes("roles={['super']}")) return 'super';
    if (text.includes('creatorOnly(') || text.includes('tracersOnly(')) return 'creator';
    if (text.includes('<CreatorRoute')) return 'creatorPage';
    if (text.includes('loggedOut(') || text.includes('<LoggedOutOnly')) return 'loggedOut';
    if (text.includes('loggedIn(') || text.includes('<RequireAuth')) return 'loggedIn';
    return inherited;
  };
  const walkObject = (
    node: ts.ObjectLiteralExpression,
    parent: string,
    inherited: Route['guard'],
    forced?: string,
  ) => {
    const prop = (name: string) =>
      node.properties.find(
        (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(source) === name,
      )?.initializer;
    const ownPath =
      forced ??
      (prop('path') && ts.isStringLiteral(prop('path') as ts.Node)
        ? (prop('path') as ts.StringLiteral).text
        : undefined);
    const index = prop('index')?.kind === ts.SyntaxKind.TrueKeyword;
    const full = ownPath ? `${parent.replace(/\/$/, '')}/${ownPath}` : parent;
    const element = prop('element');
    const guard = element ? guardOf(element.getText(source), inherited) : inherited;
    const children = prop('children');
    if (children && ts.isArrayLiteralExpression(children)) walkArray(children, full, guard);
    else if (element && (ownPath || index)) out.push({ path: full || '/', guard });
  };
  const walkArray = (array: ts.ArrayLiteralExpression, parent: string, inherited: Route['guard']) => {
    for (const item of array.elements) {
      if (ts.isObjectLiteralExpression(item)) walkObject(item, parent, inherited);
      else if (ts.isSpreadElement(item)) {
        // ...['a', 'b'].map((path) => ({ path, element }))
        const call = item.expression;
        if (
          ts.isCallExpression(call) &&
          ts.isPropertyAccessExpression(call.expression) &&
          ts.isArrayLiteralExpression(call.expression.expression)
        ) {
          const fn = call.arguments[0];
          let body: ts.Node | undefined = fn && ts.isArrowFunction(fn) ? fn.body : undefined;
          while (body && ts.isParenthesizedExpression(body)) body = body.expression;
          for (const name of call.expression.expression.elements) {
            if (ts.isStringLiteral(name) && body && ts.isObjectLiteralExpression(body))
              walkObject(body, parent, inherited, name.text);
          }
        } else throw new Error(`router.tsx: a route spread this test cannot read: ${item.getText(source)}`);
      }
    }
  };
  source.forEachChild(function visit(node) {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'routes' && node.initializer) {
      if (ts.isArrayLiteralExpression(node.initializer)) walkArray(node.initializer, '', 'public');
    }
    node.forEachChild(visit);
  });
  return out;
}

/** Who looks at a route: everyone it is for (home as each role). */
function viewers(route: Route): Who[] {
  switch (route.guard) {
    case 'loggedOut':
      return ['visitor'];
    case 'loggedIn':
      return ['fanuser1'];
    case 'creator':
      return ['creator1'];
    case 'super':
      return ['superadmin'];
    case 'creatorPage':
      return ['fanuser1', 'creator1'];
    default:
      return route.path === '/' ? ['visitor', 'fanuser1', 'creator1', 'superadmin'] : ['visitor'];
  }
}

/** Values for the route's parameters; a new parameter fails here until it gets one. */
async function concrete(page: Page, route: Route): Promise<string> {
  if (route.path === '/*') return '/no/such/page';
  let url = route.path;
  if (url.includes(':id')) {
    const res = await page.request.get('/api/v1/posts?limit=1&creator=creator1');
    const { posts } = (await res.json()) as { posts: { _id: string }[] };
    if (!posts[0]) throw new Error('no demo post');
    url = url.replace(':id', posts[0]._id);
  }
  if (url.includes(':code')) url = url.replace(':code', await offerCode(page));
  url = url.replace(':creator', 'creator1').replace(':error', '404');
  if (url.includes(':')) throw new Error(`a11y.spec.ts: give ${route.path} a value for its parameter`);
  return url === '/auth/pass' ? '/auth/pass?code=123456' : url;
}

const tokens = new Map<Who, { token: string; user: unknown }>();

/** A live offer link of creator1's (the offer page as a fan reaching it from a shared link). */
async function offerCode(page: Page): Promise<string> {
  const headers = { authorization: `Bearer ${(await session(page, 'creator1')).token}` };
  const res = await page.request.post('/api/v1/creator/offers/links', {
    headers,
    data: {
      kind: 'trial',
      trialDays: 7,
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      maxUses: 10,
    },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { code: string }).code;
}

async function session(page: Page, who: Exclude<Who, 'visitor'>): Promise<{ token: string; user: unknown }> {
  let found = tokens.get(who);
  if (!found) {
    found = await sessionOf(page.request, who);
    tokens.set(who, found);
  }
  return found;
}

async function open(page: Page, who: Who, url: string): Promise<void> {
  if (who === 'visitor') await acceptAge(page);
  else {
    const { token, user } = await session(page, who);
    await page.addInitScript(
      ([t, u]) => {
        localStorage.setItem('token', t as string);
        localStorage.setItem('user', JSON.stringify(u));
        localStorage.setItem('ageAccepted', 'confirm');
      },
      [token, user] as const,
    );
  }
  await page.goto(url);
  await expect(page.getByTestId('header')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[data-testid=loader],[data-testid=app-loader]')).toHaveCount(0);
}

const SIZES = [
  { name: 'phone', ...PHONE },
  { name: 'desktop', ...DESKTOP },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/**
 * The scan of one page: one width and one colour scheme, taken in turn along the route table
 * (phone light, desktop light, phone dark, desktop dark, …), so every pairing is scanned across the
 * app's shared chrome (header, menus, bottom bar) and every page once. Four scans a page took a
 * quarter of the browser suite on a slow CI machine (axe takes 2–4 s a scan there; ADR 0051).
 */
function scansOf(index: number) {
  const size = SIZES[index % SIZES.length] ?? SIZES[0];
  const colorScheme = SCHEMES[Math.floor(index / SIZES.length) % SCHEMES.length] ?? 'light';
  return [{ size, colorScheme }];
}

const ROUTES = routeTable();

test('the route table is read from router.tsx', () => {
  // Guards against a parser that silently finds nothing (the spec's §2 has more than 40 routes).
  expect(ROUTES.length).toBeGreaterThan(40);
  expect(ROUTES.map((r) => r.path)).toEqual(
    expect.arrayContaining(['/', '/login', '/dashboard/admin/products']),
  );
  expect(ROUTES.find((r) => r.path === '/post/create')?.guard).toBe('creator');
});

for (const [index, route] of ROUTES.entries()) {
  for (const who of viewers(route)) {
    test(`axe: ${route.path} as ${who}`, async ({ page }) => {
      await open(page, who, await concrete(page, route));
      const found: string[] = [];
      for (const { size, colorScheme } of scansOf(index)) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        const results = await new AxeBuilder({ page }).analyze();
        for (const v of results.violations) {
          if (v.impact !== 'serious' && v.impact !== 'critical') continue;
          found.push(
            `${size.name}/${colorScheme}: ${v.id} (${v.impact}) ${v.nodes
              .slice(0, 3)
              .map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`)
              .join(' | ')}`,
          );
        }
      }
      expect(found).toEqual([]);
    });
  }
}
