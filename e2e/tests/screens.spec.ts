// Screenshots of the main screens at phone (390 px) and desktop (1280 px) width, light and dark,
// English and Spanish, under e2e/artifacts/screens (issue 14). Each screen also checks that the
// page shows its content in the chosen language, so a blank or half-translated page fails.
import { expect, test } from '@playwright/test';
import { loginByApi, shot } from './helpers.ts';

const WIDTHS = [
  { name: '390', viewport: { width: 390, height: 844 } },
  { name: '1280', viewport: { width: 1280, height: 800 } },
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
] as const;

for (const screen of SCREENS) {
  for (const language of LANGUAGES) {
    test(`${screen.name} (${language}) at 390 and 1280, light and dark`, async ({ page, request }, info) => {
      await page.addInitScript((l) => window.localStorage.setItem('language', l), language);
      for (const width of WIDTHS) {
        await page.setViewportSize(width.viewport);
        for (const scheme of SCHEMES) {
          await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
          if (width === WIDTHS[0] && scheme === 'light')
            await loginByApi(page, request, screen.who, screen.path);
          else await page.goto(screen.path);
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
