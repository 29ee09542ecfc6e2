import { expect, type Page, test } from '@playwright/test';
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
  totpCode,
} from './helpers.ts';

/** The code of the newest confirmation mail to this address (the job sends it shortly after signup). */
async function mailedCode(page: Page, email: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
      const { mails } = (await res.json()) as {
        mails: { subject: string; text: string; createdAt: string }[];
      };
      const newest = mails
        .filter((m) => /confirm/i.test(m.subject))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
      code = newest && /: (\d{6})\n/.exec(newest.text)?.[1];
      return code;
    })
    .toBeTruthy();
  return code as string;
}

test.describe('the verified flag', () => {
  for (const language of ['en', 'es'] as const) {
    for (const [device, size] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      test(`an unconfirmed fan browses, cannot change pictures, confirms from the banner (${language}, ${device})`, async ({
        page,
        request,
      }, info) => {
        const fan = await signUpFan(request, `vf${language}${device.slice(0, 1)}`);
        const email = `${fan.username}@example.com`;
        await page.setViewportSize(size);
        await page.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
        await openWithToken(page, fan.token, fan.user, '/?feed=my-profile');
        const banner = page.getByTestId('confirm-banner');
        await expect(banner).toBeVisible();
        await expect(banner).toContainText(language === 'es' ? 'Confirma tu correo' : 'Confirm your email');
        await expect(page.getByTestId('change-avatar')).toBeDisabled();
        await expect(page.getByTestId('change-cover')).toBeDisabled();
        await expect(page.getByTestId('picker-needs-email')).toBeVisible();
        await shot(page, info, `verified-banner-${language}-${device}`);

        // The server says the same, in the person's language.
        const refused = await page.evaluate(
          async ([token, lang, bytes]) => {
            const form = new FormData();
            form.append('kind', 'avatar');
            form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'a.png');
            const res = await fetch('/api/v1/user/profile/image', {
              method: 'POST',
              body: form,
              headers: { a1sledom: token, ilang: lang },
            });
            return { status: res.status, body: await res.json() };
          },
          [
            fan.token,
            language,
            [
              ...(await sharp({
                create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 10, b: 10 } },
              })
                .png()
                .toBuffer()),
            ],
          ] as const,
        );
        expect(refused.status).toBe(403);
        const refusal = refused.body as { code: string; message: string };
        expect(refusal.code).toBe('EMAIL_NOT_CONFIRMED');
        expect(refusal.message).toContain(language === 'es' ? 'confirma tu correo' : 'Confirm your email');
        const wallet = await page.request.get('/api/v1/wallet', { headers: { a1sledom: fan.token } });
        expect((await wallet.json()).credits).toBe(0);

        // Resend: a new mail, the old code stops working; a wrong code is a clear error.
        await page.getByTestId('confirm-resend').click();
        await expect(page.getByTestId('confirm-resent')).toBeVisible();
        await page.getByTestId('confirm-code').fill('000000');
        await page.getByTestId('confirm-submit').click();
        await expect(page.getByTestId('confirm-error')).toBeVisible();
        const code = await mailedCode(page, email);
        await page.getByTestId('confirm-code').fill(code);
        await page.getByTestId('confirm-submit').click();
        await expect(page.getByTestId('confirm-done')).toContainText(
          language === 'es' ? 'créditos' : 'credits',
        );
        await expect(page.getByTestId('change-avatar')).toBeEnabled();
        await shot(page, info, `verified-confirmed-${language}-${device}`);
        const after = await page.request.get('/api/v1/wallet', { headers: { a1sledom: fan.token } });
        expect((await after.json()).credits).toBeGreaterThan(0);
      });
    }
  }

  test("the mail's link confirms on another device without signing in", async ({ page, request }, info) => {
    const fan = await signUpFan(request, 'vflink');
    const email = `${fan.username}@example.com`;
    let link: string | undefined;
    await expect
      .poll(async () => {
        const res = await request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
        const { mails } = (await res.json()) as { mails: { text: string }[] };
        link = mails.map((m) => /(\/auth\/confirm\?token=[\w-]+)/.exec(m.text)?.[1]).find(Boolean);
        return link;
      })
      .toBeTruthy();
    await page.addInitScript(() => window.localStorage.setItem('ageAccepted', 'confirm'));
    await page.goto(link as string);
    await expect(page.getByTestId('confirm-done')).toBeVisible();
    await shot(page, info, 'verified-link');
    // Used once: opening it again says so.
    await page.reload();
    await expect(page.getByTestId('confirm-error')).toBeVisible();
    const me = await request.get('/api/v1/user/profile', { headers: { a1sledom: fan.token } });
    expect((await me.json()).verified).toBe(true);
  });
});

test.describe('devices', () => {
  const PHONE_UA =
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
  for (const [language, device, size] of [
    ['en', 'desktop', DESKTOP],
    ['es', 'phone', PHONE],
  ] as const) {
    test(`lists the signed-in devices and signs one out (${language}, ${device})`, async ({
      page,
      request,
    }, info) => {
      const fan = await signUpFan(request, `dev${language}`);
      const phone = await request.post('/api/v1/auth/login', {
        data: { login: fan.username, password: DEMO_PASSWORD },
        headers: { 'user-agent': PHONE_UA },
      });
      const phoneToken = ((await phone.json()) as { token: string }).token;
      await page.setViewportSize(size);
      await page.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
      await openWithToken(page, fan.token, fan.user, '/?feed=my-profile');
      await page.getByTestId('profile-devices-link').click();
      await expect(page).toHaveURL(/\/user\/devices$/);
      const rows = page.getByTestId('device-row');
      await expect(rows).toHaveCount(2);
      await expect(page.locator('[data-testid="device-row"][data-current]')).toHaveCount(1);
      await expect(page.getByTestId('devices-page')).toContainText('Android 14');
      await shot(page, info, `devices-${language}-${device}`);
      await page.getByTestId('device-revoke').click();
      await expect(rows).toHaveCount(1);
      const after = await request.get('/api/v1/user/profile', { headers: { a1sledom: phoneToken } });
      expect(after.status()).toBe(401);
    });
  }
});

test.describe('two-step sign-in', () => {
  for (const [language, device, size] of [
    ['en', 'desktop', DESKTOP],
    ['es', 'phone', PHONE],
  ] as const) {
    test(`the login asks for the authenticator code after the password (${language}, ${device})`, async ({
      page,
      request,
    }, info) => {
      const { generate } = await import('otplib');
      const fan = await signUpFan(request, `tf${language}`);
      const headers = { a1sledom: fan.token };
      const setup = (await (
        await request.post('/api/v1/auth/2fa/totp/setup', { data: {}, headers })
      ).json()) as {
        secret: string;
      };
      const enable = await request.post('/api/v1/auth/2fa/totp/enable', {
        data: { code: await generate({ secret: setup.secret }) },
        headers,
      });
      expect(enable.ok(), await enable.text()).toBe(true);
      await page.setViewportSize(size);
      await page.addInitScript((lang) => {
        window.localStorage.setItem('language', lang);
        window.localStorage.setItem('ageAccepted', 'confirm');
      }, language);
      await page.goto('/login');
      await page.getByTestId('field-login').fill(fan.username);
      await page.getByTestId('field-password').fill(DEMO_PASSWORD);
      await page.getByTestId('login-submit').click();
      await expect(page.getByTestId('two-factor-step')).toBeVisible();
      await page.getByTestId('two-factor-code').fill('000000');
      await page.getByTestId('two-factor-submit').click();
      await expect(page.getByTestId('two-factor-error')).toBeVisible();
      await shot(page, info, `two-factor-${language}-${device}`);
      // The code of the step after the one used at enrolment (a code is never accepted twice).
      const next = await generate({ secret: setup.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
      await page.getByTestId('two-factor-code').fill(next);
      await page.getByTestId('two-factor-submit').click();
      await expect(page).not.toHaveURL(/\/login/);
      await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    });
  }
});

test.describe('two-step sign-in from the security page', () => {
  for (const [language, device, size] of [
    ['en', 'desktop', DESKTOP],
    ['es', 'phone', PHONE],
  ] as const) {
    test(`a new admin is sent to turn it on, enrols with the QR code, then regenerates codes and turns it off (${language}, ${device})`, async ({
      page,
      request,
    }, info) => {
      const es = language === 'es';
      const staff = await signUpFan(request, `sec${language}`);
      await grantRoleByApi(request, staff.user, 'admin');
      // The server withholds the admin role until two-step sign-in is on, in the caller's language.
      const refused = await request.get('/api/v1/admin/users', {
        headers: { a1sledom: staff.token, ilang: language },
      });
      expect(refused.status()).toBe(403);
      const refusal = (await refused.json()) as { code: string; message: string };
      expect(refusal.code).toBe('TWO_FACTOR_REQUIRED');
      expect(refusal.message).toContain(es ? 'dos pasos' : 'two-step sign-in');

      await page.setViewportSize(size);
      await page.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
      await openWithToken(page, staff.token, staff.user, '/?admin=users');
      await expect(page).toHaveURL(/\/user\/security\?required=1$/);
      await expect(page.getByTestId('security-required')).toBeVisible();
      await expect(page.getByTestId('security-off')).toBeVisible();
      await shot(page, info, `security-required-${language}-${device}`);

      await page.getByTestId('security-start').click();
      await expect(page.getByTestId('security-setup').locator('img')).toBeVisible();
      const secret = ((await page.getByTestId('security-secret').textContent()) ?? '').replace(/\s/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      await shot(page, info, `security-setup-${language}-${device}`);
      // A wrong first code is a clear error and leaves it off.
      await page.getByTestId('field-code').fill('000000');
      await page.getByTestId('security-enable').click();
      await expect(page.getByTestId('field-error-code')).toBeVisible();
      await expect(page.getByTestId('security-on')).toHaveCount(0);
      await page.getByTestId('field-code').fill(await totpCode(secret));
      await page.getByTestId('security-enable').click();
      const codes = page.getByTestId('recovery-code');
      await expect(codes).toHaveCount(10);
      const first = (await codes.first().textContent()) ?? '';
      await shot(page, info, `security-codes-${language}-${device}`);
      await page.getByTestId('security-codes-saved').click();
      await expect(page.getByTestId('security-on')).toContainText('10');
      // Shown once: reloading does not show them again.
      await page.reload();
      await expect(page.getByTestId('security-on')).toBeVisible();
      await expect(codes).toHaveCount(0);
      await shot(page, info, `security-on-${language}-${device}`);

      // The admin area opens now, with the same session.
      const users = await request.get('/api/v1/admin/users', { headers: { a1sledom: staff.token } });
      expect(users.status()).toBe(200);

      // New recovery codes: the password and the next authenticator code (a code works once).
      await page.getByTestId('security-regenerate').click();
      await page.getByTestId('field-password').fill(DEMO_PASSWORD);
      await page.getByTestId('field-code').fill(await totpCode(secret, 1));
      await page.getByTestId('security-confirm-submit').click();
      await expect(codes).toHaveCount(10);
      await expect(codes.first()).not.toHaveText(first);
      const fresh = (await codes.first().textContent()) ?? '';
      await page.getByTestId('security-codes-saved').click();

      // Turning it off: a wrong password is refused, then the password and a new recovery code.
      await page.getByTestId('security-disable').click();
      await page.getByTestId('field-password').fill('not-my-password');
      await page.getByTestId('field-code').fill(fresh);
      await page.getByTestId('security-confirm-submit').click();
      await expect(page.getByTestId('form-error')).toBeVisible();
      await page.getByTestId('field-password').fill(DEMO_PASSWORD);
      await page.getByTestId('security-confirm-submit').click();
      await expect(page.getByTestId('security-off')).toBeVisible();
      await expect(page.getByTestId('security-required')).toBeVisible();
      const again = await request.get('/api/v1/admin/users', { headers: { a1sledom: staff.token } });
      expect(((await again.json()) as { code: string }).code).toBe('TWO_FACTOR_REQUIRED');
    });
  }
});

test.describe('two-step sign-in for all staff (super setting)', () => {
  for (const [language, device, size] of [
    ['en', 'desktop', DESKTOP],
    ['es', 'phone', PHONE],
  ] as const) {
    test(`the super turns it on in the dashboard and a coordinator is sent to the security page (${language}, ${device})`, async ({
      page,
      browser,
      request,
    }, info) => {
      const es = language === 'es';
      const coord = await signUpFan(request, `cst${language}`);
      await grantRoleByApi(request, coord.user, 'coord');
      const { token: superToken } = await sessionOf(request, 'superadmin');
      const setAllStaff = (on: boolean) =>
        request.patch('/api/v1/admin/settings', {
          headers: { a1sledom: superToken },
          data: { allStaffTwoFactor: on },
        });
      // Off by default: the coordinator moderates without it.
      const before = await request.get('/api/v1/admin/complaints', { headers: { a1sledom: coord.token } });
      expect(before.status()).toBe(200);
      try {
        await page.setViewportSize(size);
        await page.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
        await loginByApi(page, request, 'superadmin', '/dashboard');
        const section = page.getByTestId('dashboard-staff-security');
        await section.scrollIntoViewIfNeeded();
        await expect(section).toContainText(
          es
            ? 'Exigir el inicio de sesión en dos pasos a todo el equipo'
            : 'Require two-step sign-in for all staff',
        );
        const toggle = page.getByTestId('setting-all-staff-two-factor');
        await expect(toggle).not.toBeChecked();
        await expect(page.getByTestId('staff-security-save')).toBeDisabled();
        await shot(page, info, `staff-security-off-${language}-${device}`);
        await toggle.check();
        await page.getByTestId('staff-security-save').click();
        await expect(page.getByTestId('staff-security-saved')).toContainText(
          es ? 'todas las cuentas del equipo' : 'every staff account',
        );
        // The settings page at both widths in this language (390 and 1280).
        for (const [width, viewport] of [
          ['phone', PHONE],
          ['desktop', DESKTOP],
        ] as const) {
          await page.setViewportSize(viewport);
          await section.scrollIntoViewIfNeeded();
          await shot(page, info, `staff-security-on-${language}-${width}`);
        }
        // Saved on the server, shown again after a reload.
        await page.reload();
        await expect(page.getByTestId('setting-all-staff-two-factor')).toBeChecked();

        // The coordinator, in its own browser, is sent to turn it on from the admin area.
        const context = await browser.newContext({ viewport: size });
        const other = await context.newPage();
        await other.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
        await openWithToken(other, coord.token, coord.user, '/?admin=complaints');
        await expect(other).toHaveURL(/\/user\/security\?required=1$/);
        await expect(other.getByTestId('security-required')).toBeVisible();
        await expect(other.getByTestId('security-off')).toBeVisible();
        await shot(other, info, `staff-security-coord-${language}-${device}`);
        const refused = await request.get('/api/v1/admin/complaints', {
          headers: { a1sledom: coord.token, ilang: language },
        });
        expect(refused.status()).toBe(403);
        expect(((await refused.json()) as { code: string }).code).toBe('TWO_FACTOR_REQUIRED');
        // Once the coordinator turns it on, the same session moderates again.
        await enableTotpByApi(request, coord.token);
        const after = await request.get('/api/v1/admin/complaints', { headers: { a1sledom: coord.token } });
        expect(after.status()).toBe(200);
        await context.close();
      } finally {
        expect((await setAllStaff(false)).ok()).toBe(true);
      }
    });
  }
});

test.describe('passkeys', () => {
  test('an admin without the authenticator app opens the admin area in a passkey session, not in a password one (en, desktop)', async ({
    page,
    request,
    baseURL,
  }, info) => {
    const staff = await signUpFan(request, 'pkadmin');
    await grantRoleByApi(request, staff.user, 'admin');
    const site = `http://localhost:${new URL(baseURL as string).port}`;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.setViewportSize(DESKTOP);
    await page.addInitScript(() => {
      window.localStorage.setItem('language', 'en');
      window.localStorage.setItem('ageAccepted', 'confirm');
    });
    // The password alone: the admin area sends the account to the security page.
    await page.goto(`${site}/login`);
    await page.getByTestId('field-login').fill(staff.username);
    await page.getByTestId('field-password').fill(DEMO_PASSWORD);
    await page.getByTestId('login-submit').click();
    await expect(page).not.toHaveURL(/\/login/);
    const passwordToken = (await page.evaluate(() => window.localStorage.getItem('token'))) as string;
    await page.goto(`${site}/?admin=users`);
    await expect(page).toHaveURL(/\/user\/security\?required=1/);
    await expect(page.getByTestId('security-required')).toContainText('signed in with a passkey');
    await page.getByTestId('passkey-add').click();
    await expect(page.getByTestId('passkey-added')).toBeVisible();
    await shot(page, info, 'staff-passkey-security-en-desktop');
    // Having a passkey does not lift the password session.
    const refused = await request.get('/api/v1/admin/users', { headers: { a1sledom: passwordToken } });
    expect(((await refused.json()) as { code: string }).code).toBe('TWO_FACTOR_REQUIRED');

    // Signed in with the passkey: the admin area opens.
    await page.evaluate(() => window.localStorage.removeItem('token'));
    await page.goto(`${site}/login`);
    await page.getByTestId('passkey-sign-in').click();
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto(`${site}/?admin=users`);
    await expect(page.getByTestId('admin-users')).toBeVisible();
    await expect(page.getByTestId('user-row').first()).toBeVisible();
    await shot(page, info, 'staff-passkey-admin-en-desktop');
    const token = (await page.evaluate(() => window.localStorage.getItem('token'))) as string;
    expect((await request.get('/api/v1/admin/users', { headers: { a1sledom: token } })).status()).toBe(200);
  });

  for (const [language, device, size] of [
    ['en', 'desktop', DESKTOP],
    ['es', 'phone', PHONE],
  ] as const) {
    test(`adds a passkey, signs in with it without a password, removes it (${language}, ${device})`, async ({
      page,
      request,
      baseURL,
    }, info) => {
      const fan = await signUpFan(request, `pk${language}`);
      // Browsers refuse an IP address as a passkey's site: the journey opens the app at localhost.
      const site = `http://localhost:${new URL(baseURL as string).port}`;
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      await page.setViewportSize(size);
      await page.addInitScript((lang) => {
        window.localStorage.setItem('language', lang);
        window.localStorage.setItem('ageAccepted', 'confirm');
      }, language);
      await page.goto(`${site}/login`);
      await page.getByTestId('field-login').fill(fan.username);
      await page.getByTestId('field-password').fill(DEMO_PASSWORD);
      await page.getByTestId('login-submit').click();
      await expect(page).not.toHaveURL(/\/login/);
      await page.goto(`${site}/user/security`);
      await page.getByTestId('passkey-add').click();
      await expect(page.getByTestId('passkey-added')).toBeVisible();
      await expect(page.getByTestId('passkey-row')).toHaveCount(1);
      await shot(page, info, `passkeys-${language}-${device}`);

      // Signed out, the passkey alone signs in (no password, no second step).
      await page.evaluate(() => window.localStorage.removeItem('token'));
      await page.goto(`${site}/login`);
      await expect(page.getByTestId('passkey-sign-in')).toBeVisible();
      await shot(page, info, `passkey-login-${language}-${device}`);
      await page.getByTestId('passkey-sign-in').click();
      await expect(page).not.toHaveURL(/\/login/);
      const token = await page.evaluate(() => window.localStorage.getItem('token'));
      const me = await request.get('/api/v1/user/profile', { headers: { a1sledom: token ?? '' } });
      expect((await me.json()).username).toBe(fan.username);

      // Removed, it no longer signs in (the device still offers it; the server refuses it).
      await page.goto(`${site}/user/security`);
      await expect(page.getByTestId('passkey-row')).toContainText(/\d/);
      await page.getByTestId('passkey-remove').click();
      await expect(page.getByTestId('passkey-row')).toHaveCount(0);
      await page.evaluate(() => window.localStorage.removeItem('token'));
      await page.goto(`${site}/login`);
      await page.getByTestId('passkey-sign-in').click();
      await expect(page.getByTestId('passkey-error')).toContainText(
        language === 'es' ? 'llave de acceso' : 'passkey',
      );
    });
  }
});
