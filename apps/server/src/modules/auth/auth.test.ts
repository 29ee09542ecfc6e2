import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signupInput, TEST_PASSWORD, yearsAgo } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

describe('signup', () => {
  it('creates a fan account and answers a token and the session user', async () => {
    const input = signupInput();
    const res = await t.call('auth.signup', input);
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[\w-]{40,}$/);
    expect(res.body.user).toMatchObject({ user: input.username, name: 'Test Person', email: input.email });
    expect(res.body.user.roles).toEqual(['user', 'fan']);
    expect(res.body.user.verified).toBe(false);
    const profile = await t.call('user.profile', undefined, { token: res.body.token });
    expect(profile.status).toBe(200);
    expect(profile.body.username).toBe(input.username);
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ['a missing username', { username: undefined }, 'username', 'This field is required.'],
    ['a username under 6 characters', { username: 'abc12' }, 'username', 'Username must be 6 to 20'],
    ['a username over 20 characters', { username: 'a'.repeat(21) }, 'username', 'Username must be 6 to 20'],
    ['a username with a space', { username: 'john smith' }, 'username', 'letters and numbers'],
    ['a username with symbols', { username: 'john_smith!' }, 'username', 'letters and numbers'],
    ['an email without @', { email: 'john.example.com' }, 'email', 'valid email'],
    ['an email without a dot', { email: 'john@example' }, 'email', 'valid email'],
    ['an email with a one-letter ending', { email: 'john@example.c' }, 'email', 'valid email'],
    ['an email with a space', { email: 'jo hn@example.com' }, 'email', 'valid email'],
    ['an email with two @', { email: 'jo@hn@example.com' }, 'email', 'valid email'],
    ['a short password', { password: 'short' }, 'password', 'Password must be'],
    ['a date of birth that is not a date', { birthdate: '1990-02-30' }, 'birthdate', 'valid date of birth'],
    ['a date of birth in the future', { birthdate: yearsAgo(-1) }, 'birthdate', 'valid date of birth'],
    ['an age under 18', { birthdate: yearsAgo(18, 1) }, 'birthdate', 'at least 18'],
    ['terms not accepted', { acceptTerms: false }, 'acceptTerms', 'accept the terms'],
    ['terms missing', { acceptTerms: undefined }, 'acceptTerms', 'accept the terms'],
    ['a missing full name', { name: '   ' }, 'name', 'required'],
  ];
  it.each(invalid)('refuses %s, naming the field', async (_label, overrides, field, text) => {
    const res = await t.call('auth.signup', signupInput(overrides));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.fields?.[field]).toContain(text);
  });

  it('accepts someone who turns 18 today', async () => {
    const res = await t.call('auth.signup', signupInput({ birthdate: yearsAgo(18) }));
    expect(res.status).toBe(200);
  });

  it('answers validation messages in Spanish when ilang is es', async () => {
    const res = await t.call('auth.signup', signupInput({ username: 'ab', birthdate: yearsAgo(17) }), {
      lang: 'es',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Algunos campos no son válidos. Revísalos.');
    expect(res.body.fields?.username).toContain('entre 6 y 20');
    expect(res.body.fields?.birthdate).toContain('al menos 18');
  });

  it('refuses a username already taken, whatever its case', async () => {
    const first = signupInput();
    expect((await t.call('auth.signup', first)).status).toBe(200);
    const res = await t.call('auth.signup', signupInput({ username: first.username.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('USERNAME_TAKEN');
    expect(res.body.fields?.username).toBe('This username is already taken.');
  });

  it('refuses an email already registered', async () => {
    const first = signupInput();
    await t.call('auth.signup', first);
    const res = await t.call('auth.signup', signupInput({ email: first.email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_TAKEN');
  });
});

describe('login and logout', () => {
  it('logs in by username and by email, in any case', async () => {
    const u = await createUser(t);
    const byName = await t.call('auth.login', { login: u.username.toUpperCase(), password: TEST_PASSWORD });
    expect(byName.status).toBe(200);
    expect(byName.body.user.user).toBe(u.username);
    const byEmail = await t.call('auth.login', { login: u.email.toUpperCase(), password: TEST_PASSWORD });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user._id).toBe(u.id);
  });

  it('refuses a wrong password and an unknown login with the same answer', async () => {
    const u = await createUser(t);
    const wrong = await t.call('auth.login', { login: u.username, password: 'not-the-password' });
    const unknown = await t.call('auth.login', { login: 'nobodyhere1', password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('accepts the token in the a1sledom header and as Authorization: Bearer', async () => {
    const u = await createUser(t);
    expect((await t.call('user.profile', undefined, { token: u.token })).status).toBe(200);
    expect((await t.call('user.profile', undefined, { token: u.token, bearer: true })).status).toBe(200);
  });

  it('refuses a request without a token and one with an unknown token', async () => {
    const none = await t.call('user.profile');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('UNAUTHENTICATED');
    const bad = await t.call('user.profile', undefined, { token: 'made-up-token' });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('INVALID_TOKEN');
  });

  it('logout revokes the token and only that one', async () => {
    const u = await createUser(t);
    const second = await t.call('auth.login', { login: u.username, password: TEST_PASSWORD });
    const out = await t.call('auth.logout', {}, { token: u.token });
    expect(out.status).toBe(200);
    expect((await t.call('user.profile', undefined, { token: u.token })).status).toBe(401);
    expect((await t.call('user.profile', undefined, { token: second.body.token })).status).toBe(200);
  });

  it('stores only a hash of the token', async () => {
    const u = await createUser(t);
    const rows = await t.database.session((exec) => exec('SELECT token_hash FROM sessions'));
    expect(rows.some((r) => r.token_hash === u.token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(String(r.token_hash)))).toBe(true);
  });

  it('stores passwords as argon2id hashes', async () => {
    const input = signupInput();
    await t.call('auth.signup', input);
    const rows = await t.database.session((exec) =>
      exec(`SELECT password_hash FROM users WHERE username = '${input.username}'`),
    );
    expect(String(rows[0]?.password_hash)).toMatch(/^\$argon2id\$/);
  });
});

describe('login rate limits', () => {
  it('blocks an account from the address that failed, even with the right password, then answers Retry-After', async () => {
    const app = await createTestApp({ RATE_LOGIN_PER_ACCOUNT: '3' });
    try {
      const u = await createUser(app);
      for (let i = 0; i < 3; i++) {
        const r = await app.call(
          'auth.login',
          { login: u.username, password: 'wrong-pass' },
          { ip: '10.1.1.1' },
        );
        expect(r.status).toBe(401);
      }
      const blocked = await app.call(
        'auth.login',
        { login: u.username, password: TEST_PASSWORD },
        { ip: '10.1.1.1' },
      );
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('RATE_LIMITED');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await app.stop();
    }
  });

  it("a stranger's failures from other addresses do not lock the owner out", async () => {
    const app = await createTestApp({ RATE_LOGIN_PER_ACCOUNT: '3' });
    try {
      const u = await createUser(app);
      for (let i = 0; i < 12; i++) {
        const r = await app.call(
          'auth.login',
          { login: u.username.toUpperCase(), password: 'wrong-pass' },
          { ip: `10.1.${3 + (i % 3)}.1` },
        );
        expect(r.status).toBe(i < 9 ? 401 : 429);
      }
      const owner = await app.call(
        'auth.login',
        { login: u.username, password: TEST_PASSWORD },
        { ip: '10.1.9.9' },
      );
      expect(owner.status).toBe(200);
    } finally {
      await app.stop();
    }
  });

  it('checks at most the limit of 150 concurrent wrong passwords', async () => {
    const app = await createTestApp({ RATE_LOGIN_PER_ACCOUNT: '10' });
    try {
      const u = await createUser(app);
      const answers = await Promise.all(
        Array.from({ length: 150 }, () =>
          app.call('auth.login', { login: u.username, password: 'wrong-pass' }, { ip: '10.1.7.7' }),
        ),
      );
      const checked = answers.filter((a) => a.status === 401 && a.body.code === 'INVALID_CREDENTIALS').length;
      const refused = answers.filter((a) => a.status === 429 && a.body.code === 'RATE_LIMITED').length;
      expect(checked + refused).toBe(150);
      expect(checked).toBe(10);
    } finally {
      await app.stop();
    }
  });

  it('limits attempts per address but not other addresses', async () => {
    const app = await createTestApp({ RATE_LOGIN_PER_IP: '4' });
    try {
      for (let i = 0; i < 4; i++) {
        await app.call('auth.login', { login: `someone${i}x`, password: 'whatever1' }, { ip: '10.2.0.1' });
      }
      const blocked = await app.call(
        'auth.login',
        { login: 'someone9x', password: 'whatever1' },
        { ip: '10.2.0.1' },
      );
      expect(blocked.status).toBe(429);
      const other = await app.call(
        'auth.login',
        { login: 'someone9x', password: 'whatever1' },
        { ip: '10.2.0.2' },
      );
      expect(other.status).toBe(401);
    } finally {
      await app.stop();
    }
  });

  it('limits signups per address', async () => {
    const app = await createTestApp({ RATE_SIGNUP_PER_IP: '2' });
    try {
      expect((await app.call('auth.signup', signupInput(), { ip: '10.3.0.1' })).status).toBe(200);
      expect((await app.call('auth.signup', signupInput(), { ip: '10.3.0.1' })).status).toBe(200);
      expect((await app.call('auth.signup', signupInput(), { ip: '10.3.0.1' })).status).toBe(429);
    } finally {
      await app.stop();
    }
  });
});
