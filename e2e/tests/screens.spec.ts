// Screenshots of the main screens at phone (390 px) and desktop (1280 px) width, light and dark,
// English and Spanish, under e2e/artifacts/screens (issue 14). Each screen also checks that the
// page shows its content in the chosen language, so a blank or half-translated page fails.
import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, DESKTOP, loginByApi, PHONE, shot } from './helpers.ts';

const WIDTHS = [
  { name: String(PHONE.width), viewport: PHONE },
  { name: String(DESKTOP.width), viewport: DESKTOP },
] as const;
const SCHEMES = ['light', 'dark'] as const;
const LANGUAGES = ['en', 'es'] as const;

/** Screen, who looks at it, where, and a text that proves it rendered in each language. */
const SCREENS = [
  {
    name: 'home',
    who: 'fanuser1',
    path: '/',
    ready: { en: 'Your feed', es: 'Tu feed' },
    testId: 'view-home',
  },
  {
    name: 'creator',
    who: 'fanuser1',
    path: '/creator1',
    ready: { en: 'Posts', es: 'Publicaciones' },
    testId: 'creator-page',
  },
  {
    name: 'post',
    who: 'fanuser1',
    // The first post of the fan's home feed (resolved in the test).
    path: '/post/{first}',
    ready: { en: 'Post', es: 'Publicación' },
    testId: 'post-page',
  },
  {
    name: 'messages',
    who: 'fanuser1',
    path: '/?messages=wall',
    ready: { en: 'Messages', es: 'Mensajes' },
    testId: 'overlay-messages',
  },
  {
    name: 'credits',
    who: 'fanuser1',
    path: '/?feed=my-credits',
    ready: { en: 'My credits', es: 'Mis créditos' },
    testId: 'view-feed-my-credits',
  },
  {
    name: 'statistics',
    who: 'creator3',
    path: '/?feed=creator-statistics',
    ready: { en: 'Creator statistics', es: 'Estadísticas de creador' },
    testId: 'view-feed-creator-statistics',
  },
  {
    name: 'profile',
    who: 'fanuser1',
    path: '/?feed=my-profile',
    ready: { en: 'Edit profile', es: 'Editar perfil' },
    testId: 'my-profile',
  },
  {
    name: 'editor',
    who: 'creator1',
    path: '/post/create',
    ready: { en: 'New post', es: 'Nueva publicación' },
    testId: 'post-editor',
  },
] as const;

for (const screen of SCREENS) {
  for (const language of LANGUAGES) {
    test(`${screen.name} (${language}) at 390 and 1280, light and dark`, async ({ page, request }, info) => {
      await page.addInitScript((l) => window.localStorage.setItem('language', l), language);
      let path: string = screen.path;
      if (path.includes('{first}')) {
        const login = await request.post('/api/v1/auth/login', {
          data: { login: screen.who, password: DEMO_PASSWORD },
        });
        const { token } = (await login.json()) as { token: string };
        const feed = await request.get('/api/v1/posts', { headers: { a1sledom: token } });
        const { posts } = (await feed.json()) as { posts: { _id: string }[] };
        path = path.replace('{first}', posts[0]?._id ?? 'none');
      }
      for (const width of WIDTHS) {
        await page.setViewportSize(width.viewport);
        for (const scheme of SCHEMES) {
          await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
          if (width === WIDTHS[0] && scheme === 'light') await loginByApi(page, request, screen.who, path);
          else await page.goto(path);
          const view = page.getByTestId(screen.testId);
          await expect(view).toBeVisible();
          await expect(page.locator('html')).toHaveAttribute('lang', language);
          await expect(page.locator('body')).toContainText(screen.ready[language]);
          await expect(page.locator('[data-testid="loader"]')).toHaveCount(0);
          await page.waitForTimeout(350); // modal and page transitions (250 / 300 ms) settle
          await shot(page, info, `ux-${screen.name}-${width.name}-${scheme}-${language}`);
        }
      }
    });
  }
}
