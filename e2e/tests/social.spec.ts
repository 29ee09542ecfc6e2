import { expect, type Page, test } from '@playwright/test';
import { LOCAL_URL } from '../playwright.config.ts';
import { DEMO_PASSWORD, DESKTOP, enableTotpByApi, PHONE, shot, signUpFan, totpCode } from './helpers.ts';

/**
 * Social sign-in against a real OpenID Connect provider (npm oidc-provider, started next to the app
 * by playwright.config.ts; any login is accepted and names the person: `x@y` is the email). The
 * callback returns to localhost, so the journeys open the app there (one origin for the popup).
 */

/** Plays the person at the provider page: signs in as `login` and consents, as far as it asks. */
async function atProvider(page: Page, login: string): Promise<void> {
  const field = page.locator('input[name="login"]');
  const consent = page.getByRole('button', { name: 'Continue', exact: true });
  for (let step = 0; step < 3; step++) {
    const gone = () => 'back' as const;
    const next = await Promise.race([
      field.waitFor().then(() => 'login' as const, gone),
      consent.waitFor().then(() => 'consent' as const, gone),
      page.waitForURL(/\/auth\/oidc\/callback|localhost/).then(gone, gone),
    ]);
    if (next === 'back' || page.isClosed()) return;
    if (next === 'login') {
      await field.fill(login);
      await page.locator('input[name="password"]').fill('any');
      await page.getByRole('button', { name: 'Sign-in', exact: true }).click();
    } else {
      await consent.click();
    }
    await page.waitForLoadState().catch(() => undefined);
  }
}

/** Clicks a button that opens the provider in a popup, and plays the person there. */
async function inPopup(page: Page, button: string, login: string): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await page.getByTestId(button).click();
  const popup = await popupOpened;
  const closed = popup.waitForEvent('close');
  await atProvider(popup, login);
  await closed;
}

const personOf = (prefix: string) => `${prefix}${Date.now().toString(36)}@oidc.test`;

test.describe('social sign-in (OpenID Connect)', () => {
  test('signs up in a popup, resumes the page it was going to, signs in again; an existing email is refused (en, desktop)', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    await page.addInitScript(() => {
      window.localStorage.setItem('language', 'en');
      window.localStorage.setItem('ageAccepted', 'confirm');
    });
    // The intended action: a page that needs login.
    await page.goto(`${LOCAL_URL}/user/devices`);
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByTestId('social-oidc')).toHaveText('Continue with Test ID');
    await shot(page, info, 'social-login-en-desktop');
    const person = personOf('sso');
    await inPopup(page, 'social-oidc', person);

    // First sign-in: the sign-up form, filled from the provider's claims.
    const form = page.getByTestId('social-signup-form');
    await expect(form).toContainText(person);
    await expect(page.getByTestId('field-username')).not.toHaveValue('');
    await shot(page, info, 'social-signup-en-desktop');
    await page.getByTestId('field-birthdate').fill('2015-01-01');
    await page.getByTestId('social-signup-submit').click();
    await expect(form).toContainText(/18/);
    await page.getByTestId('field-birthdate').fill('1994-04-04');
    await page.getByTestId('field-acceptTerms').check();
    await page.getByTestId('social-signup-submit').click();
    await expect(page).toHaveURL(/\/user\/devices/);
    const username = await page.evaluate(() => JSON.parse(window.localStorage.getItem('user') ?? '{}').user);
    expect(username).toBeTruthy();

    // Signed out, the provider (which remembers the person) signs in again: the same account.
    await page.evaluate(() => window.localStorage.removeItem('token'));
    await page.goto(`${LOCAL_URL}/login`);
    await inPopup(page, 'social-oidc', person);
    await expect(page).not.toHaveURL(/\/login/);
    expect(await page.evaluate(() => JSON.parse(window.localStorage.getItem('user') ?? '{}').user)).toBe(
      username,
    );

    // A provider account with the email of an existing account: never taken over.
    const fan = await signUpFan(request, 'ssoowner');
    await page.context().clearCookies({ domain: '127.0.0.1' });
    await page.evaluate(() => window.localStorage.removeItem('token'));
    await page.goto(`${LOCAL_URL}/login`);
    await inPopup(page, 'social-oidc', `${fan.username}@example.com`);
    await expect(page.getByTestId('social-error')).toContainText(
      'sign in with your password, then link Test ID',
    );
    await expect(page).toHaveURL(/\/login/);
    await shot(page, info, 'social-email-taken-en-desktop');
  });

  test('links and unlinks on the security page, the full page when the popup is blocked (es, phone)', async ({
    page,
    request,
  }, info) => {
    const fan = await signUpFan(request, 'ssolink');
    await page.setViewportSize(PHONE);
    await page.addInitScript(() => {
      window.localStorage.setItem('language', 'es');
      window.localStorage.setItem('ageAccepted', 'confirm');
      // A phone that blocks popups: window.open answers null.
      window.open = () => null;
    });
    await page.goto(`${LOCAL_URL}/login`);
    await page.getByTestId('field-login').fill(fan.username);
    await page.getByTestId('field-password').fill(DEMO_PASSWORD);
    await page.getByTestId('login-submit').click();
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto(`${LOCAL_URL}/user/security`);
    const section = page.getByTestId('linked-providers');
    await expect(section).toContainText('Proveedores de inicio de sesión');
    await page.getByTestId('provider-link-oidc').click();
    await page.waitForURL(/127\.0\.0\.1/);
    const person = personOf('ssolink');
    await atProvider(page, person);
    await expect(page).toHaveURL(/\/user\/security/);
    await expect(page.getByTestId('provider-linked')).toContainText('Vinculado');
    await expect(page.getByTestId('provider-row')).toContainText(person);
    await section.scrollIntoViewIfNeeded();
    await shot(page, info, 'social-linked-es-phone');

    // The callback address again (a reload, a replayed code): nothing to finish, said clearly.
    await page.goto(`${LOCAL_URL}/auth/oidc/callback?state=replayed&code=replayed`);
    await expect(page.getByTestId('social-error')).toContainText('ya terminó o caducó');

    // Signed out, the linked provider signs in to this account (full page, then the callback page).
    await page.evaluate(() => window.localStorage.removeItem('token'));
    await page.goto(`${LOCAL_URL}/login`);
    await expect(page.getByTestId('social-oidc')).toHaveText('Continuar con Test ID');
    await shot(page, info, 'social-login-es-phone');
    await page.getByTestId('social-oidc').click();
    await page.waitForURL(/127\.0\.0\.1|\/auth\/oidc\/callback/);
    await atProvider(page, person);
    await expect(page).not.toHaveURL(/\/login|\/auth\/oidc/);
    expect(await page.evaluate(() => JSON.parse(window.localStorage.getItem('user') ?? '{}').user)).toBe(
      fan.username,
    );

    // Unlinked (the password remains a way in), it is gone from the list.
    await page.goto(`${LOCAL_URL}/user/security`);
    await page.getByTestId('provider-unlink').click();
    await expect(page.getByTestId('provider-row')).toHaveCount(0);
    await expect(page.getByTestId('provider-link-oidc')).toBeVisible();
  });

  test('an account with two-step sign-in gets the second step after the provider: a code, then a recovery code (en desktop, es phone)', async ({
    page,
    request,
  }, info) => {
    test.setTimeout(120_000);
    await page.setViewportSize(DESKTOP);
    await page.addInitScript(() => window.localStorage.setItem('ageAccepted', 'confirm'));
    await page.addInitScript(() => window.localStorage.setItem('language', 'en'));
    // An account made through the provider, then two-step sign-in turned on.
    await page.goto(`${LOCAL_URL}/login`);
    const person = personOf('sso2fa');
    await inPopup(page, 'social-oidc', person);
    await page.getByTestId('field-birthdate').fill('1990-02-02');
    await page.getByTestId('field-acceptTerms').check();
    await page.getByTestId('social-signup-submit').click();
    await expect(page).not.toHaveURL(/\/login/);
    const token = (await page.evaluate(() => window.localStorage.getItem('token'))) as string;
    const username = await page.evaluate(() => JSON.parse(window.localStorage.getItem('user') ?? '{}').user);
    const { secret, recoveryCodes } = await enableTotpByApi(request, token);

    // Signed out, the provider proves the person again: no session before the second step.
    await page.evaluate(() => window.localStorage.removeItem('token'));
    await page.goto(`${LOCAL_URL}/login`);
    await inPopup(page, 'social-oidc', person);
    await expect(page.getByTestId('two-factor-step')).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
    await page.getByTestId('two-factor-code').fill('000000');
    await page.getByTestId('two-factor-submit').click();
    await expect(page.getByTestId('two-factor-error')).toBeVisible();
    await shot(page, info, 'social-two-factor-en-desktop');
    // The next step's code (the enrolment used this one; a code is never accepted twice).
    await page.getByTestId('two-factor-code').fill(await totpCode(secret, 1));
    await page.getByTestId('two-factor-submit').click();
    await expect(page).not.toHaveURL(/\/login/);
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('token'))).toBeTruthy();
    expect(await page.evaluate(() => JSON.parse(window.localStorage.getItem('user') ?? '{}').user)).toBe(
      username,
    );

    // Again in Spanish on a phone, with a recovery code this time.
    await page.evaluate(() => window.localStorage.removeItem('token'));
    await page.setViewportSize(PHONE);
    await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
    await page.goto(`${LOCAL_URL}/login`);
    await expect(page.getByTestId('social-oidc')).toHaveText('Continuar con Test ID');
    await inPopup(page, 'social-oidc', person);
    await expect(page.getByTestId('two-factor-step')).toBeVisible();
    await shot(page, info, 'social-two-factor-es-phone');
    await page.getByTestId('two-factor-switch').click();
    await page.getByTestId('two-factor-code').fill(recoveryCodes[0] as string);
    await page.getByTestId('two-factor-submit').click();
    await expect(page).not.toHaveURL(/\/login/);
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('token'))).toBeTruthy();
    expect(await page.evaluate(() => JSON.parse(window.localStorage.getItem('user') ?? '{}').user)).toBe(
      username,
    );
  });
});
