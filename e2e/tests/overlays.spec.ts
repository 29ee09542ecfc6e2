import { expect, test } from '@playwright/test';
import {
  acceptAge,
  DESKTOP,
  expectAccessible,
  loginByApi,
  openWithToken,
  PHONE,
  sessionOf,
  settledShot,
  shot,
  signUpFan,
} from './helpers.ts';

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

test.describe('help and support overlay (spec §2 overlays)', () => {
  test('desktop, English: a visitor opens it from the header, searches the articles and writes to support', async ({
    page,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    await acceptAge(page);
    await page.goto('/terms');
    await page.getByTestId('help-button').click();
    const help = page.getByTestId('help-overlay');
    await expect(help).toBeVisible();
    await expect(help.getByTestId('help-article')).toHaveCount(3);
    await help.getByTestId('help-search').fill('credit');
    await expect(help.getByTestId('help-article').first()).toContainText('Buying and using credits');
    await settledShot(page, info, 'help-overlay-en-1280');
    await expectAccessible(page);
    await help.getByTestId('help-article').first().click();
    await expect(page).toHaveURL(/feed=wiki&article=/);
    await expect(page.getByTestId('wiki-body')).toContainText('never expire');
    await expect(help).toHaveCount(0);
    // The contact form goes to the support inbox (POST /contact); bad input is explained.
    await page.getByTestId('help-button').click();
    await help.getByTestId('help-tab-contact').click();
    await help.getByTestId('field-name').fill('Visitor Vera');
    await help.getByTestId('field-email').fill('not-an-email');
    await help.getByTestId('field-subject').fill('Where are my credits?');
    await help.getByTestId('field-message').fill('I bought a bag and cannot see it.');
    await help.getByTestId('contact-submit').click();
    await expect(help.getByTestId('field-email')).toHaveAttribute('aria-invalid', 'true');
    await help.getByTestId('field-email').fill('vera@example.com');
    await help.getByTestId('contact-submit').click();
    await expect(help.getByTestId('contact-success')).toBeVisible();
    await shot(page, info, 'help-contact-en-1280');
  });

  test('phone, Spanish: a signed-in fan opens it from the account menu and finds an article', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(PHONE);
    const fan = await signUpFan(request, 'helpes');
    await openWithToken(page, fan.token, fan.user, '/');
    await page.getByTestId('language-selector').selectOption('es');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('menu-help').click();
    const help = page.getByTestId('help-overlay');
    await expect(help).toContainText('Ayuda y soporte');
    await help.getByTestId('help-search').fill('documentos');
    await expect(help.getByTestId('help-article')).toHaveCount(1);
    await expect(help.getByTestId('help-article')).toContainText('Hacerse creador');
    await settledShot(page, info, 'help-overlay-es-390');
    await expectAccessible(page);
    await help.getByTestId('help-tab-contact').click();
    await expect(help.getByTestId('contact-form')).toBeVisible();
    await shot(page, info, 'help-contact-es-390');
    await page.keyboard.press('Escape');
    await expect(help).toHaveCount(0);
  });
});

test.describe('profile review overlay (?profile=review)', () => {
  test('phone, Spanish: a fan opens it from My profile; nothing sent yet, with the way to apply', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(PHONE);
    const fan = await signUpFan(request, 'reves');
    await openWithToken(page, fan.token, fan.user, '/?feed=my-profile');
    await page.getByTestId('language-selector').selectOption('es');
    await page.getByTestId('profile-review-open').click();
    await expect(page).toHaveURL(/profile=review/);
    const overlay = page.getByTestId('overlay-profile');
    await expect(overlay.getByTestId('profile-review')).toHaveAttribute('data-status', 'none');
    await expect(overlay).toContainText('Tu perfil no se ha enviado a revisión');
    await settledShot(page, info, 'profile-review-es-390');
    await expectAccessible(page);
    await page.goBack();
    await expect(overlay).toHaveCount(0);
    await expect(page.getByTestId('my-profile')).toBeVisible();
  });

  test('desktop, English: opened by its address, a creator sees the profile approved', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    await loginByApi(page, request, 'creator1', '/?feed=my-profile&profile=review');
    const overlay = page.getByTestId('overlay-profile');
    await expect(overlay.getByTestId('profile-review')).toHaveAttribute('data-status', 'accepted');
    await expect(overlay).toContainText('Your profile is approved');
    await settledShot(page, info, 'profile-review-en-1280');
    await page.keyboard.press('Escape');
    await expect(overlay).toHaveCount(0);
  });
});

test.describe('post statistics overlay (?statistics=post)', () => {
  test("desktop, English: a creator opens a post's statistics from its menu", async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    await loginByApi(page, request, 'creator1', '/creator1');
    const card = page.getByTestId('post-card').first();
    await card.getByTestId('post-menu').click();
    await card.getByTestId('post-statistics-open').click();
    await expect(page).toHaveURL(/statistics=[0-9a-f-]{36}/);
    const overlay = page.getByTestId('overlay-statistics');
    const figures = overlay.getByTestId('post-statistics');
    await expect(figures.locator('[data-figure]')).toHaveCount(4);
    await expect(figures.locator('[data-figure="likes"] dd')).toHaveText(/^\d+$/);
    await expect(figures).toContainText('Unlocks');
    await settledShot(page, info, 'post-statistics-en-1280');
    await expectAccessible(page);
    await page.goBack();
    await expect(overlay).toHaveCount(0);
  });

  test('phone, Spanish: by its address for the creator; a fan is refused the figures', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(PHONE);
    const { token } = await sessionOf(request, 'creator1');
    const list = await request.get('/api/v1/posts?creator=creator1', { headers: { a1sledom: token } });
    const id = ((await list.json()) as { posts: { _id: string }[] }).posts[0]?._id;
    expect(id).toBeTruthy();
    await loginByApi(page, request, 'creator1', '/');
    await page.getByTestId('language-selector').selectOption('es');
    await page.goto(`/?statistics=${id}`);
    const overlay = page.getByTestId('overlay-statistics');
    await expect(overlay).toContainText('Estadísticas');
    await expect(overlay.getByTestId('post-statistics')).toContainText('Desbloqueos');
    await settledShot(page, info, 'post-statistics-es-390');
    const fan = await signUpFan(request, 'statfan');
    const response = await request.get(`/api/v1/posts/${id}/statistics`, {
      headers: { a1sledom: fan.token },
    });
    expect(response.status()).toBe(403);
  });
});

test.describe('announcements by the admin creator (ADR 0033)', () => {
  test('desktop, English: an administrator publishes one; it is on the home feed, by the official page', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    await loginByApi(page, request, 'superadmin', '/?admin=home');
    const form = page.getByTestId('announcement-form');
    const text = `Maintenance tonight ${Date.now().toString(36)}`;
    await form.getByTestId('field-message').fill(text);
    await form.getByTestId('announcement-publish').click();
    await expect(page.getByTestId('announcement-done')).toBeVisible();
    await shot(page, info, 'announcement-en-1280');
    await page.goto('/');
    const post = page.getByTestId('post-card').filter({ hasText: text });
    await expect(post).toBeVisible();
    await expect(post.getByTestId('author-name')).toHaveAttribute('href', '/fanverse');
  });

  test('phone, Spanish: an empty announcement is explained', async ({ page, request }, info) => {
    await page.setViewportSize(PHONE);
    await loginByApi(page, request, 'superadmin', '/?admin=home');
    await page.getByTestId('language-selector').selectOption('es');
    const form = page.getByTestId('announcement-form');
    await expect(page.getByRole('heading', { name: 'Anuncio para todos' })).toBeVisible();
    await form.getByTestId('announcement-publish').click();
    await expect(form.getByTestId('field-message')).toHaveAttribute('aria-invalid', 'true');
    await form.getByTestId('field-message').focus();
    await shot(page, info, 'announcement-es-390');
    await expectAccessible(page);
  });
});
