import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let clock = new Date('2026-11-23T05:00:00Z');
const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};
beforeAll(async () => {
  t = await createTestApp({ RATE_LOGIN_PER_ACCOUNT: '8' }, { now: () => clock });
});
afterAll(() => t.stop());

const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(clock.getTime() / 1000) });

/** A user with two-step sign-in on: answers the secret and the recovery codes. */
async function enrolled() {
  const u = await createUser(t);
  const setup = await t.call('auth.totpSetup', {}, { token: u.token });
  expect(setup.status).toBe(200);
  expect(setup.body.qr).toMatch(/^data:image\/png;base64,/);
  expect(setup.body.uri).toContain(`secret=${setup.body.secret}`);
  const enable = await t.call(
    'auth.totpEnable',
    { code: await codeAt(setup.body.secret) },
    { token: u.token },
  );
  expect(enable.status).toBe(200);
  expect(enable.body.recoveryCodes).toHaveLength(10);
  expect(new Set(enable.body.recoveryCodes).size).toBe(10);
  advance(30);
  return { ...u, secret: setup.body.secret, recovery: enable.body.recoveryCodes };
}

async function challengeFor(username: string, ip = '10.60.0.1'): Promise<string> {
  const res = await t.call('auth.login', { login: username, password: TEST_PASSWORD }, { ip });
  expect(res.status).toBe(200);
  expect(res.body.token).toBeUndefined();
  expect(res.body.twoFactor?.methods).toEqual(['totp', 'recovery']);
  return res.body.twoFactor!.challenge;
}

describe('two-step sign-in with an authenticator app (TOTP)', () => {
  it('enrols with a QR code and a first code, then a login needs the current code', async () => {
    const u = await enrolled();
    expect((await t.call('auth.twoFactorStatus', undefined, { token: u.token })).body).toEqual({
      totp: true,
      recoveryCodesLeft: 10,
    });
    const challenge = await challengeFor(u.username);
    const wrong = await t.call('auth.twoFactor', { challenge, code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('TWO_FACTOR_INVALID');
    const ok = await t.call('auth.twoFactor', { challenge, code: await codeAt(u.secret) });
    expect(ok.status).toBe(200);
    expect((await t.call('user.profile', undefined, { token: ok.body.token })).status).toBe(200);
    // The challenge is spent, and the same code is never accepted twice.
    expect((await t.call('auth.twoFactor', { challenge, code: await codeAt(u.secret) })).body.code).toBe(
      'TWO_FACTOR_EXPIRED',
    );
    const again = await challengeFor(u.username);
    expect(
      (await t.call('auth.twoFactor', { challenge: again, code: await codeAt(u.secret) })).body.code,
    ).toBe('TWO_FACTOR_INVALID');
    advance(30);
    expect((await t.call('auth.twoFactor', { challenge: again, code: await codeAt(u.secret) })).status).toBe(
      200,
    );
  });

  it('a wrong first code does not enable it; the secret is stored sealed, never in clear', async () => {
    const u = await createUser(t);
    const setup = await t.call('auth.totpSetup', {}, { token: u.token });
    const bad = await t.call('auth.totpEnable', { code: '123456' }, { token: u.token });
    expect(bad.status).toBe(400);
    expect((await t.call('auth.twoFactorStatus', undefined, { token: u.token })).body.totp).toBe(false);
    const rows = (await t.database.session((exec) =>
      exec(`SELECT totp_secret FROM user_two_factor WHERE user_id = '${u.id}'`),
    )) as { totp_secret: string }[];
    expect(rows[0]?.totp_secret).toMatch(/^v1\./);
    expect(rows[0]?.totp_secret).not.toContain(setup.body.secret);
    // Without two-step sign-in the login still answers a session at once.
    const login = await t.call(
      'auth.login',
      { login: u.username, password: TEST_PASSWORD },
      { ip: '10.61.0.1' },
    );
    expect(login.body.token).toBeDefined();
  });

  it('each recovery code works once, also when used twice at the same time', async () => {
    const u = await enrolled();
    const [code] = u.recovery;
    const a = await challengeFor(u.username, '10.62.0.1');
    const b = await challengeFor(u.username, '10.62.0.2');
    const [ra, rb] = await Promise.all([
      t.call('auth.twoFactor', { challenge: a, recoveryCode: code }),
      t.call('auth.twoFactor', { challenge: b, recoveryCode: code!.toUpperCase() }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 400]);
    expect((await t.call('auth.twoFactorStatus', undefined, { token: u.token })).body.recoveryCodesLeft).toBe(
      9,
    );
    const c = await challengeFor(u.username, '10.62.0.3');
    expect((await t.call('auth.twoFactor', { challenge: c, recoveryCode: code })).status).toBe(400);
    expect((await t.call('auth.twoFactor', { challenge: c, recoveryCode: u.recovery[1] })).status).toBe(200);
  });

  it('wrong codes are limited per challenge and per account, even the right code is refused after', async () => {
    const u = await enrolled();
    const challenge = await challengeFor(u.username, '10.63.0.1');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await t.call('auth.twoFactor', { challenge, code: '000001' })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    // Five guesses per challenge: the sixth, even right, needs the password again.
    const sixth = await t.call('auth.twoFactor', { challenge, code: await codeAt(u.secret) });
    expect(sixth.body.code).toBe('TWO_FACTOR_EXPIRED');
    // Across challenges the account allows RATE_LOGIN_PER_ACCOUNT (8) wrong codes per window.
    const next = await challengeFor(u.username, '10.63.0.2');
    for (let i = 0; i < 3; i++) await t.call('auth.twoFactor', { challenge: next, code: '000001' });
    const limited = await t.call('auth.twoFactor', { challenge: next, code: await codeAt(u.secret) });
    expect(limited.status).toBe(429);
    // 300 concurrent guesses on one challenge: at most five are compared.
    const burst = await challengeFor(u.username, '10.63.0.3');
    const results = await Promise.all(
      Array.from({ length: 30 }, () => t.call('auth.twoFactor', { challenge: burst, code: '000002' })),
    );
    expect(results.filter((r) => r.body.code === 'TWO_FACTOR_INVALID').length).toBeLessThanOrEqual(5);
    expect(results.some((r) => r.status === 200)).toBe(false);
  });

  it('a password reset by code does not bypass the second factor', async () => {
    const u = await enrolled();
    await t.call('auth.code', { email: u.email }, { ip: '10.64.0.1' });
    const mail = (await t.call('dev.outbox', { to: u.email })).body.mails[0];
    const code = /: (\d{6})\n/.exec(mail!.text)![1]!;
    expect((await t.call('auth.pass', { email: u.email, code, password: 'brand-new-pass-1' })).status).toBe(
      200,
    );
    const login = await t.call(
      'auth.login',
      { login: u.username, password: 'brand-new-pass-1' },
      { ip: '10.64.0.2' },
    );
    expect(login.body.token).toBeUndefined();
    expect(login.body.twoFactor).toBeDefined();
  });

  it('turning it off needs the password and a code; only the signed-in owner may set it up', async () => {
    const u = await enrolled();
    const noCode = await t.call(
      'auth.twoFactorDisable',
      { password: TEST_PASSWORD, code: '000000' },
      { token: u.token },
    );
    expect(noCode.status).toBe(400);
    const badPass = await t.call(
      'auth.twoFactorDisable',
      { password: 'nope-nope-1', recoveryCode: u.recovery[0] },
      { token: u.token },
    );
    expect(badPass.status).toBe(401);
    const off = await t.call(
      'auth.twoFactorDisable',
      { password: TEST_PASSWORD, recoveryCode: u.recovery[0] },
      { token: u.token },
    );
    expect(off.status).toBe(200);
    const login = await t.call(
      'auth.login',
      { login: u.username, password: TEST_PASSWORD },
      { ip: '10.65.0.1' },
    );
    expect(login.body.token).toBeDefined();
    for (const name of [
      'auth.totpSetup',
      'auth.totpEnable',
      'auth.twoFactorDisable',
      'auth.recoveryCodesRegenerate',
    ] as const) {
      expect(
        (await t.call(name, { code: '123456', password: 'x', recoveryCode: 'abcde-fghjk' })).status,
      ).toBe(401);
    }
    expect((await t.call('auth.twoFactorStatus')).status).toBe(401);
    // A second set-up while it is on is refused (the secret is never replaced behind the owner's back).
    const on = await enrolled();
    expect((await t.call('auth.totpSetup', {}, { token: on.token })).body.code).toBe('TWO_FACTOR_ALREADY_ON');
  });

  it('new recovery codes replace the old ones; wrong codes there count against the account too', async () => {
    const u = await enrolled();
    const regen = (body: Record<string, string>) =>
      t.call('auth.recoveryCodesRegenerate', { password: TEST_PASSWORD, ...body }, { token: u.token });
    expect((await regen({ code: '000000' })).body.code).toBe('TWO_FACTOR_INVALID');
    expect((await regen({ password: 'wrong-pass-9', code: await codeAt(u.secret) })).status).toBe(401);
    const fresh = await regen({ code: await codeAt(u.secret) });
    expect(fresh.status).toBe(200);
    expect(fresh.body.recoveryCodes).toHaveLength(10);
    expect(fresh.body.recoveryCodes).not.toContain(u.recovery[1]);
    // The same code again (same time step) is a replay: refused.
    expect((await regen({ code: await codeAt(u.secret) })).body.code).toBe('TWO_FACTOR_INVALID');
    // An old recovery code no longer signs in; a new one does, once.
    const c = await challengeFor(u.username, '10.66.0.1');
    expect((await t.call('auth.twoFactor', { challenge: c, recoveryCode: u.recovery[1] })).status).toBe(400);
    expect(
      (await t.call('auth.twoFactor', { challenge: c, recoveryCode: fresh.body.recoveryCodes[0] })).status,
    ).toBe(200);
    expect((await t.call('auth.twoFactorStatus', undefined, { token: u.token })).body.recoveryCodesLeft).toBe(
      9,
    );
    // Wrong codes here are limited per account like at sign-in (RATE_LOGIN_PER_ACCOUNT = 8).
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await regen({ code: '000003' })).status);
    expect(statuses.slice(0, 6).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Without two-step sign-in on there is nothing to regenerate.
    const off = await createUser(t);
    expect(
      (
        await t.call(
          'auth.recoveryCodesRegenerate',
          { password: TEST_PASSWORD, code: '123456' },
          { token: off.token },
        )
      ).status,
    ).toBe(400);
  });
});
