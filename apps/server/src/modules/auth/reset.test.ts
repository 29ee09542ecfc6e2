import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let clock = new Date();
beforeAll(async () => {
  t = await createTestApp({ RESET_CODE_TTL_MINUTES: '15', RESET_CODE_MAX_ATTEMPTS: '6' });
});
afterAll(() => t.stop());

async function codeFor(app: TestApp, email: string): Promise<string> {
  const res = await app.call('dev.outbox', { to: email });
  expect(res.status).toBe(200);
  const mail = res.body.mails[0];
  expect(mail).toBeDefined();
  const match = /: (\d{6})\n/.exec(mail!.text);
  expect(match).not.toBeNull();
  return match![1]!;
}

describe('password reset by code', () => {
  it('answers the same whether or not the email exists, and mails only real accounts', async () => {
    const u = await createUser(t);
    const known = await t.call('auth.code', { email: u.email }, { ip: '10.5.0.1' });
    const unknown = await t.call('auth.code', { email: 'nobody-at-all@example.com' }, { ip: '10.5.0.1' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect((await t.call('dev.outbox', { to: 'nobody-at-all@example.com' })).body.mails).toHaveLength(0);
    expect((await t.call('dev.outbox', { to: u.email })).body.mails).toHaveLength(1);
  });

  it('sets the new password, revokes old sessions, and the code works once', async () => {
    const u = await createUser(t);
    await t.call('auth.code', { email: u.email });
    const code = await codeFor(t, u.email);
    const res = await t.call('auth.pass', { email: u.email, code, password: 'brand-new-pass-1' });
    expect(res.status).toBe(200);
    expect((await t.call('user.profile', undefined, { token: u.token })).status).toBe(401);
    expect((await t.call('auth.login', { login: u.username, password: TEST_PASSWORD })).status).toBe(401);
    expect((await t.call('auth.login', { login: u.username, password: 'brand-new-pass-1' })).status).toBe(
      200,
    );
    const reused = await t.call('auth.pass', { email: u.email, code, password: 'another-pass-2' });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('RESET_CODE_INVALID');
  });

  it('refuses a wrong code', async () => {
    const res = await t.call(
      'auth.pass',
      { email: 'someone@example.com', code: '000000', password: 'brand-new-pass-1' },
      { ip: '10.5.1.1' },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('RESET_CODE_INVALID');
    expect(res.body.fields?.code).toBeDefined();
  });

  it('refuses a malformed code with a field error', async () => {
    const res = await t.call('auth.pass', {
      email: 'someone@example.com',
      code: 'abc',
      password: 'brand-new-pass-1',
    });
    expect(res.status).toBe(400);
    expect(res.body.fields?.code).toBe('Enter the code we sent you.');
  });

  it('replaces an older code when a new one is requested', async () => {
    const u = await createUser(t);
    await t.call('auth.code', { email: u.email });
    const first = await codeFor(t, u.email);
    await t.call('auth.code', { email: u.email });
    const second = await codeFor(t, u.email);
    if (first !== second) {
      expect(
        (await t.call('auth.pass', { email: u.email, code: first, password: 'brand-new-pass-1' })).status,
      ).toBe(400);
    }
    expect(
      (await t.call('auth.pass', { email: u.email, code: second, password: 'brand-new-pass-1' })).status,
    ).toBe(200);
  });

  it('limits wrong-code attempts per address', async () => {
    for (let i = 0; i < 6; i++) {
      await t.call(
        'auth.pass',
        { email: 'someone@example.com', code: String(100000 + i), password: 'brand-new-pass-1' },
        { ip: '10.5.9.9' },
      );
    }
    const blocked = await t.call(
      'auth.pass',
      { email: 'someone@example.com', code: '123456', password: 'brand-new-pass-1' },
      { ip: '10.5.9.9' },
    );
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
  });

  it('only compares the code with the code of the account the email names', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    await t.call('auth.code', { email: owner.email });
    const code = await codeFor(t, owner.email);
    const wrongAccount = await t.call(
      'auth.pass',
      { email: other.email, code, password: 'brand-new-pass-1' },
      { ip: '10.5.3.1' },
    );
    expect(wrongAccount.status).toBe(400);
    expect(wrongAccount.body.code).toBe('RESET_CODE_INVALID');
    const unknown = await t.call(
      'auth.pass',
      { email: 'nobody-at-all@example.com', code, password: 'brand-new-pass-1' },
      { ip: '10.5.3.1' },
    );
    expect(unknown.body).toEqual(wrongAccount.body);
    const right = await t.call('auth.pass', { email: owner.email, code, password: 'brand-new-pass-1' });
    expect(right.status).toBe(200);
  });

  it('mails a link that names the account and the code', async () => {
    const u = await createUser(t);
    await t.call('auth.code', { email: u.email });
    const res = await t.call('dev.outbox', { to: u.email });
    const code = await codeFor(t, u.email);
    expect(res.body.mails[0]?.text).toContain(`/auth/pass?email=${encodeURIComponent(u.email)}&code=${code}`);
  });

  it('retires a code after RESET_CODE_MAX_ATTEMPTS guesses, whatever the addresses', async () => {
    const u = await createUser(t);
    await t.call('auth.code', { email: u.email });
    const code = await codeFor(t, u.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 6; i++) {
      const r = await t.call(
        'auth.pass',
        { email: u.email, code: wrong, password: 'brand-new-pass-1' },
        { ip: `10.5.4.${i}` },
      );
      expect(r.body.code).toBe('RESET_CODE_INVALID');
    }
    const late = await t.call(
      'auth.pass',
      { email: u.email, code, password: 'brand-new-pass-1' },
      { ip: '10.5.5.1' },
    );
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('RESET_CODE_INVALID');
  });

  it('does not count a right code against the address', async () => {
    for (let i = 0; i < 8; i++) {
      const u = await createUser(t);
      await t.call('auth.code', { email: u.email }, { ip: '10.5.6.1' });
      const code = await codeFor(t, u.email);
      const r = await t.call(
        'auth.pass',
        { email: u.email, code, password: 'brand-new-pass-1' },
        { ip: '10.5.6.1' },
      );
      expect(r.status).toBe(200);
    }
  });

  it('checks at most the limit of 300 concurrent wrong codes from one new address', async () => {
    const u = await createUser(t);
    await t.call('auth.code', { email: u.email });
    const code = await codeFor(t, u.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 300 }, () =>
        t.call(
          'auth.pass',
          { email: u.email, code: wrong, password: 'brand-new-pass-1' },
          { ip: '10.5.7.7' },
        ),
      ),
    );
    const checked = answers.filter((a) => a.body.code === 'RESET_CODE_INVALID').length;
    const refused = answers.filter((a) => a.status === 429 && a.body.code === 'RATE_LIMITED').length;
    expect(checked + refused).toBe(300);
    expect(checked).toBeLessThanOrEqual(6);
    expect(checked).toBeGreaterThan(0);
    const rows = await t.database.session((exec) =>
      exec(`SELECT attempts FROM password_reset_codes WHERE user_id = '${u.id}' AND used_at IS NULL`),
    );
    expect(Number(rows[0]?.attempts)).toBe(checked);
  });

  it('answers in Spanish when asked', async () => {
    const res = await t.call(
      'auth.pass',
      { email: 'someone@example.com', code: '999999', password: 'brand-new-pass-1' },
      { lang: 'es', ip: '10.5.2.2' },
    );
    expect(res.body.message).toBe('Este código no es válido. Solicita uno nuevo.');
  });
});

describe('expired reset codes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestAppWithClock();
  });
  afterAll(() => app.stop());

  it('refuses a code after its time is up', async () => {
    const u = await createUser(app);
    await app.call('auth.code', { email: u.email });
    const code = await codeFor(app, u.email);
    clock = new Date(clock.getTime() + 16 * 60_000);
    const res = await app.call('auth.pass', { email: u.email, code, password: 'brand-new-pass-1' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('RESET_CODE_EXPIRED');
  });
});

async function createTestAppWithClock(): Promise<TestApp> {
  clock = new Date();
  return createTestApp({ RESET_CODE_TTL_MINUTES: '15' }, { now: () => clock });
}
