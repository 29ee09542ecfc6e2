import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { DESKTOP, loginByApi, openWithToken, PHONE, shot, signUpFan } from './helpers.ts';

/** A small valid JPEG made in the test (a red/amber gradient-like picture). */
/** A new photo each call: the same bytes again would be the creator's vault file, with no processing. */
async function makeJpeg(): Promise<Buffer> {
  const b = Math.floor(Math.random() * 256);
  return sharp({
    create: { width: 640, height: 480, channels: 3, background: { r: 189, g: 9, b } },
  })
    .composite([
      {
        input: await sharp({
          create: { width: 320, height: 240, channels: 3, background: { r: 245, g: 158, b: 11 } },
        })
          .png()
          .toBuffer(),
        top: 120,
        left: 160,
      },
    ])
    .jpeg()
    .toBuffer();
}

async function expectNoSeriousA11yIssues(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(serious.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
}

/** Waits for the open modal's 250 ms animation to finish, so screenshots show it settled. */
async function modalSettled(page: Page): Promise<void> {
  const opacity = () =>
    page.evaluate(() => {
      const modals = document.querySelectorAll('.modal.is-open');
      const last = modals[modals.length - 1];
      return last ? getComputedStyle(last).opacity : '0';
    });
  await expect(page.locator('.modal.is-open').last()).toBeVisible();
  await expect.poll(opacity).toBe('1');
  await page.waitForTimeout(400);
  await expect.poll(opacity).toBe('1');
}

const message = `E2E sunset ${Date.now()}`;
let postId = '';

test.describe
  .serial('creators content journey', () => {
    test('creator1 publishes a post with an image and sees the progress reach the post page', async ({
      page,
      request,
    }, info) => {
      await loginByApi(page, request, 'creator1', '/post/create');
      await expect(page.getByTestId('post-editor')).toBeVisible();
      await expect(page.getByTestId('editor-review-notice')).toBeVisible();
      await page.getByTestId('editor-message').fill(message);
      await expect(page.getByTestId('editor-counter')).toContainText(`${message.length}/280`);
      // The client pre-check refuses an unsupported file with the catalogue text.
      await page
        .getByTestId('editor-files')
        .setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
      await expect(page.getByTestId('editor-file-errors')).toContainText(
        'The file notes.pdf is not supported',
      );
      await page
        .getByTestId('editor-files')
        .setInputFiles({ name: 'sunset.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg() });
      await expect(page.getByTestId('editor-preview')).toHaveCount(1);
      await page.getByTestId('editor-visibility-free').check();
      // Certifications are required.
      await page.getByTestId('editor-submit').click();
      await expect(page.locator('.certifications .field-error').first()).toBeVisible();
      await page.getByTestId('editor-cert-adults').check();
      await page.getByTestId('editor-cert-consent').check();
      await page.getByTestId('editor-cert-terms').check();
      await shot(page, info, 'editor-desktop');
      await expectNoSeriousA11yIssues(page, 'post editor');
      // The upload is held until the progress has been seen: a small picture on a quiet server
      // can be published before the first frame that would show it (CI: flaky, passed on retry).
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/v1/posts', async (route) => {
        if (route.request().method() === 'POST') await held;
        await route.continue();
      });
      await page.getByTestId('editor-submit').click();
      await expect(page.getByTestId('editor-progress')).toBeVisible();
      release();
      await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/, { timeout: 30_000 });
      await page.unroute('**/api/v1/posts');
      postId = page.url().split('/').pop() ?? '';
      const card = page.locator(`[data-testid="post-card"][data-post-id="${postId}"]`);
      await expect(card).toContainText(message);
      await expect(card.getByTestId('post-review-status')).toBeVisible();
      await expect(card.locator('img.media-item')).toBeVisible();
      await shot(page, info, 'post-desktop');
    });

    test('superadmin approves it in the review tab', async ({ page, request }, info) => {
      await loginByApi(page, request, 'superadmin', '/?adminStatus=new');
      await expect(page.getByTestId('review-filter-new')).toHaveAttribute('aria-current', 'page');
      const item = page.locator(`[data-testid="review-item"]:has([data-post-id="${postId}"])`);
      await expect(item).toBeVisible();
      await shot(page, info, 'review-desktop');
      await expectNoSeriousA11yIssues(page, 'review tab');
      await item.getByTestId('review-approve').click();
      await expect(page.getByTestId('review-confirm-text')).toContainText(
        'The post status will change to Approved',
      );
      await page.getByTestId('review-reason').fill('Looks fine');
      await modalSettled(page);
      await shot(page, info, 'review-confirm-desktop');
      await page.getByTestId('confirm-ok').click();
      await expect(item).toHaveCount(0);
      await page.getByTestId('review-filter-approved').click();
      await expect(page.locator(`[data-testid="review-item"]:has([data-post-id="${postId}"])`)).toBeVisible();
      await page.setViewportSize(PHONE);
      await page.goto('/?adminStatus=all');
      await expect(page.getByTestId('review-item').first()).toBeVisible();
      await shot(page, info, 'review-phone');
    });

    test('fanuser1 likes, comments and saves it on the creator page, then finds it under saved', async ({
      page,
      request,
    }, info) => {
      await loginByApi(page, request, 'fanuser1', '/creator1');
      await expect(page.getByTestId('creator-header')).toBeVisible();
      await expect(page.getByTestId('creator-subscribe')).toContainText('$');
      const card = page.locator(`[data-testid="post-card"][data-post-id="${postId}"]`);
      await expect(card).toBeVisible();
      await shot(page, info, 'profile-desktop');
      await expectNoSeriousA11yIssues(page, 'creator page');

      await expect(card.getByTestId('post-like-count')).toHaveText('0');
      await card.getByTestId('post-like').click();
      await expect(card.getByTestId('post-like')).toHaveAttribute('aria-pressed', 'true');
      await expect(card.getByTestId('post-like-count')).toHaveText('1');

      await card.getByTestId('post-comment').click();
      const overlay = page.getByTestId('comments-overlay');
      await expect(overlay).toBeVisible();
      await page.getByTestId('comment-input').fill('Lovely colours!');
      await page.getByTestId('comment-submit').click();
      await expect(overlay.getByTestId('comment-item').first()).toContainText('Lovely colours!');
      await modalSettled(page);
      await shot(page, info, 'comments-desktop');
      await page.keyboard.press('Escape');
      await expect(overlay).toBeHidden();

      await card.getByTestId('post-save').click();
      await expect(card.getByTestId('post-save')).toHaveAttribute('aria-pressed', 'true');

      // The subscribe button opens the buy-subscription overlay with the price.
      await page.getByTestId('creator-subscribe').click();
      await expect(page.getByTestId('buy-subscription-overlay')).toContainText('$');
      await page.keyboard.press('Escape');

      await page.goto('/?feed=my_content&content=saved&view=content');
      await expect(page.locator(`[data-testid="post-card"][data-post-id="${postId}"]`)).toBeVisible();
    });

    test('screens: feed plus and grid, post, story viewer, profile at desktop and phone', async ({
      page,
      request,
    }, info) => {
      test.setTimeout(120_000);
      await loginByApi(page, request, 'fanuser1', '/');
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.goto('/?feed_mode=plus');
        await expect(page.getByTestId('post-card').first()).toBeVisible();
        await shot(page, info, `feed-plus-${size}`);
        await expectNoSeriousA11yIssues(page, `feed plus ${size}`);
        await page.getByTestId('feed-mode-grid').click();
        await expect(page.locator('[data-testid="post-card"][data-mode="grid"]').first()).toBeVisible();
        await shot(page, info, `feed-grid-${size}`);
        await page.goto('/creator1?feed_mode=grid');
        await expect(page.locator('[data-testid="post-card"][data-mode="grid"]').first()).toBeVisible();
        await shot(page, info, `profile-grid-${size}`);
        await page.goto('/creator1');
        await expect(page.getByTestId('post-card').first()).toBeVisible();
        await shot(page, info, `profile-${size}`);
        await page.goto(`/post/${postId}`);
        await expect(page.getByTestId('post-card')).toBeVisible();
        await shot(page, info, `post-${size}`);
        await page.goto('/creator1');
        await page.getByTestId('story-bubble').first().click();
        await expect(page.getByTestId('story-viewer')).toBeVisible();
        await modalSettled(page);
        await shot(page, info, `story-viewer-${size}`);
        await expectNoSeriousA11yIssues(page, `story viewer ${size}`);
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('story-viewer')).toBeHidden();
      }
      // A locked pay-per-view post shows the blurred preview and the unlock overlay.
      await page.setViewportSize(DESKTOP);
      await page.goto('/creator1');
      const unlock = page.getByTestId('post-unlock').first();
      await expect(unlock).toBeVisible();
      await unlock.click();
      await expect(page.getByTestId('unlock-overlay')).toBeVisible();
      await modalSettled(page);
      await shot(page, info, 'unlock-desktop');
    });

    test('a fan sets a profile picture and a cover on their own profile', async ({ page, request }, info) => {
      const fan = await signUpFan(request, 'pictures', { confirmEmail: true });
      await page.setViewportSize(DESKTOP);
      await openWithToken(page, fan.token, fan.user, '/?feed=my-profile');
      await expect(page.getByTestId('my-profile')).toBeVisible();
      await expect(page.locator('[data-testid="profile-cover"] img')).toHaveCount(0);
      for (const kind of ['avatar', 'cover'] as const) {
        await page.getByTestId(`${kind}-file`).setInputFiles({
          name: `${kind}.jpg`,
          mimeType: 'image/jpeg',
          buffer: await makeJpeg(),
        });
        await expect(page.getByTestId('image-adjust-editor')).toBeVisible();
        const upload = page.waitForResponse((r) => r.url().includes('/api/v1/user/profile/image'));
        await page.getByTestId('image-adjust-save').click();
        expect((await upload).ok()).toBe(true);
        await expect(page.getByTestId('image-adjust-editor')).toBeHidden();
      }
      await expect(page.locator('[data-testid="profile-cover"] img')).toBeVisible();
      await expect(page.locator('[data-testid="profile-avatar"] img')).toBeVisible();
      await page.reload();
      await expect(page.locator('[data-testid="profile-avatar"] img')).toBeVisible();
      await shot(page, info, 'my-profile-pictures');
    });

    test('creator1 crops a new avatar in the adjust editor and manages the gallery', async ({
      page,
      request,
    }, info) => {
      await loginByApi(page, request, 'creator1', '/creator1');
      await expect(page.getByTestId('creator-tools')).toBeVisible();
      await page.getByTestId('avatar-file').setInputFiles({
        name: 'me.jpg',
        mimeType: 'image/jpeg',
        buffer: await makeJpeg(),
      });
      const editor = page.getByTestId('image-adjust-editor');
      await expect(editor).toBeVisible();
      await page.getByTestId('image-adjust-zoom').fill('2');
      const frame = editor.locator('.adjust-frame');
      const box = await frame.boundingBox();
      if (box) {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 20, { steps: 4 });
        await page.mouse.up();
      }
      await modalSettled(page);
      await shot(page, info, 'image-adjust-desktop');
      // The crop (x, y, width, height in source pixels) goes with the file; the server answers the new profile.
      const upload = page.waitForResponse((r) => r.url().includes('/api/v1/user/profile/image'));
      await page.getByTestId('image-adjust-save').click();
      expect((await upload).ok()).toBe(true);
      await expect(editor).toBeHidden();
      await expect(page.locator('.creator-header img.avatar--xl')).toBeVisible();

      await page.getByTestId('creator-tab-gallery').click();
      await expect(page.getByTestId('gallery-category').first()).toBeVisible();
      await page.getByTestId('gallery-new').click();
      const dialog = page.getByTestId('gallery-new-dialog');
      await dialog.getByRole('textbox').fill('E2E picks');
      await dialog.locator('.gallery-pick__item input').first().check();
      await dialog.getByRole('button', { name: 'Create category' }).click();
      await expect(page.getByTestId('gallery-category').filter({ hasText: 'E2E picks' })).toBeVisible();
      await shot(page, info, 'gallery-desktop');
      await page
        .getByTestId('gallery-category')
        .filter({ hasText: 'E2E picks' })
        .getByTestId('gallery-delete')
        .click();
      await page.getByTestId('confirm-ok').click();
      await expect(page.getByTestId('gallery-category').filter({ hasText: 'E2E picks' })).toHaveCount(0);
    });

    test('explore finds a creator with a typo', async ({ page, request }, info) => {
      await loginByApi(page, request, 'fanuser1', '/?explore=1');
      await page.getByTestId('explore-search').fill('cretor1');
      await expect(page.getByTestId('explore-results')).toContainText('creator1');
      await shot(page, info, 'explore-desktop');
      // The content screens speak Spanish too.
      await page.getByTestId('language-selector').selectOption('es');
      await page.goto('/creator1');
      await expect(page.getByTestId('creator-follow')).toContainText('favoritos');
      await expect(page.getByTestId('creator-subscribe')).toContainText('/mes');
      await shot(page, info, 'profile-es-desktop');
    });

    test('a comment reaches a second viewer of the post live', async ({ browser, request }) => {
      const fan2 = await browser.newContext();
      const fan1 = await browser.newContext();
      try {
        const watcher = await fan2.newPage();
        await loginByApi(watcher, request, 'fanuser2', `/post/${postId}`);
        await watcher.locator(`[data-post-id="${postId}"]`).getByTestId('post-comment').click();
        await expect(watcher.getByTestId('comments-overlay')).toBeVisible();
        await expect(watcher.getByTestId('comment-item').first()).toBeVisible();
        const writer = await fan1.newPage();
        await loginByApi(writer, request, 'fanuser1', `/post/${postId}`);
        await writer.locator(`[data-post-id="${postId}"]`).getByTestId('post-comment').click();
        // A reply to the first comment, indented under it.
        await writer.getByTestId('comment-reply').first().click();
        await writer.getByTestId('comment-input').fill('Live reply');
        await writer.getByTestId('comment-submit').click();
        await expect(writer.locator('[data-testid="comment-item"][data-deep="1"]')).toContainText(
          'Live reply',
        );
        await expect(watcher.locator('[data-testid="comment-item"][data-deep="1"]')).toContainText(
          'Live reply',
        );
        // An empty comment shows the server's 'Missing Data'.
        await writer.getByTestId('comment-submit').click();
        await expect(writer.getByTestId('comments-overlay').getByTestId('alert')).toContainText(
          'Missing Data',
        );
      } finally {
        await fan1.close();
        await fan2.close();
      }
    });

    test('creator1 edits the post, removing its file after confirming, then deletes the post', async ({
      page,
      request,
    }) => {
      await loginByApi(page, request, 'creator1', `/post/edit/${postId}`);
      await expect(page.getByTestId('editor-message')).toHaveValue(message);
      await page.getByTestId('editor-message').fill(`${message} (edited)`);
      await page.getByTestId('editor-file-menu').first().click();
      await page.getByTestId('editor-file-remove').click();
      await page.getByTestId('confirm-ok').click();
      await expect(page.getByTestId('editor-preview')).toHaveCount(0);
      await page.getByTestId('editor-cert-adults').check();
      await page.getByTestId('editor-cert-consent').check();
      await page.getByTestId('editor-cert-terms').check();
      await page.getByTestId('editor-submit').click();
      await expect(page).toHaveURL(new RegExp(`/post/${postId}$`));
      const card = page.locator(`[data-testid="post-card"][data-post-id="${postId}"]`);
      await expect(card).toContainText('(edited)');
      await expect(card.locator('img.media-item')).toHaveCount(0);
      await card.getByTestId('post-menu').click();
      await page.getByTestId('post-delete').click();
      await page.getByTestId('confirm-ok').click();
      await expect(page).toHaveURL(/\/creator1$/);
      await expect(page.locator(`[data-post-id="${postId}"]`)).toHaveCount(0);
    });
  });
