import { expect, test } from '@playwright/test';
import {
  approveOnBillingPage,
  DEMO_PASSWORD,
  DESKTOP,
  openWithToken,
  PHONE,
  shot,
  signUpFan,
} from './helpers.ts';

test.describe.configure({ mode: 'serial' });

/** Offers (issue 19): bundles in the subscribe dialog, a trial link page through the sandbox. */
test('a creator offers bundles and a trial link; a fan takes the trial and sees the next charge', async ({
  page,
  request,
}) => {
  const login = await request.post('/api/v1/auth/login', {
    data: { login: 'creator2', password: DEMO_PASSWORD },
  });
  const { token: creatorToken } = (await login.json()) as { token: string };
  const headers = { a1sledom: creatorToken };
  const saved = await request.post('/api/v1/creator/offers/bundles', {
    headers,
    data: {
      bundles: [
        { months: 3, discountPercent: 10 },
        { months: 12, discountPercent: 25 },
      ],
    },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const created = await request.post('/api/v1/creator/offers/links', {
    headers,
    data: {
      kind: 'trial',
      trialDays: 7,
      expiresAt: new Date(Date.now() + 5 * 86_400_000).toISOString(),
      maxUses: 1,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { code } = (await created.json()) as { code: string };

  // The subscribe dialog offers the bundles at their price and percent.
  const browsing = await signUpFan(request, 'bundle');
  await openWithToken(page, browsing.token, browsing.user, '/creator2');
  await page.getByTestId('creator-subscribe').click();
  const choice = page.getByTestId('bundle-choice');
  await expect(choice.getByTestId('bundle-3')).toContainText('$40.47');
  await expect(choice.getByTestId('bundle-12')).toContainText('25%');
  await page.waitForTimeout(300); // the modal's animation
  await shot(page, test.info(), 'offers-bundles-dialog-desktop');

  // The trial link, in Spanish on a phone: 7 days free, then the regular price.
  const fan = await signUpFan(request, 'trial');
  await page.setViewportSize(PHONE);
  await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
  await openWithToken(page, fan.token, fan.user, `/offer/${code}`);
  const offer = page.getByTestId('offer-page');
  await expect(offer.getByTestId('offer-terms')).toContainText('7 días gratis');
  await shot(page, test.info(), 'offers-trial-es-phone');
  await offer.getByTestId('offer-subscribe').click();
  await approveOnBillingPage(page);
  await page.goto('/?feed=my-subscriptions');
  const row = page.locator('[data-testid="subscription-row"][data-creator="creator2"]');
  await expect(row.getByTestId('subscription-next-charge')).toContainText('14,99');
  await shot(page, test.info(), 'offers-trial-subscribed-es-phone');

  // The link had one use: the next visitor is told it is used up, in their language.
  await page.setViewportSize(DESKTOP);
  await page.goto(`/offer/${code}`);
  await expect(page.getByTestId('offer-error')).toContainText('número máximo');
  await shot(page, test.info(), 'offers-used-up-es-desktop');
});

test('the creator edits offers on the statistics page', async ({ page, request }) => {
  const login = await request.post('/api/v1/auth/login', {
    data: { login: 'creator2', password: DEMO_PASSWORD },
  });
  const { token, user } = (await login.json()) as { token: string; user: unknown };
  await openWithToken(page, token, user, '/?feed=creator-statistics');
  const offers = page.getByTestId('creator-offers');
  await expect(offers.getByTestId('bundles-prices')).toContainText('3');
  await offers.getByTestId('field-welcomeText').fill('Welcome to my page!');
  await offers.getByTestId('welcome-save').click();
  await expect(offers.getByTestId('welcome-saved')).toBeVisible();
  await offers.scrollIntoViewIfNeeded();
  await shot(page, test.info(), 'offers-creator-editor-desktop');
});
