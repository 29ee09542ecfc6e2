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

describe('the super can require two-step sign-in for all staff (coordinators too)', () => {
  const requireForAllStaff = (on: boolean, token: string) =>
    t.call('admin.updateSettings', { allStaffTwoFactor: on }, { token });

  it('off by default: a coordinator moderates; on: withheld with TWO_FACTOR_REQUIRED; enrolled: allowed again', async () => {
    const root = await createUser(t, { roles: ['super', 'user'] });
    const coord = await createUser(t, { roles: ['coord', 'user'] });
    const moderate = (token: string, lang?: 'en' | 'es') => t.call('admin.complaints', {}, { token, lang });
    const settings = await t.call('admin.settings', undefined, { token: root.token });
    expect(settings.body.allStaffTwoFactor).toBe(false);
    expect((await moderate(coord.token)).status).toBe(200);
    try {
      const on = await requireForAllStaff(true, root.token);
      expect(on.status).toBe(200);
      expect(on.body.allStaffTwoFactor).toBe(true);
      expect((await t.call('admin.settings', undefined, { token: root.token })).body.allStaffTwoFactor).toBe(
        true,
      );
      // The same session, at its next request: the coordinator role waits, in the caller's language.
      const refused = await moderate(coord.token);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('TWO_FACTOR_REQUIRED');
      expect((await moderate(coord.token, 'es')).body.message).toContain('inicio de sesión en dos pasos');
      // Its own account still works, so it can turn two-step sign-in on.
      expect((await t.call('user.profile', undefined, { token: coord.token })).status).toBe(200);
      // Administrators with it on and fans are unaffected.
      const admin = await createUser(t, { roles: ['admin', 'user'] });
      expect((await moderate(admin.token)).status).toBe(200);
      const fan = await createUser(t);
      expect((await moderate(fan.token)).body.code).toBe('FORBIDDEN');
      // A passkey session counts as two steps (ADR 0039), for coordinators too.
      const ctx = { ip: '127.0.0.1', lang: 'en' as const, userAgent: 'vitest' };
      const viaPasskey = await t.services.auth.passkeySignIn(coord.id, ctx);
      expect((await moderate(viaPasskey.token)).status).toBe(200);
      // Enrolling the authenticator app lets the password session act as coordinator again.
      const setup = await t.call('auth.totpSetup', {}, { token: coord.token });
      const enabled = await t.call(
        'auth.totpEnable',
        { code: await generate({ secret: setup.body.secret }) },
        { token: coord.token },
      );
      expect(enabled.status).toBe(200);
      expect((await moderate(coord.token)).status).toBe(200);
    } finally {
      await requireForAllStaff(false, root.token);
    }
    // Off again: a coordinator without it moderates at once.
    const other = await createUser(t, { roles: ['coord', 'user'] });
    expect((await moderate(other.token)).status).toBe(200);
  });

  it('only a super changes it (admin, coordinator and fan refused), and the change is logged', async () => {
    const root = await createUser(t, { roles: ['super', 'user'] });
    const callers = [
      await createUser(t, { roles: ['admin', 'user'] }),
      await createUser(t, { roles: ['coord', 'user'] }),
      await createUser(t),
    ];
    for (const caller of callers) {
      const res = await requireForAllStaff(true, caller.token);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    expect((await t.call('admin.updateSettings', { allStaffTwoFactor: true })).status).toBe(401);
    expect((await t.call('admin.settings', undefined, { token: root.token })).body.allStaffTwoFactor).toBe(
      false,
    );
    // Not a boolean: a clear error, nothing changed.
    const bad = await t.call('admin.updateSettings', { allStaffTwoFactor: 'yes' } as never, {
      token: root.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.allStaffTwoFactor).toBeTruthy();
    try {
      expect((await requireForAllStaff(true, root.token)).status).toBe(200);
      const rows = await t.database.session((exec) =>
        exec(
          `SELECT admin_id, details FROM admin_actions WHERE action = 'settings.update' AND admin_id = '${root.id}'`,
        ),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.details).toEqual({ allStaffTwoFactor: { from: false, to: true } });
    } finally {
      await requireForAllStaff(false, root.token);
    }
  });
});
