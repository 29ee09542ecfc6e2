import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, STAFF_TOTP_SECRET, TEST_PASSWORD } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

describe('two-step sign-in is required for administrator roles (issue 18)', () => {
  it('an admin without it is refused every admin endpoint with TWO_FACTOR_REQUIRED (en/es), then allowed once it is on', async () => {
    const admin = await createUser(t, { roles: ['admin', 'user'], twoFactor: false });
    const list = await t.call('admin.users', {}, { token: admin.token });
    expect(list.status).toBe(403);
    expect(list.body.code).toBe('TWO_FACTOR_REQUIRED');
    expect(list.body.message).toContain('two-step sign-in');
    const es = await t.call('admin.complaints', {}, { token: admin.token, lang: 'es' });
    expect(es.status).toBe(403);
    expect(es.body.message).toContain('inicio de sesión en dos pasos');
    // An administrator-only endpoint and the posts review queue: the same answer from the one guard.
    const fan = await createUser(t);
    const act = await t.call(
      'admin.userAction',
      { action: 'suspend' },
      { token: admin.token, params: { id: fan.id } },
    );
    expect(act.body.code).toBe('TWO_FACTOR_REQUIRED');
    // Its own account still works: profile, and turning two-step sign-in on.
    expect((await t.call('user.profile', undefined, { token: admin.token })).status).toBe(200);
    const setup = await t.call('auth.totpSetup', {}, { token: admin.token });
    expect(setup.status).toBe(200);
    const on = await t.call(
      'auth.totpEnable',
      { code: await generate({ secret: setup.body.secret }) },
      { token: admin.token },
    );
    expect(on.status).toBe(200);
    // The same session now acts as admin (roles are read per request, no new sign-in needed).
    expect((await t.call('admin.users', {}, { token: admin.token })).status).toBe(200);
    // Turning it off withholds the roles again.
    const off = await t.call(
      'auth.twoFactorDisable',
      { password: TEST_PASSWORD, recoveryCode: on.body.recoveryCodes[0] },
      { token: admin.token },
    );
    expect(off.status).toBe(200);
    expect((await t.call('admin.users', {}, { token: admin.token })).body.code).toBe('TWO_FACTOR_REQUIRED');
  });

  it('a session signed in with a passkey counts as two steps (ADR 0039); a password session does not', async () => {
    const admin = await createUser(t, { roles: ['admin', 'user'], twoFactor: false });
    // The account's password session (no authenticator app): the roles wait.
    expect((await t.call('admin.users', {}, { token: admin.token })).body.code).toBe('TWO_FACTOR_REQUIRED');
    // A passkey proved the account (what PasskeyService.verifyLogin answers after the WebAuthn check).
    const ctx = { ip: '127.0.0.1', lang: 'en' as const, userAgent: 'vitest' };
    const viaPasskey = await t.services.auth.passkeySignIn(admin.id, ctx);
    expect((await t.call('admin.users', {}, { token: viaPasskey.token })).status).toBe(200);
    const profile = await t.call('user.profile', undefined, { token: viaPasskey.token });
    expect(profile.body.roles).toContain('admin');
    // Only that session: the password session of the same account still waits, and a new one too.
    expect((await t.call('admin.users', {}, { token: admin.token })).body.code).toBe('TWO_FACTOR_REQUIRED');
    const again = await t.call('auth.login', { login: admin.username, password: TEST_PASSWORD });
    expect(again.status).toBe(200);
    expect((await t.call('admin.users', {}, { token: again.body.token })).body.code).toBe(
      'TWO_FACTOR_REQUIRED',
    );
    // A passkey gives no role the account does not hold.
    const fan = await createUser(t);
    const fanPasskey = await t.services.auth.passkeySignIn(fan.id, ctx);
    expect((await t.call('admin.users', {}, { token: fanPasskey.token })).body.code).toBe('FORBIDDEN');
  });

  it('a super without it cannot use the dashboard; roles it never held stay FORBIDDEN', async () => {
    const root = await createUser(t, { roles: ['super', 'admin', 'user'], twoFactor: false });
    const grant = await t.call(
      'admin.userRole',
      { role: 'admin', grant: true },
      { token: root.token, params: { id: root.id } },
    );
    expect(grant.body.code).toBe('TWO_FACTOR_REQUIRED');
    const fan = await createUser(t);
    for (const name of ['admin.users', 'admin.complaints'] as const) {
      const res = await t.call(name, {}, { token: fan.token });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    // A creator is not asked for it on creator endpoints.
    const creator = await createUser(t, { roles: ['creator', 'user'] });
    expect((await t.call('creator.statistics', {}, { token: creator.token })).status).not.toBe(403);
  });

  it('a coordinator (staff, not an administrator) keeps moderating without it', async () => {
    const coord = await createUser(t, { roles: ['coord', 'user'] });
    expect((await t.call('admin.complaints', {}, { token: coord.token })).status).toBe(200);
  });

  it('a staff account with it signs in with the password and the current code', async () => {
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    const login = await t.call('auth.login', { login: admin.username, password: TEST_PASSWORD });
    expect(login.body.token).toBeUndefined();
    const ok = await t.call('auth.twoFactor', {
      challenge: login.body.twoFactor!.challenge,
      code: await generate({ secret: STAFF_TOTP_SECRET }),
    });
    expect(ok.status).toBe(200);
    expect((await t.call('admin.users', {}, { token: ok.body.token })).status).toBe(200);
  });
});
