import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  DESKTOP,
  expectAccessible,
  grantRoleByApi,
  loginByApi,
  openWithToken,
  PHONE,
  sessionOf,
  settledShot,
  shot,
  signUpFan,
} from './helpers.ts';

/** A new account given the developer role by the demo super, signed in again to carry it. */
async function newDeveloper(request: APIRequestContext, prefix: string) {
  const fan = await signUpFan(request, prefix);
  await grantRoleByApi(request, fan.user, 'developer');
  return { ...(await sessionOf(request, fan.username, { fresh: true })), username: fan.username };
}

async function createToken(page: Page, name: string, scopes: string[]): Promise<string> {
  await page.getByTestId('field-name').fill(name);
  for (const scope of scopes) await page.getByTestId(`scope-${scope}`).check();
  await page.getByTestId('token-create').click();
  await expect(page.getByTestId('token-created')).toBeVisible();
  return page.getByTestId('token-secret').inputValue();
}

test.describe('developer view (?feed=developer)', () => {
  test('desktop, English: a developer makes a token, calls the API within its scopes, is refused outside, revokes it', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    const dev = await newDeveloper(request, 'devEn');
    await openWithToken(page, dev.token, dev.user, '/');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('developer-link').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Developers' })).toBeVisible();
    await expect(page.getByTestId('tokens-empty')).toBeVisible();
    await expect(page.getByTestId('api-operation').first()).toBeVisible();

    // read:profile is ticked by default; add read:posts, expiry 7 days.
    await page.getByTestId('field-expiry').selectOption('7');
    const token = await createToken(page, 'Stats export', ['read:posts']);
    expect(token).toMatch(/^fv_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByTestId('token-item')).toHaveCount(1);
    await expect(page.getByTestId('token-item')).toContainText('read:posts');
    await expect(page.getByTestId('token-last-used')).toHaveText('Never used');
    // Example calls carry the new token; one shows a call outside its scopes.
    await expect(page.getByTestId('example-call')).toHaveCount(2);
    await expect(page.getByTestId('example-call').first()).toContainText(`Authorization: Bearer ${token}`);
    await expect(page.getByTestId('example-refused')).toContainText('/api/v1/');
    await shot(page, info, 'developer-created-en-1280');
    await expectAccessible(page);
    await page.getByTestId('developer-examples').scrollIntoViewIfNeeded();
    await shot(page, info, 'developer-examples-en-1280');

    // The token calls the API within its scopes…
    const bearer = { authorization: `Bearer ${token}` };
    const profile = await request.get('/api/v1/user/profile', { headers: bearer });
    expect(profile.status()).toBe(200);
    expect((await profile.json()).username).toBe(dev.username);
    expect((await request.get('/api/v1/posts', { headers: bearer })).status()).toBe(200);
    // …and is refused outside them, in the caller's language.
    const refused = await request.get('/api/v1/message/contacts', { headers: bearer });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({
      code: 'API_TOKEN_SCOPE_MISSING',
      message: 'This API token lacks the scope read:messages needed for this call.',
    });
    const security = await request.get('/api/v1/auth/sessions', { headers: { ...bearer, ilang: 'es' } });
    expect(security.status()).toBe(403);
    expect((await security.json()).code).toBe('API_TOKEN_NOT_ALLOWED');

    // Shown once: after a reload only its prefix is left, and its last use is listed.
    await page.reload();
    await expect(page.getByTestId('token-item')).toHaveCount(1);
    await expect(page.getByTestId('token-created')).toHaveCount(0);
    await expect(page.getByTestId('token-last-used')).toContainText('Last used');
    await expect(page.locator('body')).not.toContainText(token);

    // The API reference, filtered: the wallet endpoints with their token scope.
    await page.getByTestId('api-reference-filter').fill('wallet');
    await expect(page.getByTestId('api-reference-count')).toContainText('endpoint');
    const wallet = page.locator('[data-operation="wallet.get"]');
    await wallet.locator('summary').click();
    await expect(wallet.getByTestId('api-operation-scope')).toHaveText('read:wallet');
    await wallet.scrollIntoViewIfNeeded();
    await shot(page, info, 'developer-reference-en-1280');
    await expectAccessible(page);

    // Revoked: the API answers 401 at once.
    await page.getByTestId('token-revoke').click();
    await page.getByTestId('confirm-ok').click();
    await expect(page.getByTestId('token-revoked')).toBeVisible();
    await expect(page.getByTestId('tokens-empty')).toBeVisible();
    const after = await request.get('/api/v1/user/profile', { headers: bearer });
    expect(after.status()).toBe(401);
    expect((await after.json()).code).toBe('API_TOKEN_INVALID');
  });

  test('phone, Spanish: a form error in Spanish, a token made without expiry, the reference at 390 px', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(PHONE);
    const dev = await newDeveloper(request, 'devEs');
    await openWithToken(page, dev.token, dev.user, '/?feed=developer');
    await page.getByTestId('language-selector').selectOption('es');
    await expect(page.getByRole('heading', { level: 1, name: 'Desarrolladores' })).toBeVisible();
    // No name and no scope: both refused in Spanish, nothing sent.
    await page.getByTestId('scope-read:profile').uncheck();
    await page.getByTestId('token-create').click();
    await expect(page.getByTestId('field-scopes')).toContainText('Elige al menos un permiso.');
    await expect(page.getByTestId('token-form').locator('[aria-invalid="true"]')).toHaveCount(1);
    await settledShot(page, info, 'developer-form-error-es-390');

    await page.getByTestId('field-expiry').selectOption('never');
    const token = await createToken(page, 'Mi script', ['read:wallet']);
    await expect(page.getByTestId('token-item')).toContainText('No caduca');
    await expect(page.getByTestId('token-created')).toContainText('solo se muestra esta vez');
    await shot(page, info, 'developer-created-es-390');
    await expectAccessible(page);

    const bearer = { authorization: `Bearer ${token}`, ilang: 'es' };
    expect((await request.get('/api/v1/wallet', { headers: bearer })).status()).toBe(200);
    const refused = await request.get('/api/v1/user/profile', { headers: bearer });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).message).toBe(
      'Este token de API no tiene el permiso read:profile que necesita esta llamada.',
    );

    await page.getByTestId('api-reference-filter').fill('/message');
    const send = page.locator('[data-operation="message.send"]');
    await send.locator('summary').click();
    await expect(send.getByTestId('api-operation-scope')).toHaveText('write:messages');
    await send.scrollIntoViewIfNeeded();
    await shot(page, info, 'developer-reference-es-390');
    await expectAccessible(page);
  });

  test('a fan without the developer role reads the reference but cannot make tokens', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(PHONE);
    const fan = await signUpFan(request, 'devFan');
    await openWithToken(page, fan.token, fan.user, '/?feed=developer');
    await expect(page.getByTestId('developer-role-needed')).toBeVisible();
    await expect(page.getByTestId('token-form')).toHaveCount(0);
    await expect(page.getByTestId('api-operation').first()).toBeVisible();
    await shot(page, info, 'developer-fan-en-390');
    const refused = await request.post('/api/v1/developer/tokens', {
      headers: { a1sledom: fan.token },
      data: { name: 'x', scopes: ['read:posts'] },
    });
    expect(refused.status()).toBe(403);
  });

  for (const [lang, viewport, size] of [
    ['en', DESKTOP, 1280],
    ['es', PHONE, 390],
  ] as const) {
    test(`the super grants the developer role with "Make developer" and takes it back (${lang}, ${size})`, async ({
      page,
      request,
    }, info) => {
      const fan = await signUpFan(request, `mkDev${lang}`);
      await page.setViewportSize(viewport);
      await page.addInitScript((l) => window.localStorage.setItem('language', l), lang);
      await loginByApi(page, request, 'superadmin', '/?admin=users');
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await page.getByTestId('user-search').fill(fan.username);
      await page.getByTestId('user-search').press('Enter');
      const row = page.locator(`[data-testid="user-row"][data-user="${fan.username}"]`);
      await expect(page.getByTestId('user-row')).toHaveCount(1);
      const button = row.getByTestId('user-role-developer');
      const [make, remove] =
        lang === 'en'
          ? ['Make developer', 'Remove developer']
          : ['Hacer desarrollador', 'Quitar desarrollador'];
      await expect(button).toHaveText(make);
      // Before: the fan cannot make tokens.
      const before = await request.post('/api/v1/developer/tokens', {
        headers: { a1sledom: fan.token },
        data: { name: 'before', scopes: ['read:profile'] },
      });
      expect(before.status()).toBe(403);

      await button.click();
      await expect(button).toHaveText(remove);
      await button.scrollIntoViewIfNeeded();
      await shot(page, info, `admin-make-developer-${lang}-${size}`);
      // The role is the account's: a new session of the fan makes a token.
      const dev = await sessionOf(request, fan.username, { fresh: true });
      const made = await request.post('/api/v1/developer/tokens', {
        headers: { a1sledom: dev.token },
        data: { name: 'after', scopes: ['read:profile'] },
      });
      expect(made.status(), await made.text()).toBe(200);

      // And back: "Remove developer" withdraws it.
      await button.click();
      await expect(button).toHaveText(make);
      const again = await sessionOf(request, fan.username, { fresh: true });
      const refused = await request.post('/api/v1/developer/tokens', {
        headers: { a1sledom: again.token },
        data: { name: 'again', scopes: ['read:profile'] },
      });
      expect(refused.status()).toBe(403);
    });
  }
});
