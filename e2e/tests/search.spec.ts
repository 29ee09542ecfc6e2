import { expect, test } from '@playwright/test';
import { DESKTOP, openWithToken, PHONE, shot, signUpFan } from './helpers.ts';

test.describe('finding a creator', () => {
  test('desktop: a new fan types "lnua" in the header and reaches Luna in two clicks', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    const fan = await signUpFan(request, 'srchd');
    await openWithToken(page, fan.token, fan.user, '/');
    const field = page.getByTestId('header-search-input');
    await field.click(); // first click
    await field.pressSequentially('lnua', { delay: 40 });
    const luna = page.getByTestId('header-search-suggestion').filter({ hasText: 'Luna Rivera' });
    await expect(luna).toBeVisible();
    await shot(page, info, 'search-suggestions-en-1280');
    await luna.click(); // second click
    await expect(page).toHaveURL(/\/creator1$/);
    await expect(page.getByTestId('creator-follow')).toBeVisible();

    // Enter opens Explore with every creator and post found, in Spanish too.
    await page.getByTestId('language-selector').selectOption('es');
    await field.fill('rivra');
    await field.press('Enter');
    await expect(page).toHaveURL(/explore=1&q=rivra/);
    await expect(page.getByTestId('explore-results')).toContainText('Luna Rivera');
    await expect(page.getByTestId('explore-posts')).toBeVisible();
    await shot(page, info, 'search-explore-es-1280');
  });

  test('phone: the same from the bottom navigation, and the header search opens over the header', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(PHONE);
    const fan = await signUpFan(request, 'srchp');
    await openWithToken(page, fan.token, fan.user, '/');
    await page.getByTestId('bottom-explore').click(); // first click
    await page.getByTestId('explore-search').fill('lnua');
    const luna = page
      .getByTestId('explore-results')
      .getByTestId('explore-creator')
      .filter({ hasText: 'Luna Rivera' });
    await expect(luna).toBeVisible();
    await shot(page, info, 'search-explore-en-390');
    await luna.click(); // second click
    await expect(page).toHaveURL(/\/creator1$/);

    await page.getByTestId('language-selector').selectOption('es');
    await page.getByTestId('header-search-button').click();
    await page.getByTestId('header-search-input').pressSequentially('luan', { delay: 40 });
    await expect(page.getByTestId('header-search-suggestion').first()).toContainText('Luna Rivera');
    await shot(page, info, 'search-suggestions-es-390');
    await page.getByTestId('header-search-suggestion').first().click();
    await expect(page).toHaveURL(/\/creator1$/);
  });
});

test('a shared creator link carries its preview tags in the HTML the server answers', async ({ request }) => {
  const page = await request.get('/creator1');
  expect(page.ok()).toBe(true);
  const html = await page.text();
  expect(html).toContain('<meta property="og:title" content="Luna Rivera (@creator1)');
  expect(html).toContain('<meta property="og:description" content="Fitness, travel');
  expect(html).toContain('<meta name="twitter:card"');
  // The app still boots from the same page (its root holds the first-paint shell, ADR 0046).
  expect(html).toContain('<div id="root">');
  expect(html).toContain('<script type="module"');
  const other = await (await request.get('/help')).text();
  expect(other).not.toContain('og:title');
});
