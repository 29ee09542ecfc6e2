import { type APIRequestContext, expect, test } from '@playwright/test';
import { approveOnBillingPage, DEMO_PASSWORD, DESKTOP, loginByApi, PHONE, shot } from './helpers.ts';

interface ApiPost {
  _id: string;
  visibility: 'free' | 'subscribers' | 'ppv';
  finalPrice: number;
  access: boolean;
}

/** The posts of a creator as the holder of `token` sees them. */
async function postsOf(request: APIRequestContext, token: string, creator: string): Promise<ApiPost[]> {
  const res = await request.get(`/api/v1/posts?creator=${creator}`, { headers: { a1sledom: token } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { posts: ApiPost[] }).posts;
}

test.describe.configure({ mode: 'serial' });

/** creator2's subscription sales this month, in cents (what the earnings table's row shows). */
async function subscriptionSales(request: APIRequestContext): Promise<number> {
  const login = await request.post('/api/v1/auth/login', {
    data: { login: 'creator2', password: DEMO_PASSWORD },
  });
  const { token } = (await login.json()) as { token: string };
  const res = await request.get('/api/v1/creator/earnings?period=month', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { sales: { subscriptions: { amount: number } } }).sales.subscriptions.amount;
}

test('a fan buys credits, unlocks, tips, subscribes and cancels; the creator sees it', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const token = await loginByApi(page, request, 'fanuser2', '/?feed=my-credits');

  // my-credits: balance 0 and exactly the three bags; Buy leaves for the hosted billing page.
  await expect(page.getByTestId('credits-balance')).toHaveText(/^0 credits$/);
  for (const credits of [250, 150, 50]) await expect(page.getByTestId(`credit-bag-${credits}`)).toBeVisible();
  await expect(page.locator('[data-testid^="credit-bag-buy-"]')).toHaveCount(3);
  await page.getByTestId('credits-menu-button').click();
  await expect(page.getByTestId('credits-menu')).toBeVisible();
  await page.getByTestId('credits-menu-button').click();

  await page.getByTestId('credit-bag-buy-50').click();
  await approveOnBillingPage(page, 'money-billing-page');
  await expect(page).toHaveURL(/\?feed=my-credits/);
  await expect(page.getByTestId('credits-balance')).toHaveText(/^50 credits$/);
  await expect(page.getByTestId('checkout-approved')).toBeVisible();
  await shot(page, test.info(), 'money-my-credits');

  // Unlock a pay-per-view post of creator1 and see its media.
  const ppv = (await postsOf(request, token, 'creator1')).find((p) => p.visibility === 'ppv' && !p.access);
  expect(ppv, 'creator1 has a locked pay-per-view post').toBeTruthy();
  if (!ppv) return;
  await page.goto(`/post/${ppv._id}`);
  const card = page.locator(`[data-testid="post-card"][data-post-id="${ppv._id}"]`);
  await card.getByTestId('post-unlock').click();
  const overlay = page.getByTestId('unlock-overlay');
  await expect(overlay.getByTestId('unlock-price')).toContainText(`${ppv.finalPrice} credits`);
  await expect(overlay.getByTestId('unlock-balance')).toHaveText('50 credits');
  await page.waitForTimeout(300); // the modal's 250 ms animation (spec §9)
  await shot(page, test.info(), 'money-unlock-overlay');
  await overlay.getByTestId('unlock-submit').click();
  await expect(card.locator('.media-item').first()).toBeVisible();
  await expect(card.getByTestId('post-unlock')).toHaveCount(0);

  // Tip creator1: with 0 credits left the dialog offers credits; after another bag the tip goes.
  await page.goto('/creator1');
  const header = page.getByTestId('creator-header');
  await header.getByTestId('tip-button').click();
  await page.getByTestId('tip-amount').fill('5');
  await page.getByTestId('tip-submit').click();
  await expect(page.getByTestId('tip-short')).toBeVisible();
  await page.goto('/?feed=my-credits');
  await page.getByTestId('credit-bag-buy-150').click();
  await approveOnBillingPage(page);
  await expect(page.getByTestId('credits-balance')).toHaveText(/^150 credits$/);
  await page.goto('/creator1');
  await page.getByTestId('creator-header').getByTestId('tip-button').click();
  await page.getByTestId('tip-amount').fill('5');
  await page.getByTestId('tip-submit').click();
  await expect(page.getByTestId('tip-success')).toBeVisible();
  await page.getByTestId('gift-flowers').click();
  await expect(page.getByTestId('tip-success')).toContainText(/Flowers/);
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(300); // the modal's 250 ms animation (spec §9)
  await shot(page, test.info(), 'money-tip-dialog-phone');
  await page.setViewportSize(DESKTOP);

  // Subscribe to creator2 through the sandbox page; the subscriber posts open. Other journeys
  // (billing, offers) subscribe fans of their own to creator2 too, so the creator's figures are
  // checked as this month's subscription sales before plus this one.
  const salesBefore = await subscriptionSales(request);
  const before = await postsOf(request, token, 'creator2');
  const subscriberPost = before.find((p) => p.visibility === 'subscribers');
  expect(subscriberPost?.access).toBe(false);
  await page.goto('/creator2');
  await page.getByTestId('creator-subscribe').click();
  const buy = page.getByTestId('buy-subscription-overlay');
  await expect(buy).toContainText('Subscribe to @creator2 for $14.99 monthly');
  await page.waitForTimeout(300); // the modal's 250 ms animation (spec §9)
  await shot(page, test.info(), 'money-subscribe-overlay');
  await buy.getByTestId('subscribe-continue').click();
  await approveOnBillingPage(page);
  await expect(page).toHaveURL(/\/creator2(\?payment=approved)?$/);
  if (subscriberPost) {
    const post = page.locator(`[data-testid="post-card"][data-post-id="${subscriberPost._id}"]`);
    await expect(post.locator('.media-item').first()).toBeVisible();
  }

  // my-subscriptions: active, then cancelled with access until the end of the period.
  await page.goto('/?feed=my-subscriptions');
  const row = page.locator('[data-testid="subscription-row"][data-creator="creator2"]');
  await expect(row).toHaveAttribute('data-status', 'active');
  await expect(row.getByTestId('subscription-next-charge')).toContainText('$14.99');
  // One click, no questions.
  await row.getByTestId('subscription-cancel').click();
  await expect(row).toHaveAttribute('data-status', 'cancelled');
  await expect(row.getByTestId('subscription-access-until')).toBeVisible();
  await expect(row.getByTestId('subscription-renew')).toBeVisible();
  await shot(page, test.info(), 'money-subscriptions');
  const after = await postsOf(request, token, 'creator2');
  expect(after.find((p) => p._id === subscriberPost?._id)?.access).toBe(true);

  await page.setViewportSize(PHONE);
  await page.goto('/?feed=my-transactions');
  await expect(page.getByTestId('transactions-table').locator('tbody tr').first()).toBeVisible();
  await shot(page, test.info(), 'money-transactions-phone');
  await page.goto('/?feed=my-credits-history');
  await expect(page.getByTestId('credits-history').locator('li').first()).toBeVisible();
  await page.setViewportSize(DESKTOP);

  // creator2 sees the subscriber, the earnings and the next (scheduled) payout date.
  const creatorContext = await browser.newContext({ viewport: DESKTOP });
  const creator = await creatorContext.newPage();
  await loginByApi(creator, request, 'creator2', '/?feed=my-subscribers');
  await expect(creator.locator('[data-testid="subscriber-item"][data-user="fanuser2"]')).toBeVisible();
  await creator.goto('/user/gifts');
  await expect(creator).toHaveURL(/feed=creator-statistics/);
  const earnings = creator.getByTestId('earnings');
  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  await expect(earnings.getByTestId('sales-category-subscriptions')).toContainText(
    usd.format((salesBefore + 1499) / 100),
  );
  for (const name of ['subscriptions', 'tips', 'unlockContent', 'credits']) {
    await expect(earnings.getByTestId(`earnings-category-${name}`)).toBeVisible();
  }
  await expect(earnings.locator('[data-testid^="sales-category-"]')).toHaveCount(6);
  await expect(earnings.getByTestId('earnings-next-payout')).toContainText(/Next payout: \w/);
  await earnings.getByTestId('earnings-period').selectOption('all');
  await expect(creator.getByTestId('pricing-form')).toBeVisible();
  await expect(creator.getByTestId('payout-method-form').locator('input[type="radio"]')).toHaveCount(3);
  await shot(creator, test.info(), 'money-creator-earnings');
  await creatorContext.close();
});

test('my-credits and its menu in Spanish at phone width', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
  await loginByApi(page, request, 'fanuser1', '/user/credits');
  await expect(page).toHaveURL(/feed=my-credits/);
  await expect(page.getByTestId('credits-balance')).toHaveText(/créditos$/);
  await expect(page.getByTestId('credit-bag-250')).toContainText('US$');
  await page.getByTestId('credits-menu-button').click();
  await expect(page.getByTestId('credits-menu')).toContainText('Historial de créditos');
  await shot(page, test.info(), 'money-my-credits-es-phone');
  await page.getByTestId('credits-menu').getByText('Historial de créditos').click();
  await expect(page).toHaveURL(/feed=my-credits-history/);
  await expect(page.getByTestId('credits-history')).toContainText('Créditos gratis');

  // Declining on the billing page comes back to my-credits with the balance unchanged.
  await page.goto('/?feed=my-credits');
  await expect(page.getByTestId('credits-balance')).toHaveText(/\d créditos$/);
  const balance = (await page.getByTestId('credits-balance').textContent()) ?? '';
  await page.getByTestId('credit-bag-buy-50').click();
  await expect(page).toHaveURL(/\/payments\/sandbox\//);
  await page.locator('button[name="decision"][value="decline"]').click();
  await expect(page).toHaveURL(/feed=my-credits/);
  await expect(page.getByTestId('checkout-declined')).toBeVisible();
  await expect(page.getByTestId('credits-balance')).toHaveText(balance);
});

test('a creator sets price, discount and payout method; a fan sees discounted prices', async ({
  page,
  request,
  browser,
}) => {
  const creatorContext = await browser.newContext({ viewport: PHONE });
  const creator = await creatorContext.newPage();
  await loginByApi(creator, request, 'creator3', '/?feed=creator-statistics');
  const pricing = creator.getByTestId('pricing-form');
  await pricing.getByTestId('field-price').fill('12.50');
  await pricing.getByTestId('field-discountStatus').check();
  await pricing.getByTestId('field-discountPercent').fill('20');
  await pricing.getByTestId('pricing-save').click();
  await expect(pricing.getByTestId('pricing-saved')).toContainText('$10.00');

  const payout = creator.getByTestId('payout-method-form');
  await payout.getByTestId('payout-kind-card').check();
  await payout.getByTestId('field-holder').fill('Valentina Cruz');
  await payout.getByTestId('field-cardNumber').fill('4111 1111 1111 1111');
  await payout.getByTestId('payout-save').click();
  await expect(payout.getByTestId('payout-method-current')).toContainText('1111');
  await expect(payout.getByTestId('payout-method-current')).not.toContainText('4111 1111');
  await payout.scrollIntoViewIfNeeded();
  await shot(creator, test.info(), 'money-creator-settings-phone');
  await creatorContext.close();

  const token = await loginByApi(page, request, 'fanuser1', '/creator3');
  await page.getByTestId('creator-subscribe').click();
  const buy = page.getByTestId('buy-subscription-overlay');
  await expect(buy.getByTestId('subscribe-price')).toContainText('$10.00');
  await expect(buy.getByTestId('subscribe-price').locator('s')).toHaveText('$12.50');
  // The percent the creator set (ADR 0016), not (12.50 − 10) / 10.
  await expect(buy.getByTestId('subscribe-price')).toContainText('-20%');
  await buy.getByTestId('buy-subscription-overlay-close').click();

  const ppv = (await postsOf(request, token, 'creator3')).find((p) => p.visibility === 'ppv' && !p.access);
  expect(ppv).toBeTruthy();
  if (!ppv) return;
  await page.goto(`/post/${ppv._id}`);
  await page.getByTestId('post-unlock').click();
  const price = page.getByTestId('unlock-overlay').getByTestId('unlock-price');
  await expect(price).toContainText('40 credits');
  await expect(price.locator('s')).toHaveText('50 credits');
  await expect(price).toContainText('-20%');
});
