import { type APIRequestContext, expect, test } from '@playwright/test';
import { DEMO_PASSWORD, DESKTOP, loginByApi, PHONE, shot } from './helpers.ts';

/** A few sales through the API as fanuser1: a tip of 10 credits to creator1, flowers to creator2. */
async function makeSales(request: APIRequestContext): Promise<void> {
  const login = await request.post('/api/v1/auth/login', {
    data: { login: 'fanuser1', password: DEMO_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const headers = { a1sledom: token };
  const tip = await request.post('/api/v1/tips', { headers, data: { creator: 'creator1', credits: 10 } });
  expect(tip.ok(), await tip.text()).toBe(true);
  const gift = await request.post('/api/v1/gifts', {
    headers,
    data: { creator: 'creator2', kind: 'flowers' },
  });
  expect(gift.ok(), await gift.text()).toBe(true);
}

test.describe('admin statistics and the super dashboard', () => {
  test('superadmin reads the sales with a chart, switches period and order, pages the creators', async ({
    page,
    request,
  }, info) => {
    await makeSales(request);
    await page.setViewportSize(DESKTOP);
    await loginByApi(page, request, 'superadmin', '/?admin=sales');
    const sales = page.getByTestId('stats-page-sales');
    await expect(sales).toBeVisible();
    await expect(page.getByTestId('stats-chart').locator('canvas')).toHaveAttribute('role', 'img');
    await expect(page.getByTestId('stats-table')).toBeVisible();
    // The tips just made are in the period's totals (integer cents shown as dollars).
    const tips = page.getByTestId('stats-total-tips');
    await expect(tips).toBeVisible();
    await expect(tips.locator('dd')).not.toHaveText('$0.00');
    await expect(page.getByTestId('stats-total-flowers').locator('dd')).not.toHaveText('$0.00');
    await shot(page, info, 'stats-sales-desktop');

    // Another period and the other order, kept in the address.
    await page.getByTestId('stats-period').selectOption('year');
    await expect(page).toHaveURL(/period=year/);
    await expect(page.getByTestId('stats-sort')).toHaveAttribute('data-sort', 'desc');
    await page.getByTestId('stats-sort').click();
    await expect(page.getByTestId('stats-sort')).toHaveAttribute('data-sort', 'asc');
    await expect(page).toHaveURL(/sort=asc/);
    await expect(page.getByTestId('stats-chart')).toBeVisible();
    await expect(page.getByTestId('stats-total-tips').locator('dd')).not.toHaveText('$0.00');

    // Every statistics page answers items and totals.
    for (const name of ['home', 'bags', 'fans', 'users', 'salesByCreator']) {
      await page.getByTestId(`stats-tab-${name}`).click();
      await expect(page.getByTestId(`stats-page-${name}`)).toBeVisible();
      await expect(page.getByTestId('stats-totals')).toBeVisible();
      await expect(page.getByTestId('alert')).toHaveCount(0);
    }

    // Creators: totalCreators shown, pages on until hasMore is false.
    await page.goto('/?admin=statistics&page=creators&period=all');
    await expect(page.getByTestId('stats-page-creators')).toBeVisible();
    const totalCreators = page.getByTestId('stats-total-totalCreators');
    await expect(totalCreators.locator('dd')).toHaveText(/^[1-9]\d*$/);
    const pager = page.getByTestId('stats-pager');
    await expect(pager).toBeVisible();
    await expect(page.getByTestId('stats-row').first()).toBeVisible();
    await shot(page, info, 'stats-creators');
    for (let i = 0; i < 20 && (await pager.getAttribute('data-has-more')) === 'true'; i++) {
      await page.getByTestId('stats-next').click();
      await expect(page).toHaveURL(new RegExp(`p=${i + 2}`));
    }
    await expect(pager).toHaveAttribute('data-has-more', 'false');
    await expect(page.getByTestId('stats-next')).toBeDisabled();

    // The admin menu leads to the statistics too.
    await page.goto('/?admin=home');
    await page
      .getByRole('link', { name: /statistics/i })
      .first()
      .click();
    await expect(page.getByTestId('stats-page-home')).toBeVisible();
  });

  test('at phone width the sales statistics keep the chart and a readable table', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(PHONE);
    // In Spanish: texts from the statistics namespace, dollars in the Spanish format.
    await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
    await loginByApi(page, request, 'superadmin', '/?admin=statistics&page=sales&period=year');
    await expect(page.getByTestId('stats-page-sales')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Ventas', exact: true })).toBeVisible();
    await expect(page.getByTestId('stats-total-tips').locator('dd')).toContainText('US$');
    await expect(page.getByTestId('stats-chart')).toBeVisible();
    const box = await page.getByTestId('stats-chart').boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(PHONE.width);
    await shot(page, info, 'stats-sales-phone');
    await page.getByTestId('stats-table').scrollIntoViewIfNeeded();
    await shot(page, info, 'stats-sales-phone-table');
  });

  test('super dashboard: overview, commission, settings and credit bags', async ({ page, request }, info) => {
    await page.setViewportSize(DESKTOP);
    await loginByApi(page, request, 'superadmin', '/dashboard');
    await expect(page.getByTestId('dashboard')).toBeVisible();
    const overview = page.getByTestId('dashboard-overview');
    await expect(overview.getByTestId('overview-users').locator('dd')).toHaveText(/^[1-9][\d,]*$/);
    await expect(page.getByTestId('dashboard-payouts-settings')).toContainText('Weekly');
    await expect(page.getByTestId('admin-user-row').filter({ hasText: 'superadmin' })).toBeVisible();

    // The commission: out of range is refused in the page, a valid value saves and stays.
    const input = page.getByTestId('commission-input');
    await expect(input).not.toHaveValue('');
    const current = await input.inputValue();
    await input.fill('101');
    await page.getByTestId('commission-save').click();
    await expect(page.getByTestId('commission-error')).toBeVisible();
    await input.fill(current);
    await page.getByTestId('commission-save').click();
    await expect(page.getByTestId('commission-saved')).toContainText(`${current} %`);
    await shot(page, info, 'stats-dashboard');

    // Products: edit a bag's price, confirm, and see it in the list.
    await page.getByTestId('dashboard-tab-products').click();
    await expect(page).toHaveURL(/\/dashboard\/admin\/products/);
    const row = page.locator('[data-testid="product-row"][data-id="bag-50"]');
    await expect(row).toBeVisible();
    await row.getByTestId('product-edit').click();
    const dialog = page.getByTestId('product-dialog');
    await dialog.getByTestId('field-price').fill('abc');
    await page.getByTestId('product-save').click();
    await expect(dialog.locator('[aria-invalid="true"]')).toHaveCount(1);
    const cents = 500 + (Date.now() % 50);
    const price = (cents / 100).toFixed(2);
    await dialog.getByTestId('field-price').fill(price);
    await page.getByTestId('product-save').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText(`$${price}`);
    await page.getByTestId('confirm-ok').click();
    await expect(page.getByTestId('product-notice')).toBeVisible();
    await expect(row.getByTestId('product-price')).toContainText(`$${price}`);
    await shot(page, info, 'stats-products');

    // Gift prices: out of range is refused in the page; a new price saves, then the demo price returns.
    const gifts = page.getByTestId('gift-prices');
    await expect(page.getByTestId('gift-price-flowers')).toHaveValue('10');
    await page.getByTestId('gift-price-flowers').fill('0');
    await page.getByTestId('gift-prices-save').click();
    await expect(page.getByTestId('gift-prices-error')).toContainText('1 to 10,000');
    await page.getByTestId('gift-price-flowers').fill('12');
    await page.getByTestId('gift-prices-save').click();
    await expect(page.getByTestId('gift-prices-saved')).toContainText('flowers 12 credits');
    await gifts.scrollIntoViewIfNeeded();
    await shot(page, info, 'stats-products-gifts');
    await page.getByTestId('gift-price-flowers').fill('10');
    await page.getByTestId('gift-prices-save').click();
    await expect(page.getByTestId('gift-prices-saved')).toContainText('flowers 10 credits');
    // Put the demo price back so other journeys see the bag of 50 at $5.00.
    await row.getByTestId('product-edit').click();
    await page.getByTestId('product-dialog').getByTestId('field-price').fill('5.00');
    await page.getByTestId('product-save').click();
    await page.getByTestId('confirm-ok').click();
    await expect(row.getByTestId('product-price')).toContainText('$5.00');
  });

  test('super dashboard: how many private videos still wait for the invisible mark (ADR 0041)', async ({
    page,
    request,
  }, info) => {
    for (const language of ['en', 'es'] as const) {
      await page.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
      for (const [width, viewport] of [
        ['phone', PHONE],
        ['desktop', DESKTOP],
      ] as const) {
        await page.setViewportSize(viewport);
        await loginByApi(page, request, 'superadmin', '/dashboard');
        const section = page.getByTestId('dashboard-video-mark');
        await section.scrollIntoViewIfNeeded();
        // The demo's videos were encoded with the mark: none is left.
        await expect(page.getByTestId('video-mark-remaining')).toHaveText('0');
        await expect(section).toContainText(
          language === 'es'
            ? 'Todos los vídeos privados llevan la marca invisible de cada fan.'
            : "Every private video carries each fan's invisible mark.",
        );
        await shot(page, info, `dashboard-video-mark-${language}-${width}`);
      }
    }
  });

  test('super changes the payout period, holding time and feature switches, and manages administrators', async ({
    page,
    browser,
    request,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    const token = await loginByApi(page, request, 'superadmin', '/dashboard');
    const restore = () =>
      request.patch('/api/v1/admin/settings', {
        headers: { a1sledom: token },
        data: {
          payoutPeriod: 'weekly',
          holdDays: 7,
          features: {
            signups: true,
            creatorApplications: true,
            tips: true,
            giftsAndFlowers: true,
            paidMessages: true,
          },
        },
      });
    try {
      // Payouts: a holding time out of range is refused in the page; a valid change saves.
      const payouts = page.getByTestId('dashboard-payouts-settings');
      await expect(page.getByTestId('setting-payout-weekly')).toBeChecked();
      await page.getByTestId('setting-hold-days').fill('120');
      await page.getByTestId('payouts-save').click();
      await expect(page.getByTestId('payouts-error')).toContainText('0 to 90');
      await page.getByTestId('setting-payout-15days').check();
      await page.getByTestId('setting-hold-days').fill('3');
      await page.getByTestId('payouts-save').click();
      await expect(page.getByTestId('payouts-saved')).toContainText('Every 15 days');
      await expect(payouts).toContainText('3 days');

      // Switches: tips, flowers and gifts, and sign-ups off.
      for (const name of ['tips', 'giftsAndFlowers', 'signups'])
        await page.getByTestId(`feature-${name}`).uncheck();
      await page.getByTestId('features-save').click();
      await expect(page.getByTestId('features-saved')).toBeVisible();
      await page.reload();
      await expect(page.getByTestId('setting-payout-15days')).toBeChecked();
      await expect(page.getByTestId('setting-hold-days')).toHaveValue('3');
      await expect(page.getByTestId('feature-tips')).not.toBeChecked();
      await page.getByTestId('dashboard-payouts-settings').scrollIntoViewIfNeeded();
      await shot(page, info, 'stats-dashboard-settings');

      // The fan no longer sees a tip button; the creator reads the new period; a visitor cannot sign up.
      const fanContext = await browser.newContext({ viewport: DESKTOP });
      const fan = await fanContext.newPage();
      await loginByApi(fan, request, 'fanuser1', '/creator1');
      await expect(fan.getByTestId('creator-page')).toBeVisible();
      await expect(fan.getByTestId('tip-button')).toHaveCount(0);
      await fanContext.close();
      const creatorContext = await browser.newContext({ viewport: DESKTOP });
      const creator = await creatorContext.newPage();
      await loginByApi(creator, request, 'creator1', '/user/gifts');
      await expect(creator.getByTestId('earnings-next-payout')).toContainText('paid every 15 days');
      await creatorContext.close();
      const visitorContext = await browser.newContext({ viewport: DESKTOP });
      const visitor = await visitorContext.newPage();
      await visitor.addInitScript(() => window.localStorage.setItem('ageAccepted', 'confirm'));
      await visitor.goto('/signup');
      await expect(visitor.getByTestId('signup-paused')).toContainText('paused');
      await expect(visitor.getByTestId('signup-form')).toHaveCount(0);
      await visitorContext.close();

      // Administrators: grant fanuser2 the coordinator role, then take it away.
      const admins = page.getByTestId('dashboard-admins');
      await admins.getByTestId('grant-username').fill('nobody-here');
      await admins.getByTestId('grant-submit').click();
      await expect(admins.getByTestId('admins-error')).toContainText('@nobody-here');
      await admins.getByTestId('grant-username').fill('fanuser2');
      await admins.getByTestId('grant-role').selectOption('coord');
      await admins.getByTestId('grant-submit').click();
      await expect(admins.getByTestId('admins-notice')).toContainText('@fanuser2');
      const row = admins.locator('[data-testid="admin-user-row"][data-user="fanuser2"]');
      // Roles are named in the reader's language (issue 14 #2).
      await expect(row.locator('.admin-chip[data-role="coord"]')).toHaveText('Coordinator');
      await row.scrollIntoViewIfNeeded();
      await shot(page, info, 'stats-dashboard-admins');
      await row.getByTestId('revoke-coord').click();
      await expect(row).toHaveCount(0);
    } finally {
      expect((await restore()).ok()).toBe(true);
    }
  });

  test('the super dashboard at phone width', async ({ page, request }, info) => {
    await page.setViewportSize(PHONE);
    await loginByApi(page, request, 'superadmin', '/dashboard');
    await expect(page.getByTestId('dashboard-commission')).toBeVisible();
    await expect(page.getByTestId('overview-users')).toBeVisible();
    await shot(page, info, 'stats-dashboard-phone');
  });

  test('the super dashboard settings in Spanish at phone width', async ({ page, request }, info) => {
    await page.setViewportSize(PHONE);
    await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
    await loginByApi(page, request, 'superadmin', '/dashboard');
    const payouts = page.getByTestId('dashboard-payouts-settings');
    await expect(payouts).toContainText('Periodo de pago');
    await page.getByTestId('setting-hold-days').fill('91');
    await page.getByTestId('payouts-save').click();
    await expect(page.getByTestId('payouts-error')).toContainText('entre 0 y 90');
    await expect(page.getByTestId('dashboard-features')).toContainText('Registros nuevos');
    await payouts.scrollIntoViewIfNeeded();
    await shot(page, info, 'stats-dashboard-settings-es-phone');
    await page.getByTestId('dashboard-features').scrollIntoViewIfNeeded();
    await shot(page, info, 'stats-dashboard-switches-es-phone');
  });
});
