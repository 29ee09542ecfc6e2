import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { DEMO_PASSWORD, DESKTOP, openWithToken, PHONE, settledShot, shot } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

/** A picture of its own colour per run, so the vault holds a new file. */
function picture(seed: number): Promise<Buffer> {
  const c = (n: number) => (seed * n) % 200;
  return sharp({
    create: { width: 480, height: 360, channels: 3, background: { r: c(37), g: c(71), b: c(113) } },
  })
    .jpeg()
    .toBuffer();
}

async function creatorSession(request: APIRequestContext) {
  const login = await request.post('/api/v1/auth/login', {
    data: { login: 'creator3', password: DEMO_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  return (await login.json()) as { token: string; user: unknown };
}

/** Picks the named file in the open vault picker and attaches it. */
async function pickFromVault(page: Page, testId: string, name: string) {
  await page.getByTestId(`${testId}-open`).click();
  const picker = page.getByTestId(testId);
  await picker.getByTestId('vault-search').fill(name);
  await picker.getByTestId('vault-item').filter({ hasText: name }).getByTestId('vault-pick').click();
  await picker.getByTestId(`${testId}-attach`).click();
}

const run = Date.now().toString(36);
const fileName = `vault-${run}.jpg`;

test('a creator reuses a vault file in a post and a message without uploading it again', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { token, user } = await creatorSession(request);
  // The first upload, as any post.
  const first = await request.post('/api/v1/posts', {
    headers: { a1sledom: token },
    multipart: {
      message: `Vault ${run}`,
      visibility: 'subscribers',
      certifyAdults: 'true',
      certifyConsent: 'true',
      certifyTerms: 'true',
      files: { name: fileName, mimeType: 'image/jpeg', buffer: await picture(Date.now() % 997) },
    },
  });
  expect(first.ok(), await first.text()).toBe(true);

  await page.setViewportSize(DESKTOP);
  await openWithToken(page, token, user, '/vault');
  const vault = page.getByTestId('vault-page');
  await vault.getByTestId('vault-search').fill(fileName);
  const item = vault.getByTestId('vault-item').filter({ hasText: fileName });
  await expect(item.getByTestId('vault-uses')).toHaveText('1 post');
  await expect(item.locator('img')).toBeVisible({ timeout: 45_000 });

  // A new post from the vault: no file chosen, the same file attached.
  await page.goto('/post/create');
  await pickFromVault(page, 'editor-vault', fileName);
  await expect(page.getByTestId('editor-preview')).toHaveCount(1);
  await page.getByTestId('editor-message').fill(`Again from the vault ${run}`);
  await page.getByTestId('editor-cert-adults').check();
  await page.getByTestId('editor-cert-consent').check();
  await page.getByTestId('editor-cert-terms').check();
  await page.getByTestId('editor-submit').click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);

  // In a chat: the creator attaches it to a paid message.
  await page.goto('/?messages=fanuser1');
  await pickFromVault(page, 'chat-vault', fileName);
  await expect(page.getByTestId('chat-vault-files')).toContainText('1 file from the vault');
  await page.getByTestId('chat-price').fill('5');
  const caption = `From my vault ${run}`;
  await page.getByTestId('chat-input').fill(caption);
  await page.getByTestId('chat-send').click();
  const sent = page.getByTestId('chat-message').filter({ hasText: caption });
  await expect(sent).toHaveAttribute('data-processing', 'false', { timeout: 30_000 });
  await expect(sent.locator('img').first()).toBeVisible();

  // The vault counts both uses of the one stored file and refuses to delete it.
  await page.goto('/vault');
  await page.getByTestId('vault-search').fill(fileName);
  await expect(item.getByTestId('vault-uses')).toHaveText('2 posts · 1 message');
  await expect(page.getByTestId('vault-count')).toHaveText('1 file');
  await item.getByTestId('vault-delete').click();
  await page.getByTestId('vault-delete-dialog').getByTestId('confirm-ok').click();
  await expect(page.getByTestId('vault-notice')).toContainText('Remove it from there first');
  await shot(page, test.info(), 'vault-desktop');
});

test('in Spanish on a phone: the vault filters and the picker of the welcome message', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { token, user } = await creatorSession(request);
  await page.setViewportSize(PHONE);
  await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
  await openWithToken(page, token, user, '/vault');
  const vault = page.getByTestId('vault-page');
  await expect(vault.getByRole('heading', { name: 'Bóveda' })).toBeVisible();
  await vault.getByTestId('vault-used').selectOption('used');
  await vault.getByTestId('vault-search').fill(fileName);
  await expect(
    vault.getByTestId('vault-item').filter({ hasText: fileName }).getByTestId('vault-uses'),
  ).toHaveText('2 publicaciones · 1 mensaje');
  await expect(vault.getByTestId('vault-count')).toHaveText('1 archivo');
  await shot(page, test.info(), 'vault-es-phone');
  await vault.getByTestId('vault-used').selectOption('unused');
  await expect(vault.getByTestId('vault-item').filter({ hasText: fileName })).toHaveCount(0);

  // The welcome message of the offers takes paid vault files.
  await page.goto('/?feed=creator-statistics');
  const offers = page.getByTestId('creator-offers');
  await offers.getByTestId('field-welcomeText').fill('¡Bienvenido! Un regalo para ti.');
  await offers.getByTestId('welcome-vault-open').click();
  const picker = page.getByTestId('welcome-vault');
  await picker.getByTestId('vault-search').fill(fileName);
  await picker.getByTestId('vault-item').filter({ hasText: fileName }).getByTestId('vault-pick').click();
  await settledShot(page, test.info(), 'vault-picker-es-phone');
  await picker.getByTestId('welcome-vault-attach').click();
  await expect(offers.getByTestId('welcome-media').locator('img')).toHaveCount(1);
  await offers.getByTestId('field-welcomePrice').fill('5');
  await offers.getByTestId('welcome-save').click();
  await expect(offers.getByTestId('welcome-saved')).toBeVisible();
  await offers.getByTestId('welcome-media').scrollIntoViewIfNeeded();
  await shot(page, test.info(), 'vault-welcome-es-phone');
});
