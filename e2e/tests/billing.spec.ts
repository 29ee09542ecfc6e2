import { expect, test } from '@playwright/test';
import { CancelLinks } from '../../apps/server/src/modules/subscriptions/cancel-link.ts';
import { E2E_APP_SECRET } from '../playwright.config.ts';
import { approveOnBillingPage, DESKTOP, openWithToken, PHONE, shot, signUpFan } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

/**
 * Honest billing (issue 19): the subscription screen shows the next charge; the renewal mail's
 * one-click cancel link cancels with no questions and keeps access to the period's end.
 */
for (const lang of ['en', 'es'] as const) {
  test(`the subscription screen shows the next charge and the mail's cancel link cancels in one click (${lang})`, async ({
    page,
    request,
  }) => {
    const fan = await signUpFan(request, `bill${lang}`);
    await page.addInitScript((l) => window.localStorage.setItem('language', l), lang);
    await openWithToken(page, fan.token, fan.user, '/creator2');
    await page.getByTestId('creator-subscribe').click();
    await page.getByTestId('buy-subscription-overlay').getByTestId('subscribe-continue').click();
    await approveOnBillingPage(page);

    await page.goto('/?feed=my-subscriptions');
    const row = page.locator('[data-testid="subscription-row"][data-creator="creator2"]');
    await expect(row).toHaveAttribute('data-status', 'active');
    const next = row.getByTestId('subscription-next-charge');
    await expect(next).toContainText(lang === 'en' ? 'Next charge: $14.99 on' : 'Próximo cargo: 14,99');
    await shot(page, test.info(), `billing-next-charge-${lang}-desktop`);
    await page.setViewportSize(PHONE);
    await expect(next).toBeVisible();
    await shot(page, test.info(), `billing-next-charge-${lang}-phone`);

    // The renewal mail's link (signed by the server's secret; the job that mails it is tested on the server).
    const mine = await request.get('/api/v1/user/subscriptions', { headers: { a1sledom: fan.token } });
    const { items } = (await mine.json()) as { items: { _id: string; creator: { user: string } }[] };
    const id = items.find((i) => i.creator.user === 'creator2')?._id ?? '';
    const token = new CancelLinks(E2E_APP_SECRET).sign(id, new Date());
    // Opened without a session, as from a mail.
    await page.context().clearCookies();
    await page.evaluate(() => {
      window.localStorage.removeItem('token');
      window.localStorage.removeItem('user');
    });
    await page.addInitScript(() => window.localStorage.removeItem('token'));
    await page.goto(`/billing/cancel?token=${encodeURIComponent(token)}`);
    const card = page.getByTestId('cancel-link-page');
    await expect(card).toContainText('@creator2');
    await expect(card.getByTestId('cancel-link-next')).toBeVisible();
    await shot(page, test.info(), `billing-cancel-link-${lang}-phone`);
    await card.getByTestId('cancel-link-submit').click();
    await expect(card.getByTestId('cancel-link-done')).toBeVisible();
    await page.setViewportSize(DESKTOP);
    await shot(page, test.info(), `billing-cancel-link-done-${lang}-desktop`);

    // A forged link is refused in the page's language.
    await page.goto(`/billing/cancel?token=${encodeURIComponent(`${token.slice(0, -4)}beef`)}`);
    await expect(page.getByTestId('cancel-link-page').getByRole('alert')).toContainText(
      lang === 'en' ? 'not valid' : 'no es válido',
    );

    // Back in the app: cancelled, no next charge, access until the period's end.
    await openWithToken(page, fan.token, fan.user, '/?feed=my-subscriptions');
    await expect(row).toHaveAttribute('data-status', 'cancelled');
    await expect(row.getByTestId('subscription-access-until')).toBeVisible();
    await expect(row.getByTestId('subscription-next-charge')).toContainText(
      lang === 'en' ? 'will not renew' : 'no se renovará',
    );
  });
}
