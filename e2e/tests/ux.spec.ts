// Journeys of issue 14: each defect a real user hit, walked in the browser (both languages where
// a text is involved).
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import {
  acceptAge,
  appTookOver,
  DEMO_PASSWORD,
  loginByApi,
  openWithToken,
  PHONE,
  signUpFan,
} from './helpers.ts';

const LANGUAGES = ['en', 'es'] as const;

async function inLanguage(page: Page, language: 'en' | 'es'): Promise<void> {
  await page.addInitScript((l) => window.localStorage.setItem('language', l), language);
}

async function apiLogin(request: APIRequestContext, login: string): Promise<string> {
  const res = await request.post('/api/v1/auth/login', { data: { login, password: DEMO_PASSWORD } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

test('1: the credits history names the creator paid and links to their page', async ({ page, request }) => {
  const fan = await signUpFan(request, 'hist');
  // Free credits come with verification only: buy a bag through the sandbox, then unlock a post.
  await openWithToken(page, fan.token, fan.user, '/?feed=my-credits');
  await page.getByTestId('credit-bag-buy-50').click();
  await page.locator('button[name="decision"][value="approve"]').click();
  await expect(page.getByTestId('credits-balance')).toHaveText(/^50 credits$/);
  const posts = await request.get('/api/v1/posts?creator=creator1', { headers: { a1sledom: fan.token } });
  const ppv = (
    (await posts.json()) as { posts: { _id: string; visibility: string; finalPrice: number }[] }
  ).posts.find((p) => p.visibility === 'ppv' && p.finalPrice <= 50);
  expect(ppv, 'creator1 has a pay-per-view post within 50 credits').toBeTruthy();
  const unlock = await request.post(`/api/v1/posts/${ppv?._id}/unlock`, { headers: { a1sledom: fan.token } });
  expect(unlock.ok(), await unlock.text()).toBe(true);

  await page.goto('/?feed=my-credits-history');
  const row = page.locator('[data-testid="credits-history"] li[data-kind="unlock"]');
  const person = row.getByTestId('person-link');
  await expect(person).toContainText('@creator1');
  await expect(person).not.toContainText(/@[0-9a-f]{8}-/);
  await person.click();
  await expect(page).toHaveURL(/\/creator1$/);
  await expect(page.getByTestId('not-found-page')).toHaveCount(0);
});

test('4: a 20% discount shows −20% next to the discounted price', async ({ page, request }) => {
  await loginByApi(page, request, 'fanuser1', '/creator3');
  const badges = page.locator('.discount-badge');
  await expect(badges.first()).toBeVisible();
  for (const text of await badges.allTextContents()) expect(text).toBe('-20%');
});

test('8: a live pop-up shows above the open messages window', async ({ page, request }) => {
  await loginByApi(page, request, 'creator1', '/?messages=wall');
  await expect(page.getByTestId('overlay-messages')).toBeVisible();
  const fanToken = await apiLogin(request, 'fanuser1');
  const posts = await request.get('/api/v1/posts?creator=creator1', { headers: { a1sledom: fanToken } });
  const post = ((await posts.json()) as { posts: { _id: string; liked?: boolean }[] }).posts[0];
  if (!post) throw new Error('creator1 has no post');
  const popup = page.getByTestId('notification-popup').first();
  // Like (or unlike, then like) so a fresh "liked your post" notification is sent. The page's socket
  // may still be connecting when the first one goes out, so a missed one is sent again.
  await expect(async () => {
    const like = () =>
      request.post('/api/v1/user/post/like', { data: { id: post._id }, headers: { a1sledom: fanToken } });
    if (!((await (await like()).json()) as { liked?: boolean }).liked) await like();
    await expect(popup).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  const onTop = await popup.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !!hit && el.contains(hit);
  });
  expect(onTop).toBe(true);
  await popup.getByTestId('notification-close').click();
  await expect(popup).toBeHidden();
});

for (const language of LANGUAGES) {
  test(`11 (${language}): "username already taken" goes away once the username is changed`, async ({
    page,
  }) => {
    await acceptAge(page);
    await inLanguage(page, language);
    await page.goto('/signup');
    await page.getByTestId('field-username').fill('creator1');
    await page.getByTestId('field-name').fill('Someone New');
    await page.getByTestId('field-email').fill(`new${Date.now().toString(36)}@example.com`);
    await page.getByTestId('field-password').fill(DEMO_PASSWORD);
    await page.getByTestId('field-birthdate').fill('1990-01-01');
    await page.getByTestId('field-acceptTerms').check();
    await page.getByTestId('signup-submit').click();
    const taken = language === 'en' ? /already taken/ : /ya está en uso/;
    await expect(page.getByTestId('field-error-username')).toContainText(taken);
    await page.getByTestId('field-username').fill('creator1b');
    await expect(page.getByTestId('field-error-username')).toHaveCount(0);
    await expect(page.getByText(taken)).toHaveCount(0);
  });
}

for (const language of LANGUAGES) {
  test(`forms (${language}): an empty submit marks every field in the user's language and focuses the first; a refused login says so until edited`, async ({
    page,
  }) => {
    await acceptAge(page);
    await inLanguage(page, language);
    await page.goto('/login');
    await page.getByTestId('login-submit').click();
    for (const name of ['login', 'password']) {
      const field = page.getByTestId(`field-${name}`);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      // The message is tied to the control for screen readers.
      const tip = await field.getAttribute('aria-describedby');
      await expect(page.locator(`[id="${tip}"]`)).toHaveText(language === 'en' ? /required/ : /obligatorio/);
    }
    await expect(page.getByTestId('field-login')).toBeFocused();
    // A wrong password: the server's message for the form, gone once a field is edited.
    await page.getByTestId('field-login').fill('fan1');
    await page.getByTestId('field-password').fill('not-the-password-1');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('form-error')).toContainText(
      language === 'en' ? /not correct/ : /no son correctos/,
    );
    await page.getByTestId('field-password').fill('still-not-it-1');
    await expect(page.getByTestId('form-error')).toHaveCount(0);
  });
}

test('forms (es): contact form messages in Spanish, then sent; profile edit shows the server\'s "taken" at the username and clears it on edit', async ({
  page,
  request,
}) => {
  await inLanguage(page, 'es');
  await loginByApi(page, request, 'fanuser2', '/contact');
  const contact = page.getByTestId('contact-form');
  await contact.getByTestId('field-email').fill('not-an-email');
  await contact.getByTestId('contact-submit').click();
  await expect(contact.getByTestId('field-error-email')).toContainText(/correo/i);
  await expect(contact.getByTestId('field-error-subject')).toContainText('obligatorio');
  await expect(contact.getByTestId('field-email')).toBeFocused();
  await contact.getByTestId('field-email').fill('fan2@example.com');
  await expect(contact.getByTestId('field-error-email')).toHaveCount(0);
  await contact.getByTestId('field-subject').fill('Una pregunta');
  await contact.getByTestId('field-message').fill('¿Cómo cambio mi foto de perfil?');
  await contact.getByTestId('contact-submit').click();
  await expect(page.getByTestId('contact-success')).toBeVisible();

  await page.goto('/?feed=my-profile');
  await page.getByTestId('profile-edit').click();
  const form = page.getByTestId('profile-form');
  await form.getByTestId('field-username').fill('creator1');
  await form.getByTestId('profile-save').click();
  await expect(form.getByTestId('field-error-username')).toContainText('ya está en uso');
  await expect(form.getByTestId('field-username')).toBeFocused();
  await form.getByTestId('field-username').fill('creator1x');
  await expect(form.getByTestId('field-error-username')).toHaveCount(0);
});

test('13: a visitor at /gallery goes to login, then to the gallery', async ({ page }) => {
  await acceptAge(page);
  const unauthorized: string[] = [];
  page.on('response', (res) => {
    if (res.status() === 401) unauthorized.push(res.url());
  });
  await page.goto('/gallery');
  await expect(page).toHaveURL(/\/login$/);
  expect(unauthorized).toEqual([]);
  await page.getByTestId('field-login').fill('fanuser1');
  await page.getByTestId('field-password').fill(DEMO_PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/feed=gallery/);
});

for (const who of ['creator1', 'superadmin']) {
  test(`14: on a phone the brand is shown whole for ${who}, with the bottom bar`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(PHONE);
    await loginByApi(page, request, who, '/');
    const logo = page.getByTestId('logo');
    await expect(logo).toBeVisible();
    const cut = await logo.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(cut).toBe(false);
    const nav = page.getByTestId('bottom-nav');
    await expect(nav).toBeVisible();
    await expect(nav.getByTestId('messages-button')).toBeVisible();
    await expect(nav.getByTestId('notifications-button')).toBeVisible();
    await nav.getByTestId('bottom-profile').click();
    await expect(page).not.toHaveURL(/\/$/);
  });
}

for (const language of LANGUAGES) {
  test(`14 (${language}): deleting the account ends on a page that says so`, async ({ page, request }) => {
    const fan = await signUpFan(request, `del${language}`);
    await inLanguage(page, language);
    await openWithToken(page, fan.token, fan.user, '/?feed=my-profile');
    await page.getByTestId('delete-account-open').click();
    await page.getByTestId('field-confirm').fill(language === 'en' ? 'delete' : 'eliminar');
    await page.getByTestId('field-password').fill(DEMO_PASSWORD);
    await page.getByTestId('delete-account-submit').click();
    const notice = page.getByTestId('account-deleted-notice');
    await expect(notice).toContainText(
      language === 'en' ? 'Your account was deleted' : 'Tu cuenta fue eliminada',
    );
    await page.reload();
    await expect(notice).toHaveCount(0);
  });
}

test('15: the age advice is an announced alert dialog that keeps keyboard focus and ignores Escape', async ({
  page,
}) => {
  await page.goto('/');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  // The keys below are the running app's focus trap. The server's first view shows the notice at
  // once, outside its inert #root: Tab reaches nothing behind it, but nothing traps it either
  // until the app has taken over (shell.spec's journey without script checks that part).
  await appTookOver(page);
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(dialog).toHaveAccessibleName(/18/);
  await expect(dialog).toHaveAccessibleDescription(/adult/i);
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  // A click outside does not take the focus out either.
  await page.mouse.click(5, 5);
  await page.keyboard.press('Tab');
  expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await page.getByTestId('age-accept').click();
  await expect(dialog).toBeHidden();
});

test('12: the comment count of an open post follows new comments live', async ({ page, request }) => {
  const fanToken = await apiLogin(request, 'fanuser1');
  const list = await request.get('/api/v1/posts?creator=creator1', { headers: { a1sledom: fanToken } });
  const post = (
    (await list.json()) as { posts: { _id: string; access: boolean; comments: number }[] }
  ).posts.find((p) => p.access);
  if (!post) throw new Error('creator1 has no post fanuser1 can see');
  await loginByApi(page, request, 'creator1', `/post/${post._id}`);
  const count = page.locator(`[data-post-id="${post._id}"]`).getByTestId('post-comment-count');
  await expect(count).toHaveText(String(post.comments));
  const res = await request.post('/api/v1/comments/create', {
    data: { post: post._id, message: 'Live count check' },
    headers: { a1sledom: fanToken },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await expect(count).toHaveText(String(post.comments + 1));
});

for (const language of LANGUAGES) {
  test(`10 (${language}): a fake .jpg is refused in the editor naming the file`, async ({
    page,
    request,
  }) => {
    await inLanguage(page, language);
    await loginByApi(page, request, 'creator1', '/post/create');
    await page.getByTestId('editor-files').setInputFiles({
      name: 'holiday.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('this is not a picture at all'),
    });
    await expect(page.getByTestId('editor-file-errors')).toHaveText(
      language === 'en' ? 'The file holiday.jpg is not supported' : 'El archivo holiday.jpg no es compatible',
    );
  });
}

for (const language of LANGUAGES) {
  test(`6 (${language}): a subscription checkout returns to the creator's page with its outcome`, async ({
    page,
    request,
  }) => {
    const fan = await signUpFan(request, `sub${language}`);
    await inLanguage(page, language);
    await openWithToken(page, fan.token, fan.user, '/creator3');
    const checkout = async (decision: 'approve' | 'decline') => {
      await page.getByTestId('creator-subscribe').click();
      await page.getByTestId('buy-subscription-overlay').getByTestId('subscribe-continue').click();
      await page.locator(`button[name="decision"][value="${decision}"]`).click();
      await expect(page).toHaveURL(/\/creator3$/);
    };
    if (language === 'es') {
      // The sandbox billing page speaks the fan's language, its description included.
      await page.getByTestId('creator-subscribe').click();
      await page.getByTestId('buy-subscription-overlay').getByTestId('subscribe-continue').click();
      await expect(page.getByTestId('description')).toContainText('Suscripción a @creator3');
      await expect(page.locator('button[name="decision"][value="approve"]')).toHaveText('Aprobar');
      await page.goBack();
      await page.reload();
    }
    await checkout('decline');
    await expect(page.getByTestId('checkout-declined')).toContainText(
      language === 'en' ? 'not subscribed to @creator3' : 'no estás suscrito a @creator3',
    );
    await checkout('approve');
    await expect(page.getByTestId('checkout-approved')).toContainText(
      language === 'en' ? 'you are subscribed to @creator3' : 'ya estás suscrito a @creator3',
    );
  });
}

test('2 (es): live pop-ups and admin role labels follow the language the person sees', async ({
  page,
  request,
  browser,
}) => {
  const fan = await signUpFan(request, 'popes');
  await inLanguage(page, 'es');
  await openWithToken(page, fan.token, fan.user, '/');
  // The account follows the language shown (it was created in English), and the page's live
  // connection is up (the fan shows online) before anything is pushed to it: the app now paints
  // and syncs the language before its socket connects (ADR 0046).
  await expect
    .poll(async () => {
      const res = await request.get('/api/v1/user/profile', { headers: { a1sledom: fan.token } });
      const { language, online } = (await res.json()) as { language: string; online: boolean };
      return { language, online };
    })
    .toEqual({ language: 'es', online: true });
  await page.waitForLoadState('networkidle');
  const creatorToken = await apiLogin(request, 'creator1');
  const list = await request.get('/api/v1/posts?creator=creator1', { headers: { a1sledom: fan.token } });
  const post = ((await list.json()) as { posts: { _id: string; access: boolean }[] }).posts.find(
    (p) => p.access,
  );
  if (!post) throw new Error('no free post of creator1');
  const mine = await request.post('/api/v1/comments/create', {
    data: { post: post._id, message: 'Hola' },
    headers: { a1sledom: fan.token },
  });
  const { comment } = (await mine.json()) as { comment: { _id: string } };
  const reply = await request.post('/api/v1/comments/create', {
    data: { post: post._id, message: 'Gracias', parent: comment._id },
    headers: { a1sledom: creatorToken },
  });
  expect(reply.status(), await reply.text()).toBe(200);
  await expect(page.getByTestId('notification-popup').first()).toContainText('respondió a tu comentario');

  const admin = await browser.newPage();
  await inLanguage(admin, 'es');
  // The staff list: the full list's first page fills with the fans other journeys sign up.
  await loginByApi(admin, request, 'superadmin', '/?admin=users&role=admins');
  await expect(admin.locator('.admin-chip[data-role="super"]').first()).toHaveText('Superadministrador');
  await admin.close();
});

test('5: a post with three pictures shows 1/3, dots and arrows, and swipes on a phone', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await loginByApi(page, request, 'creator1', '/post/create');
  const colours = ['#bd0909', '#0b7285', '#f59f00'];
  const files = await Promise.all(
    colours.map(async (background, i) => ({
      name: `picture-${i + 1}.png`,
      mimeType: 'image/png',
      buffer: await sharp({ create: { width: 480, height: 360, channels: 3, background } })
        .png()
        .toBuffer(),
    })),
  );
  await page.getByTestId('editor-message').fill('Three pictures');
  await page.getByTestId('editor-files').setInputFiles(files);
  await expect(page.getByTestId('editor-preview')).toHaveCount(3);
  await page.getByTestId('editor-visibility-free').check();
  for (const cert of ['adults', 'consent', 'terms']) await page.getByTestId(`editor-cert-${cert}`).check();
  await page.getByTestId('editor-submit').click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/, { timeout: 30_000 });

  const carousel = page.getByTestId('media-carousel');
  await expect(carousel.getByTestId('media-counter')).toHaveText('1/3');
  await expect(carousel.getByTestId('media-dot')).toHaveCount(3);
  await expect(carousel.getByTestId('media-prev')).toBeDisabled();
  await carousel.getByTestId('media-next').click();
  await expect(carousel.getByTestId('media-counter')).toHaveText('2/3');
  await carousel.getByTestId('media-dot').nth(2).click();
  await expect(carousel.getByTestId('media-counter')).toHaveText('3/3');
  await expect(carousel.getByTestId('media-next')).toBeDisabled();

  // On a phone the strip follows the finger: a horizontal scroll of one width is the next picture.
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(carousel.getByTestId('media-counter')).toHaveText('1/3');
  await carousel
    .locator('.post-card__media')
    .evaluate((el) => el.scrollTo({ left: el.clientWidth, behavior: 'instant' }));
  await expect(carousel.getByTestId('media-counter')).toHaveText('2/3');
});

test('9: a story is a story everywhere: marked, pending, opened in the story viewer', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(90_000);
  await loginByApi(page, request, 'creator2', '/post/create?kind=story');
  await page.getByTestId('editor-message').fill('A new story');
  await page.getByTestId('editor-files').setInputFiles({
    name: 'story.png',
    mimeType: 'image/png',
    buffer: await sharp({ create: { width: 360, height: 640, channels: 3, background: '#bd0909' } })
      .png()
      .toBuffer(),
  });
  const visibility = page.getByTestId('editor-visibility-free');
  if (await visibility.isVisible()) await visibility.check();
  for (const cert of ['adults', 'consent', 'terms']) await page.getByTestId(`editor-cert-${cert}`).check();
  await page.getByTestId('editor-submit').click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  const storyId = page.url().split('/').pop() ?? '';

  // Its own page shows a story card (no Like/Comment/Share), marked and pending.
  const card = page.locator(`[data-post-id="${storyId}"]`);
  await expect(card).toHaveAttribute('data-kind', 'story');
  await expect(card.getByTestId('story-badge')).toBeVisible();
  await expect(card.getByTestId('post-review-status')).toBeVisible();
  await expect(card.getByTestId('post-comment')).toHaveCount(0);
  await card.getByTestId('story-open').click();
  await expect(page.getByTestId('story-viewer')).toBeVisible();
  await expect(page.getByTestId('story-viewer').getByTestId('story-pending')).toBeVisible();

  // The creator's stories row marks the pending one.
  await page.goto('/creator2');
  await expect(page.getByTestId('stories-row').getByTestId('story-pending').first()).toBeVisible();

  // The review queue marks it as a story and opens it in the story viewer.
  const admin = await browser.newPage();
  await loginByApi(admin, request, 'superadmin', '/?adminStatus=new');
  const queued = admin.locator(`[data-post-id="${storyId}"]`);
  await expect(queued.getByTestId('story-badge')).toBeVisible();
  await queued.getByTestId('story-open').click();
  await expect(admin.getByTestId('story-viewer')).toBeVisible();
  await admin.close();
});

test('3: gallery categories open in the media viewer, for the creator and for fans', async ({
  page,
  request,
  browser,
}) => {
  await loginByApi(page, request, 'creator1', '/?feed=gallery');
  const own = page.getByTestId('gallery-category').first();
  await own.getByTestId('gallery-category-open').click();
  const visor = page.getByTestId('visor');
  await expect(visor).toBeVisible();
  await expect(visor.locator('img.visor__media')).toHaveAttribute('src', /.+/);
  await visor.getByTestId('visor-close').click();
  // A new category needs at least one picture.
  await page.getByTestId('gallery-new').click();
  const dialog = page.getByTestId('gallery-new-dialog');
  await dialog.locator('input:not([type="checkbox"])').first().fill('Nothing yet');
  await expect(dialog.getByTestId('gallery-create')).toBeDisabled();
  await dialog.locator('input[type="checkbox"]').first().check();
  await expect(dialog.getByTestId('gallery-create')).toBeEnabled();

  const fan = await browser.newPage();
  await loginByApi(fan, request, 'fanuser1', '/creator1');
  await fan.getByTestId('creator-tab-gallery').click();
  await fan.getByTestId('gallery-category').first().getByTestId('gallery-category-open').click();
  await expect(fan.getByTestId('visor')).toBeVisible();
  await expect(fan.getByTestId('visor').locator('img.visor__media')).toHaveAttribute('src', /.+/);
  await fan.close();
});

test('7: creator statistics draw earnings over time by category, for each period', async ({
  page,
  request,
  browser,
}) => {
  // A fan subscribes to creator3 so there are earnings to draw.
  const fan = await signUpFan(request, 'chart');
  const fanPage = await browser.newPage();
  await openWithToken(fanPage, fan.token, fan.user, '/creator3');
  await fanPage.getByTestId('creator-subscribe').click();
  await fanPage.getByTestId('buy-subscription-overlay').getByTestId('subscribe-continue').click();
  await fanPage.locator('button[name="decision"][value="approve"]').click();
  await expect(fanPage.getByTestId('checkout-approved')).toBeVisible();
  await fanPage.close();

  await loginByApi(page, request, 'creator3', '/?feed=creator-statistics');
  const chart = page.getByTestId('earnings-chart');
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAttribute('aria-label', /Earnings by category over time/);
  for (const period of ['month', '3months', '6months', 'year', 'all']) {
    await page.getByTestId('earnings-period').selectOption(period);
    await expect(chart).toBeVisible();
  }
});
