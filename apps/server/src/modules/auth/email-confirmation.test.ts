import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signupInput } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { jpeg, postForm } from '../../../test/media-fixtures.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ VERIFIED_FREE_CREDITS: '25', RESET_CODE_MAX_ATTEMPTS: '4' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.stop());

/** The newest confirmation mail to this address, after the queue ran. */
async function confirmationMail(email: string) {
  await t.jobs.drain();
  const res = await t.call('dev.outbox', { to: email });
  const mail = res.body.mails.find((m) => /confirm/i.test(m.subject));
  expect(mail, 'a confirmation mail was sent').toBeDefined();
  const code = /: (\d{6})\n/.exec(mail!.text)?.[1];
  const token = /\/auth\/confirm\?token=([\w-]+)/.exec(mail!.text)?.[1];
  expect(code).toBeDefined();
  expect(token).toBeDefined();
  return { mail: mail!, code: code!, token: token! };
}

const credits = async (token: string) => (await t.call('wallet.get', undefined, { token })).body.credits;

describe('the verified flag: confirming the email', () => {
  it('signup queues a confirmation mail in the language of the account; the code confirms once and grants the free credits once', async () => {
    const input = signupInput();
    const signup = await t.call('auth.signup', input, { lang: 'es' });
    expect(signup.status).toBe(200);
    expect(signup.body.user.verified).toBe(false);
    const token = signup.body.token;
    const { mail, code } = await confirmationMail(input.email as string);
    expect(mail.subject).toContain('confirma tu correo');
    expect(mail.text).not.toContain('undefined');

    // Browsing works; customisation and free credits wait.
    expect((await t.call('user.profile', undefined, { token })).status).toBe(200);
    expect(await credits(token)).toBe(0);
    const avatar = await postForm(base, '/api/v1/user/profile/image', token, { kind: 'avatar' }, [
      { name: 'me.jpg', data: await jpeg(200, 200) },
    ]);
    expect(avatar.status).toBe(403);
    expect(avatar.body.code).toBe('EMAIL_NOT_CONFIRMED');
    const cover = await postForm(base, '/api/v1/user/profile/image', token, { kind: 'cover' }, [
      { name: 'c.jpg', data: await jpeg(400, 200) },
    ]);
    expect(cover.status).toBe(403);
    const named = await t.call('user.updateProfile', { displayName: 'Star' }, { token, lang: 'es' });
    expect(named.status).toBe(403);
    expect(named.body.message).toContain('confirma tu correo');
    // Other profile fields still save.
    expect((await t.call('user.updateProfile', { about: 'hola' }, { token })).status).toBe(200);

    // Confirmations at once: one wins and grants the credits; the others either lost the race for
    // the code (invalid) or already saw the account confirmed (nothing granted).
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => t.call('auth.confirmEmail', { code }, { token })),
    );
    const granted = results.filter((r) => r.status === 200 && r.body.freeCredits > 0);
    expect(granted.map((r) => r.body)).toEqual([{ verified: true, freeCredits: 25 }]);
    for (const r of results.filter((x) => x !== granted[0])) {
      if (r.status === 200) expect(r.body.freeCredits).toBe(0);
      else expect(r.body.code).toBe('CONFIRM_CODE_INVALID');
    }
    expect(await credits(token)).toBe(25);
    const again = await t.call('auth.confirmEmail', { code }, { token });
    expect(again.status).toBe(200);
    expect(again.body.freeCredits).toBe(0);
    expect(await credits(token)).toBe(25);

    expect((await t.call('user.profile', undefined, { token })).body.verified).toBe(true);
    const after = await postForm(base, '/api/v1/user/profile/image', token, { kind: 'avatar' }, [
      { name: 'me.jpg', data: await jpeg(200, 200) },
    ]);
    expect(after.status).toBe(200);
    expect((await t.call('user.updateProfile', { displayName: 'Star' }, { token })).status).toBe(200);
  });

  it("the mail's link confirms without a session, once; a concurrent pair grants once", async () => {
    const u = await createUser(t);
    expect((await t.call('auth.resendConfirmation', {}, { token: u.token })).status).toBe(200);
    const { token } = await confirmationMail(u.email);
    const results = await Promise.all([1, 2, 3].map(() => t.call('auth.confirmEmail', { token })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.code).toBe('CONFIRM_CODE_INVALID');
    expect(await credits(u.token)).toBe(25);
  });

  it('a resend retires the older code; wrong codes are limited per code', async () => {
    const u = await createUser(t);
    await t.call('auth.resendConfirmation', {}, { token: u.token });
    const first = await confirmationMail(u.email);
    await t.call('auth.resendConfirmation', {}, { token: u.token });
    const second = await confirmationMail(u.email);
    if (first.code !== second.code) {
      const old = await t.call(
        'auth.confirmEmail',
        { code: first.code },
        { token: u.token, ip: '10.77.0.1' },
      );
      expect(old.body.code).toBe('CONFIRM_CODE_INVALID');
    }
    expect((await t.call('auth.confirmEmail', { token: first.token })).body.code).toBe(
      'CONFIRM_CODE_INVALID',
    );
    // RESET_CODE_MAX_ATTEMPTS = 4 guesses per code, from any addresses; then even the right code is dead.
    const wrong = second.code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      await t.call('auth.confirmEmail', { code: wrong }, { token: u.token, ip: `10.78.${i}.1` });
    }
    const late = await t.call(
      'auth.confirmEmail',
      { code: second.code },
      { token: u.token, ip: '10.79.0.1' },
    );
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('CONFIRM_CODE_INVALID');
    expect(await credits(u.token)).toBe(0);
  });

  it('the resend button is rate limited per account; a code needs a session; a bad code is a field error', async () => {
    const u = await createUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await t.call('auth.resendConfirmation', {}, { token: u.token })).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[6]).toBe(429);
    expect((await t.call('auth.resendConfirmation', {})).status).toBe(401);
    expect((await t.call('auth.confirmEmail', { code: '123456' })).status).toBe(401);
    const bad = await t.call('auth.confirmEmail', { code: '12ab' }, { token: u.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.code).toBeDefined();
  });

  it('verified accounts are not mailed and may customise at once', async () => {
    const u = await createUser(t, { verified: true });
    expect((await t.call('auth.resendConfirmation', {}, { token: u.token })).status).toBe(200);
    await t.jobs.drain();
    expect((await t.call('dev.outbox', { to: u.email })).body.mails).toHaveLength(0);
    expect((await t.call('user.updateProfile', { displayName: 'Ok' }, { token: u.token })).status).toBe(200);
  });
});
