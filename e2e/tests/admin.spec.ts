import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import {
  DEMO_PASSWORD,
  DESKTOP,
  enableTotpByApi,
  grantRoleByApi,
  loginByApi,
  openWithToken,
  PHONE,
  sessionOf,
  shot,
  signUpFan,
} from './helpers.ts';

/** A solid-colour JPEG: three different colours make three different identity photos. */
function jpeg(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 480, height: 320, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();
}

async function photo(name: string, rgb: [number, number, number]) {
  return { name, mimeType: 'image/jpeg', buffer: await jpeg(...rgb) };
}

/** Waits for the open modal's 250 ms animation so screenshots show it settled. */
async function modalSettled(page: Page): Promise<void> {
  await expect(page.locator('.modal.is-open').last()).toBeVisible();
  await page.waitForTimeout(350);
}

async function expectNoSeriousA11yIssues(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(serious.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
}

async function tokenOf(request: APIRequestContext, login: string): Promise<string> {
  return (await sessionOf(request, login)).token;
}

const REASON = 'The back photo is blurry, please take it again in good light.';
const fan = { token: '', user: null as unknown, username: '' };

function verificationOf(page: Page): Locator {
  return page.locator(`[data-testid="verification-item"][data-user="${fan.username}"]`);
}

async function openApplication(page: Page): Promise<void> {
  await loginByApi(page, page.request, 'superadmin', '/?admin=verifications');
  await expect(page.getByTestId('admin-verifications')).toBeVisible();
  await expect(verificationOf(page)).toBeVisible();
  await verificationOf(page).getByTestId('verification-open').click();
  await expect(page.getByTestId('verification-detail')).toBeVisible();
}

test.describe
  .serial('creator application and admin journey', () => {
    test.use({ viewport: DESKTOP });

    test('a fan applies through the four steps with three photos', async ({ page, request }, info) => {
      Object.assign(fan, await signUpFan(request, 'applicant'));
      await openWithToken(page, fan.token, fan.user, '/user/creator');

      // Step 1: required fields block the step; the tooltip repeats the placeholder (spec §5).
      const step1 = page.getByTestId('apply-step-1');
      await expect(step1).toBeVisible();
      await expect(page.getByTestId('apply-indicator-1')).toHaveAttribute('aria-current', 'step');
      await page.getByTestId('apply-next').click();
      await expect(page.getByTestId('field-error-phone')).toContainText('Phone number, e.g.');
      await expect(page.getByTestId('field-error-instagram')).toBeVisible();
      await expect(page.getByTestId('field-error-country')).toBeVisible();
      await expect(page.getByTestId('field-phone')).toHaveAttribute('aria-invalid', 'true');
      await page.getByTestId('field-phone').fill('300x123');
      await page.getByTestId('field-country').selectOption('CO');
      await page.getByTestId('field-instagram').fill('@e2e.applicant');
      await page.getByTestId('field-description').fill('Fitness and travel photography, twice a week.');
      await page.getByTestId('field-birthday').fill(`${new Date().getFullYear() - 17}-01-01`);
      await page.getByTestId('apply-next').click();
      await expect(page.getByTestId('field-error-phone')).toContainText('Enter a valid phone number.');
      await expect(page.getByTestId('field-error-birthday')).toContainText('at least 18');
      await page.getByTestId('field-phone').fill('+57 300 123 4567');
      await page.getByTestId('field-birthday').fill('1995-05-05');
      await page.getByTestId('field-currentlyWorking').check();
      await page.getByTestId('field-platformName').fill('Another platform');
      await page.getByTestId('field-howKnown').selectOption('friend');
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, info, 'apply-step-1');
      await expectNoSeriousA11yIssues(page, 'apply step 1');
      await page.getByTestId('apply-next').click();

      // Step 2: the creator terms must be ticked.
      await expect(page.getByTestId('apply-step-2')).toBeVisible();
      await page.getByTestId('apply-next').click();
      await expect(page.getByTestId('field-error-acceptCreatorTerms')).toBeVisible();
      await page.getByTestId('apply-terms').getByRole('checkbox').check();
      await shot(page, info, 'apply-step-2');
      await page.getByTestId('apply-next').click();

      // Step 3: exactly three document types, three photos, and no picture twice.
      await expect(page.getByTestId('apply-step-3')).toBeVisible();
      await expect(page.getByTestId('apply-selfie-notice')).toContainText('selfie alone is not accepted');
      await expect(page.getByTestId('apply-doc-type').getByRole('radio')).toHaveCount(3);
      await page.getByTestId('apply-submit').click();
      await expect(page.getByTestId('field-error-documentType')).toBeVisible();
      await expect(page.getByTestId('field-error-face')).toBeVisible();
      await page.getByTestId('apply-doc-type-passport').check();
      await page.getByTestId('apply-photo-front').setInputFiles(await photo('front.jpg', [200, 30, 30]));
      await page.getByTestId('apply-photo-back').setInputFiles(await photo('back.jpg', [200, 30, 30]));
      await page.getByTestId('apply-photo-face').setInputFiles(await photo('face.jpg', [30, 30, 200]));
      await page.getByTestId('apply-submit').click();
      await expect(page.getByTestId('field-error-back')).toContainText('Each photo must be different');
      await page.getByTestId('apply-photo-back').setInputFiles(await photo('back.jpg', [30, 160, 30]));
      await page
        .getByTestId('apply-photo-front')
        .setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
      await expect(page.getByTestId('field-error-front')).toContainText('The file id.pdf is not supported');
      await page.getByTestId('apply-photo-front').setInputFiles(await photo('front.jpg', [200, 30, 30]));
      await expect(page.locator('.apply-photo__img')).toHaveCount(3);
      await shot(page, info, 'apply-step-3');
      await expectNoSeriousA11yIssues(page, 'apply step 3');
      await page.getByTestId('apply-submit').click();

      // Step 4: waiting, 24–72 h.
      await expect(page.getByTestId('apply-waiting')).toContainText('24 to 72 hours');
      await expect(page.getByTestId('apply-indicator-4')).toHaveAttribute('aria-current', 'step');
      await shot(page, info, 'apply-step-4');
      await expectNoSeriousA11yIssues(page, 'apply step 4');
    });

    test('the identity photos are not reachable without a verifier session', async ({ request }) => {
      const admin = await tokenOf(request, 'superadmin');
      const list = await request.get(`/api/v1/admin/verifications?q=${fan.username}`, {
        headers: { a1sledom: admin },
      });
      const { items } = (await list.json()) as { items: { _id: string }[] };
      const id = items[0]?._id ?? '';
      const path = `/api/v1/admin/verifications/${id}/documents/front`;
      expect((await request.get(path)).status()).toBe(401);
      expect((await request.get(path, { headers: { a1sledom: fan.token } })).status()).toBe(403);
      const ok = await request.get(path, { headers: { a1sledom: admin } });
      expect(ok.status()).toBe(200);
      expect(ok.headers()['content-type']).toBe('image/jpeg');
    });

    test('superadmin sees the badge and rejects the application with a reason', async ({ page }, info) => {
      await loginByApi(page, page.request, 'superadmin', '/');
      // The shortcut listens once the app is drawn (after its first catalogues), not at page load.
      await expect(page.getByRole('button', { name: 'Account menu of superadmin' })).toBeVisible();
      await page.keyboard.press('Control+Enter');
      await expect(page.getByTestId('admin-menu')).toBeVisible();
      await expect(page.getByTestId('badge-documentsByVerify')).toBeVisible();
      await modalSettled(page);
      await shot(page, info, 'admin-menu');
      await page.getByTestId('admin-menu-verifications').click();
      await expect(page.getByTestId('admin-verifications')).toBeVisible();
      await expect(verificationOf(page)).toBeVisible();
      // The admin menu closes as the queue opens: wait for it to be gone before the screenshot.
      await expect(page.getByTestId('admin-menu')).toBeHidden();
      await page.waitForTimeout(300);
      await shot(page, info, 'admin-verifications');
      await expectNoSeriousA11yIssues(page, 'verifications');

      await verificationOf(page).getByTestId('verification-open').click();
      const detail = page.getByTestId('verification-detail');
      await expect(detail).toContainText('+57 300 123 4567');
      for (const side of ['front', 'back', 'face']) {
        const figure = page.getByTestId(`verification-photo-${side}`);
        await expect(figure).toHaveAttribute('data-state', 'ready');
        await expect(figure.locator('img')).toHaveAttribute('src', /^blob:/);
      }
      await modalSettled(page);
      await shot(page, info, 'admin-verification-detail');
      await expectNoSeriousA11yIssues(page, 'verification detail');

      await page.getByTestId('verification-reject').click();
      await page.getByTestId('confirm-ok').click();
      await expect(page.getByTestId('field-error-reason')).toBeVisible();
      await page.getByTestId('verification-reason').fill(REASON);
      await page.getByTestId('confirm-ok').click();
      await expect(page.getByTestId('admin-notice')).toContainText(fan.username);
      await expect(verificationOf(page)).toHaveCount(0);
    });

    test('the fan sees the reason and resends the photos', async ({ page }, info) => {
      await openWithToken(page, fan.token, fan.user, '/user/creator');
      await expect(page.getByTestId('apply-rejected-reason')).toContainText(REASON);
      await shot(page, info, 'apply-rejected');
      await page.getByTestId('apply-resend').click();
      await expect(page.getByTestId('apply-step-3')).toBeVisible();
      await page.getByTestId('apply-doc-type-passport').check();
      await page.getByTestId('apply-photo-front').setInputFiles(await photo('front2.jpg', [220, 120, 20]));
      await page.getByTestId('apply-photo-back').setInputFiles(await photo('back2.jpg', [20, 120, 220]));
      await page.getByTestId('apply-photo-face').setInputFiles(await photo('face2.jpg', [120, 20, 220]));
      await page.getByTestId('apply-submit').click();
      await expect(page.getByTestId('apply-waiting')).toBeVisible();
      // /user/verify shows the same waiting state once the photos are sent.
      await page.goto('/user/verify');
      await expect(page.getByTestId('verify').getByTestId('apply-waiting')).toBeVisible();
    });

    test('superadmin accepts the application', async ({ page }) => {
      await openApplication(page);
      await page.getByTestId('verification-accept').click();
      await page.getByTestId('confirm-ok').click();
      await expect(page.getByTestId('admin-notice')).toContainText(`@${fan.username} is now a creator`);
      // The decision arrives in the applicant's message inbox (spec §2 step 4).
      const inbox = await page.request.get('/api/v1/message?user=superadmin', {
        headers: { a1sledom: fan.token },
      });
      expect(inbox.ok()).toBe(true);
      const { messages } = (await inbox.json()) as { messages: { message: string }[] };
      expect(messages.map((m) => m.message).join('\n')).toContain('application was approved');
      expect(messages.map((m) => m.message).join('\n')).toContain(REASON);
    });

    test('the new creator publishes a first post', async ({ page }) => {
      await openWithToken(page, fan.token, fan.user, '/user/creator');
      await expect(page.getByTestId('apply-step-4')).toHaveAttribute('data-status', 'accepted');
      await page.getByTestId('apply-first-post').click();
      await expect(page.getByTestId('post-editor')).toBeVisible();
      const text = `First post of ${fan.username}`;
      await page.getByTestId('editor-message').fill(text);
      await page.getByTestId('editor-visibility-free').check();
      await page.getByTestId('editor-cert-adults').check();
      await page.getByTestId('editor-cert-consent').check();
      await page.getByTestId('editor-cert-terms').check();
      await page.getByTestId('editor-submit').click();
      await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/, { timeout: 30_000 });
      await expect(page.getByTestId('post-card').first()).toContainText(text);
    });

    test('superadmin answers a complaint', async ({ page, request }, info) => {
      const reporter = await tokenOf(request, 'fanuser1');
      const posts = await request.get('/api/v1/posts?limit=1', { headers: { a1sledom: reporter } });
      const postId = ((await posts.json()) as { posts: { _id: string }[] }).posts[0]?._id ?? '';
      expect(postId).not.toBe('');
      const details = `Looks like spam ${Date.now()}`;
      const report = await request.post('/api/v1/report', {
        headers: { a1sledom: reporter },
        data: { type: 'post', id: postId, reason: 'spam', details },
      });
      expect(report.ok(), await report.text()).toBe(true);

      await loginByApi(page, page.request, 'superadmin', '/?admin=complaints');
      const item = page.getByTestId('complaint-item').filter({ hasText: details });
      await expect(item).toBeVisible();
      await expect(item.getByTestId('complaint-response-text')).toHaveText('No response');
      await expect(item.getByTestId('complaint-target')).toHaveAttribute('href', `/post/${postId}`);
      await expect(item).toContainText('@fanuser1');
      await shot(page, info, 'admin-complaints');
      await expectNoSeriousA11yIssues(page, 'complaints');
      await item.getByTestId('complaint-answer').click();
      await page.getByTestId('complaint-response').fill('Thanks, we checked the post and it is fine.');
      await expect(page.getByTestId('complaint-action').locator('option')).toHaveCount(3);
      await page.getByTestId('complaint-action').selectOption('none');
      await modalSettled(page);
      await shot(page, info, 'admin-complaint-dialog');
      await page.getByTestId('complaint-submit').click();
      await expect(page.getByTestId('admin-notice')).toBeVisible();
      await page.getByTestId('complaint-filter-resolved').click();
      await expect(
        page
          .getByTestId('complaint-item')
          .filter({ hasText: details })
          .getByTestId('complaint-response-text'),
      ).toHaveText('Thanks, we checked the post and it is fine.');
    });

    test('superadmin suspends and restores a user from the list', async ({ page }, info) => {
      await loginByApi(page, page.request, 'superadmin', '/?admin=users');
      await expect(page.getByTestId('admin-users')).toBeVisible();
      await expect(page.getByTestId('admin-pager')).toContainText('Page 1');
      await expect(page.getByTestId('user-row').first()).toBeVisible();
      await shot(page, info, 'admin-users');
      await expectNoSeriousA11yIssues(page, 'users');
      await page.getByTestId('user-search').fill(fan.username);
      await page.getByTestId('user-search').press('Enter');
      const row = page.locator(`[data-testid="user-row"][data-user="${fan.username}"]`);
      await expect(row).toHaveAttribute('data-suspended', 'false');
      await expect(page.getByTestId('user-row')).toHaveCount(1);
      await row.getByTestId('user-suspend').click();
      await page.getByTestId('confirm-ok').click();
      await expect(row).toHaveAttribute('data-suspended', 'true');
      await row.getByTestId('user-restore').click();
      await page.getByTestId('confirm-ok').click();
      await expect(row).toHaveAttribute('data-suspended', 'false');
      await page.getByTestId('user-filter-creators').click();
      await expect(page.getByTestId('admin-users')).toHaveAttribute('data-role', 'creators');
      await expect(page.locator('[data-testid="user-row"][data-user="creator1"]')).toBeVisible();
      await shot(page, info, 'admin-creators');
    });

    test('superadmin opens each of the nine admin areas', async ({ page }, info) => {
      const areas: [string, string][] = [
        ['home', 'admin-home'],
        ['sales', 'stats-page-sales'],
        ['complaints', 'admin-complaints'],
        ['verifications', 'admin-verifications'],
        ['bags', 'stats-page-bags'],
        ['fans', 'admin-users'],
        ['users', 'admin-users'],
        ['creators', 'admin-users'],
        ['profiles', 'admin-profiles'],
      ];
      await loginByApi(page, page.request, 'superadmin', '/?admin=home');
      await expect(page.getByTestId('admin-counter-complaintsByVerify')).toBeVisible();
      await shot(page, info, 'admin-home');
      for (const [area, testId] of areas) {
        await page.goto(`/?admin=${area}`);
        await expect(page.getByTestId('home-view')).toHaveAttribute('data-view', `admin-${area}`);
        await expect(page.getByTestId(testId)).toBeVisible();
        if (testId !== 'feature-soon' && testId !== 'admin-home') {
          await expect(page.getByTestId('loader')).toHaveCount(0);
          await expect(page.getByTestId('alert')).toHaveCount(0);
        }
      }
    });

    test('at phone width the admin gets the admin sheet with badges and the queue', async ({
      page,
    }, info) => {
      await page.setViewportSize(PHONE);
      await loginByApi(page, page.request, 'superadmin', '/?admin=verifications&status=all');
      await expect(verificationOf(page)).toBeVisible();
      await shot(page, info, 'admin-verifications-phone');
      await page.getByTestId('admin-mobile-menu-button').click();
      await expect(page.getByTestId('admin-menu')).toBeVisible();
      await modalSettled(page);
      await shot(page, info, 'admin-menu-phone');
    });

    test('at phone width a Spanish applicant picks country and birth date in bottom sheets', async ({
      page,
      request,
    }, info) => {
      await page.setViewportSize(PHONE);
      const other = await signUpFan(request, 'phoneapp');
      // This applicant uses the app in Spanish.
      await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
      await openWithToken(page, other.token, other.user, '/user/creator');
      await expect(page.getByTestId('apply-step-1')).toBeVisible();
      await page.getByTestId('field-birthday').click();
      await expect(page.getByTestId('date-sheet')).toBeVisible();
      await page.getByTestId('date-sheet-day').selectOption('07');
      await page.getByTestId('date-sheet-month').selectOption('03');
      await page.getByTestId('date-sheet-year').selectOption('1990');
      await modalSettled(page);
      await shot(page, info, 'apply-date-sheet-phone');
      await page.getByTestId('date-sheet-done').click();
      await expect(page.getByTestId('field-birthday')).toContainText('1990');
      await page.getByTestId('field-country').click();
      await expect(page.getByTestId('country-sheet')).toBeVisible();
      await expect(page.getByTestId('apply-step-1')).toContainText('Paso 1: tu perfil');
      await page.getByTestId('country-sheet').getByRole('button', { name: 'Colombia' }).click();
      await expect(page.getByTestId('field-country')).toContainText('Colombia');
      await expect(page.getByTestId('country-sheet')).toHaveCount(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, info, 'apply-step-1-phone');
    });
  });

test.describe('an administrator without the super role', () => {
  test('sets the commission from the admin home but cannot open the dashboard', async ({
    page,
    request,
  }, info) => {
    const staff = await signUpFan(request, 'staff');
    await grantRoleByApi(request, staff.user, 'admin');
    // The new admin acts as one once two-step sign-in is on (issue 18).
    await enableTotpByApi(request, staff.token);

    await page.setViewportSize(DESKTOP);
    await openWithToken(page, staff.token, staff.user, '/?admin=home');
    const commission = page.getByTestId('dashboard-commission');
    await expect(commission).toBeVisible();
    const input = page.getByTestId('commission-input');
    await expect(input).not.toHaveValue('');
    const current = await input.inputValue();
    await input.fill('99');
    await page.getByTestId('commission-save').click();
    await expect(page.getByTestId('commission-error')).toBeVisible();
    await input.fill(current);
    await page.getByTestId('commission-save').click();
    await expect(page.getByTestId('commission-saved')).toContainText(`${current} %`);
    await commission.scrollIntoViewIfNeeded();
    await shot(page, info, 'admin-home-commission');
    await page.goto('/dashboard');
    await expect(page).not.toHaveURL(/\/dashboard/);
  });
});

test.describe('account deletion', () => {
  test('a fan deletes their account: content and sign-in go, the admin list shows the anonymised row', async ({
    page,
    browser,
    request,
  }, info) => {
    const fan = await signUpFan(request, 'leaving');
    const headers = { a1sledom: fan.token };
    const follow = await request.post('/api/v1/user/follow', { headers, data: { creator: 'creator1' } });
    const sent = await request.post('/api/v1/message/send', {
      headers,
      data: { to: 'creator1', message: 'Goodbye soon', messageUUID: `bye-${Date.now()}`, price: 0 },
    });
    expect(sent.ok(), await sent.text()).toBe(true);
    expect(follow.ok(), await follow.text()).toBe(true);

    await page.setViewportSize(DESKTOP);
    await openWithToken(page, fan.token, fan.user, '/?feed=my-profile');
    await expect(page.locator('.danger-zone')).toContainText('Payment records stay');
    await page.getByTestId('delete-account-open').click();
    const dialog = page.getByTestId('delete-account-dialog');
    await dialog.getByTestId('field-confirm').fill('remove');
    await dialog.getByTestId('field-password').fill(DEMO_PASSWORD);
    await expect(page.getByTestId('delete-account-submit')).toBeDisabled();
    await dialog.getByTestId('field-confirm').fill('delete');
    await expect(page.getByTestId('delete-account-submit')).toBeEnabled();
    await shot(page, info, 'account-delete-dialog');
    await page.getByTestId('delete-account-submit').click();
    await expect(page).toHaveURL(/\/$/);
    // The test's init script puts the old token back on every load; the app finds it dead and drops it.
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();

    // The old credentials and session are dead, the public page is gone, and the message went too.
    const login = await request.post('/api/v1/auth/login', {
      data: { login: fan.username, password: DEMO_PASSWORD },
    });
    expect(login.ok()).toBe(false);
    expect((await request.get('/api/v1/user/profile', { headers })).status()).toBe(401);
    const creatorLogin = await request.post('/api/v1/auth/login', {
      data: { login: 'creator1', password: DEMO_PASSWORD },
    });
    const { token: creatorToken } = (await creatorLogin.json()) as { token: string };
    const contacts = await request.get('/api/v1/message/contacts', { headers: { a1sledom: creatorToken } });
    expect(await contacts.text()).not.toContain(fan.username);

    // The super sees the account anonymised, with the date it was deleted and no actions.
    const id = (fan.user as { _id: string })._id;
    const placeholder = `deleted${id.replace(/-/g, '').slice(0, 12)}`;
    const adminContext = await browser.newContext({ viewport: DESKTOP });
    const admin = await adminContext.newPage();
    await loginByApi(admin, request, 'superadmin', '/?admin=users');
    await admin.getByTestId('user-search').fill(placeholder);
    await admin.getByTestId('user-search').press('Enter');
    const row = admin.locator(`[data-testid="user-row"][data-user="${placeholder}"]`);
    await expect(row).toHaveAttribute('data-deleted', 'true');
    await expect(row).toContainText('Deleted user');
    await expect(row.getByTestId('user-deleted')).toContainText('Deleted on');
    await expect(row.getByTestId('user-suspend')).toHaveCount(0);
    await shot(admin, info, 'admin-users-deleted');
    await adminContext.close();
  });
});
