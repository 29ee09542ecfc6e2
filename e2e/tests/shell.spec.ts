import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { acceptAge, DESKTOP, login, loginByApi, newestMail, PHONE, sessionOf, shot } from './helpers.ts';

/** The first published post, as any visitor can list it. */
async function firstPostId(page: Page): Promise<string> {
  const res = await page.request.get('/api/v1/posts?limit=1');
  const { posts } = (await res.json()) as { posts: { _id: string }[] };
  if (!posts[0]) throw new Error('no demo post');
  return posts[0]._id;
}

async function expectNoCriticalA11yIssues(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(serious.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
}

test.describe('visitors', () => {
  test('age advice shows first and stays accepted', async ({ page }, info) => {
    await page.goto('/');
    const advice = page.getByTestId('age-advice');
    await expect(advice).toBeVisible();
    await shot(page, info, 'age-advice-desktop');
    // The page behind the open notice is inert once the app has taken over, as behind any modal.
    const rootInert = () => page.evaluate(() => document.getElementById('root')?.inert);
    expect(await rootInert()).toBe(true);
    await page.getByTestId('age-accept').click();
    await expect(advice).toBeHidden();
    expect(await rootInert()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('ageAccepted'))).toBe('confirm');
    await page.reload();
    await expect(page.getByTestId('header')).toBeVisible();
    await expect(advice).toBeHidden();
  });

  test("the age notice can be answered before the page's script runs (a slow connection, or none)", async ({
    browser,
  }, info) => {
    // No script at all: what a visitor on a slow connection sees until the app has loaded.
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/');
    // The server's first view (its test ids are renamed until the app takes over).
    const advice = page.locator('[data-fv-testid=age-advice]');
    await expect(advice).toBeVisible();
    await expect(advice.locator('[data-fv-testid=age-leave]')).toHaveAttribute('href', /^https:\/\//);
    // The keyboard reaches the notice alone: the page behind it is inert until the app takes over
    // (its links, two, its answers, two, then out of the page).
    const focused = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        if (!active || active === document.body) return 'nothing';
        if (document.getElementById('root')?.contains(active))
          return `the page: ${active.outerHTML.slice(0, 80)}`;
        return document.querySelector('[data-fv-testid=age-advice]')?.contains(active)
          ? 'the notice'
          : 'elsewhere';
      });
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await focused(), `Tab ${i + 1}`).toBe('the notice');
    }
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      expect(await focused(), `Tab ${i + 5}`).not.toMatch(/^the page/);
    }
    await advice.locator('[data-fv-testid=age-accept]').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('[data-fv-testid=post-card]').first()).toBeVisible();
    await expect(advice).toHaveCount(0);
    await shot(page, info, 'age-accepted-without-script-phone');
    expect((await context.cookies()).find((c) => c.name === 'fv_age')?.value).toBe('1');
    await context.close();
  });

  test('Spanish is kept after a reload', async ({ page }) => {
    await acceptAge(page);
    await page.goto('/about');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.getByTestId('language-selector').selectOption('es');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByTestId('about-page')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('es');
    await expect(page.getByTestId('login-link')).toHaveText(/Iniciar sesión|Entrar/i);
  });

  test("the visitor landing's server texts follow a language switch without a reload", async ({ page }) => {
    await acceptAge(page);
    await page.goto('/');
    const title = page.getByTestId('view-landing').getByRole('heading', { level: 1 });
    await expect(title).toHaveText('Your favourite creators, closer than ever');
    await page.getByTestId('language-selector').selectOption('es');
    await expect(title).toHaveText('Tus creadores favoritos, más cerca que nunca');
  });

  test('the 404 page, the 500 page with Reload, and /error/api when the API is down', async ({
    page,
  }, info) => {
    await acceptAge(page);
    await page.goto('/some/unknown/path');
    await expect(page.getByTestId('not-found-text')).toContainText('Sorry - Page not found');
    await shot(page, info, 'not-found-desktop');
    await page.goto('/error/500');
    await expect(page.getByTestId('server-error-text')).toContainText('Server error');
    await expect(page.getByTestId('reload-button')).toBeVisible();
    await page.route('**/api/v1/?view=home', (route) => route.abort());
    await page.route('**/api/v1?view=home', (route) => route.abort());
    // Not the home page: its server-rendered first view brings the start-up data (ADR 0048).
    await page.goto('/about');
    await expect(page).toHaveURL(/\/error\/api$/);
    await expect(page.getByTestId('api-error-page')).toBeVisible();
    await shot(page, info, 'error-api-desktop');
  });

  test('sign up: a bad username is marked, a good one creates the account', async ({ page }, info) => {
    await acceptAge(page);
    await page.goto('/signup');
    const username = `e2e${Date.now().toString(36)}`.slice(0, 16);
    await page.getByTestId('field-username').fill('bad name!');
    await page.getByTestId('field-name').fill('E2E Person');
    await page.getByTestId('field-email').fill(`${username}@example.com`);
    await page.getByTestId('field-password').fill('a-strong-pass-1');
    await page.getByTestId('field-birthdate').fill('1990-05-05');
    await page.getByTestId('field-acceptTerms').check();
    await page.getByTestId('signup-submit').click();
    await expect(page.getByTestId('field-error-username')).toBeVisible();
    await expect(page.getByTestId('field-username')).toHaveAttribute('aria-invalid', 'true');
    await shot(page, info, 'signup-error-desktop');
    await page.getByTestId('field-username').fill(username);
    await page.getByTestId('signup-submit').click();
    await expect(page).not.toHaveURL(/\/signup/);
    await expect(page.getByTestId('user-menu-button')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  });

  test('a logged-out like goes to login and is done after logging in', async ({ page }) => {
    await acceptAge(page);
    const id = await firstPostId(page);
    await page.goto(`/post/${id}`);
    await page.getByTestId('post-like').first().click();
    await expect(page).toHaveURL(/\/login/);
    await page.getByTestId('field-login').fill('fanuser2');
    await page.getByTestId('field-password').fill('fanverse-demo');
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(new RegExp(`/post/${id}`));
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await expect
      .poll(async () => {
        const res = await page.request.get(`/api/v1/posts?post=${id}`, {
          headers: { a1sledom: token ?? '' },
        });
        return ((await res.json()) as { posts: { liked: boolean }[] }).posts[0]?.liked;
      })
      .toBe(true);
  });

  test('password reset by code from the outbox, then login with the new password', async ({
    page,
    request,
  }) => {
    await acceptAge(page);
    const username = `reset${Date.now().toString(36)}`.slice(0, 16);
    const email = `${username}@example.com`;
    const signup = await request.post('/api/v1/auth/signup', {
      data: {
        username,
        name: 'Reset Me',
        email,
        password: 'old-password-1',
        birthdate: '1991-01-01',
        acceptTerms: true,
      },
    });
    expect(signup.ok()).toBe(true);
    await page.goto('/auth/pass');
    await expect(page).toHaveURL(/\/auth\/code/);
    await page.getByTestId('field-email').fill(email);
    await page.getByTestId('reset-code-submit').click();
    await expect(page.getByTestId('reset-code-sent')).toBeVisible();
    const mail = await newestMail(request, email);
    const code = /: (\d{6})\n/.exec(mail.text)?.[1];
    expect(code).toBeTruthy();
    // The code step leads to the password step with the account's email filled in.
    await page.getByTestId('field-code').fill(code ?? '');
    await page.getByTestId('reset-code-continue').click();
    await expect(page).toHaveURL(/\/auth\/pass\?/);
    await expect(page.getByTestId('field-email')).toHaveValue(email);
    await page.getByTestId('field-password').fill('new-password-2');
    await page.getByTestId('field-repeat').fill('new-password-2');
    await page.getByTestId('reset-pass-submit').click();
    await expect(page).toHaveURL(/\/login/);
    await page.getByTestId('field-login').fill(username);
    await page.getByTestId('field-password').fill('new-password-2');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('user-menu-button')).toBeVisible();
  });
});

test.describe('the session cookie of page loads (fv_session, ADR 0048)', () => {
  const sessionCookie = async (page: Page) =>
    (await page.context().cookies()).find((c) => c.name === 'fv_session')?.value ?? null;

  test('is set at sign-in and cleared at sign-out; the next page load is a visitor’s', async ({ page }) => {
    await acceptAge(page);
    await login(page, 'fanuser1');
    await expect.poll(() => sessionCookie(page)).not.toBeNull();
    await page.goto('/');
    await expect(page.locator('#fv-first-view')).toHaveCount(1);
    expect(await page.locator('#fv-first-view').textContent()).not.toContain('"viewer":null');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('logout-button').click();
    await expect.poll(() => sessionCookie(page)).toBeNull();
    await page.goto('/');
    expect(await page.locator('#fv-first-view').textContent()).toContain('"viewer":null');
  });

  test('is cleared when the session already ended on the server', async ({ page, request }) => {
    const { token, user } = await sessionOf(request, 'fanuser1', { fresh: true });
    await page.addInitScript(
      ([t, u]) => {
        if (sessionStorage.getItem('e2e-once')) return;
        sessionStorage.setItem('e2e-once', '1');
        window.localStorage.setItem('token', t as string);
        window.localStorage.setItem('user', JSON.stringify(u));
        window.localStorage.setItem('ageAccepted', 'confirm');
      },
      [token, user] as const,
    );
    // A page rendered for a visitor, opened with a session: the app has the cookie set.
    await page.goto('/');
    await expect.poll(() => sessionCookie(page)).toBe(token);
    const out = await request.post('/api/v1/auth/logout', { headers: { a1sledom: token } });
    expect(out.ok()).toBe(true);
    // A page without a first view: the app learns the session is over (401 at start-up) and signs
    // out, and its DELETE (no token left to send) clears the cookie.
    await page.goto('/about');
    await expect.poll(() => sessionCookie(page)).toBeNull();
    await expect(page.getByTestId('user-menu-button')).toHaveCount(0);
  });
});

test.describe('guards and where each path lands', () => {
  const table: { path: string; as: string | null; lands: RegExp; testId?: string }[] = [
    { path: '/post/create', as: null, lands: /\/$/ },
    { path: '/post/create', as: 'fanuser1', lands: /\/$/ },
    { path: '/post/create', as: 'creator1', lands: /\/post\/create$/, testId: 'post-editor' },
    { path: '/dashboard', as: 'fanuser1', lands: /\/$/ },
    { path: '/dashboard', as: 'creator1', lands: /\/$/ },
    { path: '/dashboard', as: 'superadmin', lands: /\/dashboard$/, testId: 'dashboard' },
    {
      path: '/dashboard/admin/products',
      as: 'superadmin',
      lands: /\/dashboard\/admin\/products$/,
      testId: 'admin-products',
    },
    { path: '/creator1', as: null, lands: /\/login$/ },
    { path: '/@creator1', as: 'fanuser1', lands: /\/creator1$/, testId: 'creator-page' },
    { path: '/user', as: 'fanuser1', lands: /\/\?feed=my-profile$/, testId: 'my-profile' },
    { path: '/user/credits', as: 'fanuser1', lands: /\/\?feed=my-credits$/ },
    { path: '/user/subscriptions', as: 'fanuser1', lands: /\/\?feed=my-subscriptions$/ },
    { path: '/user/gifts', as: 'creator1', lands: /\/\?feed=creator-statistics$/ },
    { path: '/gallery', as: 'fanuser1', lands: /\/\?feed=gallery$/ },
    { path: '/login', as: 'fanuser1', lands: /\/$/ },
    { path: '/auth/code', as: 'fanuser1', lands: /\/$/ },
    { path: '/home', as: null, lands: /\/home$/, testId: 'home-view' },
    { path: '/members', as: 'fanuser1', lands: /\/members$/, testId: 'home-view' },
    { path: '/support/faq', as: null, lands: /\/support\/faq$/, testId: 'support-faq' },
    { path: '/error/test', as: null, lands: /\/error\/test$/, testId: 'error-code-page' },
  ];
  for (const row of table) {
    test(`${row.path} as ${row.as ?? 'visitor'}`, async ({ page, request }) => {
      if (row.as) await loginByApi(page, request, row.as, row.path);
      else {
        await acceptAge(page);
        await page.goto(row.path);
      }
      await expect(page).toHaveURL(row.lands);
      if (row.testId) await expect(page.getByTestId(row.testId)).toBeVisible();
    });
  }
});

test.describe('main screens: screenshots and accessibility', () => {
  const screens = [
    { name: 'home', path: '/', as: null },
    { name: 'login', path: '/login', as: null },
    { name: 'signup', path: '/signup', as: null },
    { name: 'terms', path: '/terms', as: null },
    { name: 'help', path: '/help', as: null },
    { name: 'contact', path: '/contact', as: null },
    { name: 'my-profile', path: '/?feed=my-profile', as: 'fanuser1' },
    { name: 'home-fan', path: '/', as: 'fanuser1' },
  ] as const;
  for (const viewport of [
    { label: 'desktop', size: DESKTOP },
    { label: 'mobile', size: PHONE },
  ]) {
    for (const s of screens) {
      test(`${s.name} at ${viewport.label}`, async ({ page, request }, info) => {
        await page.setViewportSize(viewport.size);
        if (s.as) await loginByApi(page, request, s.as, s.path);
        else {
          await acceptAge(page);
          await page.goto(s.path);
        }
        await expect(page.getByTestId('header')).toBeVisible();
        await page.waitForLoadState('networkidle');
        await shot(page, info, `${s.name}-${viewport.label}`);
        await expectNoCriticalA11yIssues(page, `${s.name}-${viewport.label}`);
      });
    }
  }

  for (const language of ['en', 'es'] as const) {
    test(`at phone width in ${language} the brand name fits the header, for a visitor and a fan`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize(PHONE);
      const brandFits = async () => {
        const logo = page.getByTestId('logo');
        await expect(logo).toBeVisible();
        return logo.evaluate((el) => el.scrollWidth <= el.clientWidth);
      };
      await acceptAge(page);
      await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
      await page.goto('/about');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      expect(await brandFits()).toBe(true);
      await loginByApi(page, request, 'fanuser1', '/about');
      await expect(page.getByTestId('user-menu-button')).toBeVisible();
      expect(await brandFits()).toBe(true);
    });
  }

  test('the header is 49 px high in the brand colour, and keyboard focus is visible', async ({ page }) => {
    await acceptAge(page);
    await page.goto('/about');
    const box = await page.getByTestId('header').boundingBox();
    expect(box?.height).toBe(49);
    const bg = await page.getByTestId('header').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).toBe('rgb(189, 9, 9)');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return 'none';
      const s = getComputedStyle(el);
      return `${s.outlineStyle} ${s.boxShadow}`;
    });
    expect(outline).not.toBe('none none');
  });
});
