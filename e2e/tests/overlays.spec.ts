import { expect, test } from '@playwright/test';
import { DESKTOP, expectAccessible, openWithToken, PHONE, settledShot, shot, signUpFan } from './helpers.ts';

test.describe('user preview card (spec §2 overlays)', () => {
  test('desktop, English: resting on an author shows the card; keyboard focus too; Subscribe opens the offer', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    const fan = await signUpFan(request, 'card');
    await openWithToken(page, fan.token, fan.user, '/');
    const author = page.locator('[data-testid="post-card"] [data-testid="author-name"]').first();
    await expect(author).toBeVisible();
    const handle = (await author.getAttribute('href'))?.slice(1) ?? '';
    expect(handle).not.toBe('');
    await author.hover();
    const card = page.getByTestId('user-card');
    await expect(card).toBeVisible();
    await expect(card).toContainText(`@${handle}`);
    await expect(card.getByTestId('user-card-counts')).toContainText(/\d+ posts?/);
    await expect(card.getByTestId('user-card-counts')).toContainText(/\d+ subscribers?/);
    await shot(page, info, 'user-card-en-1280');
    await expectAccessible(page);
    // Leaving the link and the card closes it; keyboard focus opens it again and Escape closes it.
    await page.mouse.move(5, 790);
    await expect(card).toHaveCount(0);
    await author.focus();
    await expect(card).toBeVisible();
    await expect(author).toHaveAttribute('aria-describedby', /.+/);
    await page.keyboard.press('Escape');
    await expect(card).toHaveCount(0);
    // Subscribe resolves to the creator page's buy-subscription overlay.
    await author.hover();
    await card.getByTestId('user-card-subscribe').click();
    await expect(page).toHaveURL(new RegExp(`/${handle}$`));
    await expect(page.getByTestId('buy-subscription-overlay')).toBeVisible();
  });

  test('phone, Spanish: a tap shows the card in a sheet; Message opens the chat', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(PHONE);
    const fan = await signUpFan(request, 'cardes');
    await openWithToken(page, fan.token, fan.user, '/');
    await page.getByTestId('language-selector').selectOption('es');
    const author = page.locator('[data-testid="post-card"] [data-testid="author-name"]').first();
    const handle = (await author.getAttribute('href'))?.slice(1) ?? '';
    await author.click();
    await expect(page).toHaveURL(/\/(\?.*)?$/);
    const sheet = page.getByTestId('user-card-sheet');
    await expect(sheet).toBeVisible();
    await expect(sheet).toContainText('Vista previa del perfil');
    await expect(sheet.getByTestId('user-card-counts')).toContainText(/suscriptor/);
    await expect(sheet.getByTestId('user-card-profile')).toHaveText('Ver perfil');
    await settledShot(page, info, 'user-card-es-390');
    await expectAccessible(page);
    await sheet.getByTestId('user-card-message').click();
    await expect(page.getByTestId('overlay-messages')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`messages=${handle}`));
  });
});
