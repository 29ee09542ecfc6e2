import { expect, type Page, test } from '@playwright/test';
import { acceptAge, DESKTOP, shot } from './helpers.ts';

const TAG = '/e2e-analytics/script.js';

/**
 * The start-up answer as a platform with ANALYTICS_SCRIPT_URL set would give it, and the tag
 * itself served locally; every request for the tag is recorded (Chromium's network log).
 * The tests open /about: the home page brings its start-up data in its first view (ADR 0048),
 * which this route does not rewrite.
 */
async function withTag(page: Page): Promise<string[]> {
  const requested: string[] = [];
  await page.route(/\/api\/v1\/?(\?.*)?$/, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({
      response,
      json: { ...body, analytics: { scriptUrl: TAG, siteId: 'fanverse.test' } },
    });
  });
  page.on('request', (request) => {
    if (request.url().includes('/e2e-analytics/')) requested.push(request.url());
  });
  await page.route(`**${TAG}`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: 'window.__analyticsTag = true;' }),
  );
  return requested;
}

test.describe('analytics tag, consent first (spec §7)', () => {
  test('desktop, English: nothing loads before consent; accepting loads the tag, also on the next visit', async ({
    page,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    await acceptAge(page);
    const requested = await withTag(page);
    await page.goto('/about');
    await expect(page.getByTestId('consent-banner')).toBeVisible();
    await shot(page, info, 'consent-en-1280');
    await page.waitForLoadState('networkidle');
    expect(requested).toEqual([]);
    expect(
      await page.evaluate(() => (window as { __analyticsTag?: boolean }).__analyticsTag),
    ).toBeUndefined();
    await page.getByTestId('consent-accept').click();
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    await expect.poll(() => requested.length).toBe(1);
    await expect(page.locator('script[data-analytics-tag]')).toHaveAttribute('data-domain', 'fanverse.test');
    await page.reload();
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    await expect.poll(() => requested.length).toBe(2);
  });

  test('phone, Spanish: declining never loads the tag', async ({ page }, info) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await acceptAge(page);
    const requested = await withTag(page);
    await page.goto('/about');
    await page.getByTestId('language-selector').selectOption('es');
    await expect(page.getByTestId('consent-banner')).toContainText('estadísticas');
    await shot(page, info, 'consent-es-390');
    await page.getByTestId('consent-deny').click();
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    await page.reload();
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    expect(requested).toEqual([]);
  });

  test('without a configured tag there is no banner and no tag', async ({ page }) => {
    await acceptAge(page);
    await page.goto('/');
    await expect(page.getByTestId('header')).toBeVisible();
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    await expect(page.locator('script[data-analytics-tag]')).toHaveCount(0);
  });
});
