import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { DEMO_PASSWORD, DESKTOP, openWithToken, PHONE, settledShot, shot, signUpFan } from './helpers.ts';

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

test('folders, and where a file is used and what it sold, in English on a desktop and Spanish on a phone', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { token, user } = await creatorSession(request);
  const creator = { a1sledom: token };
  const found = await request.get(`/api/v1/vault?q=${encodeURIComponent(fileName)}`, { headers: creator });
  const fileId = ((await found.json()) as { items: { _id: string }[] }).items[0]!._id;

  // A new fan buys credits through the sandbox and unlocks a paid message holding the file.
  const fan = await signUpFan(request, 'vaultfan');
  const fanContext = await browser.newContext();
  const fanPage = await fanContext.newPage();
  await openWithToken(fanPage, fan.token, fan.user, '/?feed=my-credits');
  await fanPage.getByTestId('credit-bag-buy-50').click();
  await fanPage.locator('button[name="decision"][value="approve"]').click();
  await expect(fanPage.getByTestId('credits-balance')).toHaveText(/^50 credits$/);
  await fanContext.close();
  const sent = await request.post('/api/v1/message/send', {
    headers: creator,
    data: {
      to: fan.username,
      message: `Paid ${run}`,
      messageUUID: `vault-e2e-${run}`,
      price: 7,
      vaultMedia: [fileId],
    },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const messageId = ((await sent.json()) as { message: { _id: string } }).message._id;
  const unlock = await request.post(`/api/v1/message/${messageId}/unlock`, {
    headers: { a1sledom: fan.token },
  });
  expect(unlock.ok(), await unlock.text()).toBe(true);

  await page.setViewportSize(DESKTOP);
  await openWithToken(page, token, user, '/vault');
  const vault = page.getByTestId('vault-page');
  // A folder: created, shown (empty), the file moved into it from its details.
  const folderName = `Beach ${run}`;
  await vault.getByTestId('vault-folder-name').fill(folderName);
  await vault.getByTestId('vault-folder-save').click();
  await expect(vault.getByTestId('vault-folder-notice')).toHaveText(`Folder “${folderName}” created.`);
  await expect(vault.getByTestId('vault-folder').locator('option:checked')).toHaveText(`${folderName} (0)`);
  await expect(vault.getByTestId('vault-item')).toHaveCount(0);
  await vault.getByTestId('vault-folder').selectOption('all');
  await vault.getByTestId('vault-search').fill(fileName);
  const item = vault.getByTestId('vault-item').filter({ hasText: fileName });
  await expect(item.getByTestId('vault-earned')).toContainText('1 sale');
  await item.getByTestId('vault-details').click();
  const details = page.getByTestId('vault-file');
  await expect(details.getByTestId('vault-file-earned')).toContainText('1 sale · 7 credits · you earned');
  await expect(details.getByTestId('vault-use-post')).toHaveCount(2);
  const message = details.getByTestId('vault-use-message').filter({ hasText: `Message to @${fan.username}` });
  await expect(message).toContainText('Price: 7 credits · 1 sale');
  await expect(details.getByTestId('vault-use-welcome')).toBeVisible();
  await details.getByTestId('vault-file-folder').selectOption({ label: folderName });
  await expect(vault.getByTestId('vault-folder').locator(`option:has-text("${folderName}")`)).toHaveText(
    `${folderName} (1)`,
  );
  await settledShot(page, test.info(), 'vault-file-desktop');
  // The message use links to the conversation.
  await message.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`messages=${fan.username}`));
  await page.goto('/vault');
  await vault.getByTestId('vault-folder').selectOption({ label: `${folderName} (1)` });
  await expect(vault.getByTestId('vault-item')).toHaveCount(1);
  await expect(item).toBeVisible();
  await shot(page, test.info(), 'vault-folder-desktop');

  // Spanish on a phone: rename the folder, browse it in the picker, delete it (the file stays).
  await page.setViewportSize(PHONE);
  await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
  await page.goto('/vault');
  await expect(vault.getByRole('heading', { name: 'Bóveda' })).toBeVisible();
  await vault.getByTestId('vault-folder').selectOption({ label: `${folderName} (1)` });
  await vault.getByTestId('vault-folder-rename').click();
  const renamed = `Playa ${run}`;
  await vault.getByTestId('vault-folder-name').fill(renamed);
  await vault.getByTestId('vault-folder-save').click();
  await expect(vault.getByTestId('vault-folder-notice')).toHaveText(`Carpeta renombrada a «${renamed}».`);
  await expect(vault.getByTestId('vault-item')).toHaveCount(1);
  await vault.getByTestId('vault-item').getByTestId('vault-details').click();
  await expect(page.getByTestId('vault-file').getByTestId('vault-file-earned')).toContainText(
    '1 venta · 7 créditos · has ganado',
  );
  await settledShot(page, test.info(), 'vault-file-es-phone');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('vault-file')).toHaveCount(0);
  await shot(page, test.info(), 'vault-folder-es-phone');

  await page.goto('/post/create');
  await page.getByTestId('editor-vault-open').click();
  const picker = page.getByTestId('editor-vault');
  await picker.getByTestId('vault-folder').selectOption({ label: `${renamed} (1)` });
  await expect(picker.getByTestId('vault-item')).toHaveCount(1);
  await expect(picker.getByTestId('vault-item')).toContainText(fileName);
  await page.keyboard.press('Escape');

  await page.goto('/vault');
  await vault.getByTestId('vault-folder').selectOption({ label: `${renamed} (1)` });
  await vault.getByTestId('vault-folder-delete').click();
  await page.getByTestId('vault-folder-delete-dialog').getByTestId('confirm-ok').click();
  await expect(vault.getByTestId('vault-folder-notice')).toContainText(`Carpeta «${renamed}» eliminada`);
  await vault.getByTestId('vault-search').fill(fileName);
  await expect(vault.getByTestId('vault-item').filter({ hasText: fileName })).toHaveCount(1);
});
