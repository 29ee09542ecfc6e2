import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, STAFF_TOTP_SECRET, TEST_PASSWORD } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import {
  claimsOf,
  signInAtProvider,
  startOidcProvider,
  type TestOidcProvider,
} from '../../../test/oidc-provider.ts';

// Social sign-in against a real OpenID Connect provider (npm oidc-provider) started here.
const PORT = 3999;
const REDIRECT = `http://localhost:${PORT}/auth/oidc/callback`;
let op: TestOidcProvider;
let t: TestApp;
beforeAll(async () => {
  op = await startOidcProvider({ redirectUris: [REDIRECT] });
  t = await createTestApp({
    PORT: String(PORT),
    OIDC_ISSUER_URL: op.issuer,
    OIDC_CLIENT_ID: op.clientId,
    OIDC_CLIENT_SECRET: op.clientSecret,
    OIDC_NAME: 'Test ID',
  });
});
afterAll(async () => {
  await t?.stop();
  await op?.stop();
});

let seq = 0;
const login = (prefix = 'ana') => `${prefix}${Date.now().toString(36)}${seq++}`;
const queryOf = (url: string) => new URL(url).search;

/** Start (as `token`'s account for a link), sign in at the provider as `who`; the callback's query and browser key. */
async function goToProvider(who: string, opts: { token?: string; intent?: 'login' | 'link' } = {}) {
  const start = await t.call(
    'auth.oidcStart',
    { provider: 'oidc', intent: opts.intent ?? 'login' },
    { token: opts.token },
  );
  expect(start.status).toBe(200);
  const back = await signInAtProvider(start.body.url, who, REDIRECT);
  return { query: queryOf(back), browserKey: start.body.browserKey as string };
}

async function signUp(who: string) {
  const { query, browserKey } = await goToProvider(who);
  const offer = await t.call('auth.oidcCallback', { query, browserKey });
  expect(offer.status).toBe(200);
  const username = `u${who.replace(/[^a-z0-9]/gi, '').slice(-14)}`;
  const made = await t.call('auth.oidcSignup', {
    ticket: offer.body.signup!.ticket,
    username,
    birthdate: '1990-05-05',
    acceptTerms: true,
  });
  expect(made.status).toBe(200);
  return { username, token: made.body.token as string, offer: offer.body.signup! };
}

describe('social sign-in with OpenID Connect (issue 18)', () => {
  it('lists the configured provider; an unknown one is refused in en and es', async () => {
    expect((await t.call('auth.oidcProviders', undefined)).body).toEqual({
      items: [{ id: 'oidc', name: 'Test ID' }],
    });
    const google = await t.call('auth.oidcStart', { provider: 'google', intent: 'login' }, { lang: 'es' });
    expect(google.status).toBe(404);
    expect(google.body.code).toBe('NOT_FOUND');
  });

  it('the authorization URL carries PKCE (S256), state and nonce, to our callback', async () => {
    const start = await t.call('auth.oidcStart', { provider: 'oidc', intent: 'login' });
    const url = new URL(start.body.url);
    expect(url.origin).toBe(op.issuer);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['state', 'nonce', 'code_challenge']) {
      expect(url.searchParams.get(p)?.length).toBeGreaterThanOrEqual(40);
    }
  });

  it('a first sign-in offers a sign-up from the claims; the account is verified, then signs in again', async () => {
    const who = login();
    const { username, token, offer } = await signUp(who);
    const claims = claimsOf(who);
    expect(offer).toMatchObject({
      provider: 'oidc',
      providerName: 'Test ID',
      emailVerified: true,
      profile: {
        id: who,
        name: claims.name,
        given_name: claims.given_name,
        family_name: 'Provider',
        email: claims.email,
        picture: claims.picture,
      },
    });
    expect(offer.username).toMatch(/^[a-z0-9]{6,20}$/);
    const me = await t.call('user.profile', undefined, { token });
    expect(me.status).toBe(200);
    const user = await t.services.users.findByLogin(username);
    expect(user).toMatchObject({
      email: claims.email,
      verified: true,
      passwordSet: false,
      name: claims.name,
    });
    // The ticket is spent.
    const again = await t.call('auth.oidcSignup', {
      ticket: offer.ticket,
      username: `${username}x`.slice(0, 20),
      birthdate: '1990-05-05',
      acceptTerms: true,
    });
    expect(again.body.code).toBe('OIDC_STATE_INVALID');
    // Signing in again: a session for the same account.
    const { query, browserKey } = await goToProvider(who);
    const back = await t.call('auth.oidcCallback', { query, browserKey });
    expect(back.status).toBe(200);
    expect(back.body.user.user).toBe(username);
  });

  it('sign-up asks what signup asks: 18+, terms, a free username', async () => {
    const who = login('kid');
    const { query, browserKey } = await goToProvider(who);
    const offer = await t.call('auth.oidcCallback', { query, browserKey });
    const ticket = offer.body.signup!.ticket;
    const taken = await createUser(t);
    const bad = await t.call(
      'auth.oidcSignup',
      { ticket, username: 'x!', birthdate: '2020-01-01', acceptTerms: false },
      { lang: 'es' },
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields ?? {}).sort()).toEqual(['acceptTerms', 'birthdate', 'username']);
    const dup = await t.call('auth.oidcSignup', {
      ticket,
      username: taken.username,
      birthdate: '1990-01-01',
      acceptTerms: true,
    });
    expect(dup.body.code).toBe('USERNAME_TAKEN');
    // The ticket survives a refused form.
    const ok = await t.call('auth.oidcSignup', {
      ticket,
      username: `k${Date.now().toString(36)}`,
      birthdate: '1990-01-01',
      acceptTerms: true,
    });
    expect(ok.status).toBe(200);
  });

  it('an email the provider does not vouch for leaves the account unverified', async () => {
    const who = login('nv-bo');
    const { token } = await signUp(who);
    const me = await t.call('user.profile', undefined, { token });
    expect(me.status).toBe(200);
    expect((await t.services.users.findByEmail(claimsOf(who).email))?.verified).toBe(false);
  });

  it('an email already registered is never taken over', async () => {
    const owner = await createUser(t);
    const { query, browserKey } = await goToProvider(owner.email);
    const res = await t.call('auth.oidcCallback', { query, browserKey }, { lang: 'es' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('OIDC_EMAIL_TAKEN');
    expect(res.body.message).toContain('inicia sesión con tu contraseña');
    expect((await t.call('auth.identities', undefined, { token: owner.token })).body.items).toEqual([]);
  });

  it('a wrong state, another browser, and a replayed code are refused', async () => {
    const who = login();
    const { query, browserKey } = await goToProvider(who);
    const params = new URLSearchParams(query);
    const wrong = new URLSearchParams(params);
    wrong.set('state', 'x'.repeat(43));
    const r1 = await t.call('auth.oidcCallback', { query: `?${wrong}`, browserKey }, { lang: 'es' });
    expect(r1.status).toBe(400);
    expect(r1.body).toMatchObject({ code: 'OIDC_STATE_INVALID', message: expect.stringContaining('caducó') });
    const other = await t.call('auth.oidcCallback', { query, browserKey: 'y'.repeat(43) });
    expect(other.body.code).toBe('OIDC_STATE_INVALID');
    // The right one works once...
    expect((await t.call('auth.oidcCallback', { query, browserKey })).status).toBe(200);
    // ...and never again.
    expect((await t.call('auth.oidcCallback', { query, browserKey })).body.code).toBe('OIDC_STATE_INVALID');
    // The same code with another flow's state: the provider refuses it (used, and another PKCE verifier).
    const fresh = await t.call('auth.oidcStart', { provider: 'oidc', intent: 'login' });
    const replay = new URLSearchParams(params);
    replay.set('state', new URL(fresh.body.url).searchParams.get('state')!);
    const r2 = await t.call('auth.oidcCallback', { query: `?${replay}`, browserKey: fresh.body.browserKey });
    expect(r2.status).toBe(400);
    expect(r2.body).toMatchObject({
      code: 'OIDC_FAILED',
      message: 'The sign-in with Test ID did not finish. Try again.',
    });
  });

  it('a person who says no at the provider gets a clear message', async () => {
    const start = await t.call('auth.oidcStart', { provider: 'oidc', intent: 'login' });
    const state = new URL(start.body.url).searchParams.get('state')!;
    const res = await t.call('auth.oidcCallback', {
      query: `?error=access_denied&state=${state}&iss=${encodeURIComponent(op.issuer)}`,
      browserKey: start.body.browserKey,
    });
    expect(res.body).toMatchObject({
      code: 'OIDC_FAILED',
      message: 'The sign-in with Test ID did not finish. Try again.',
    });
  });

  it('an account links, signs in with, and unlinks the provider; never the last way in', async () => {
    const fan = await createUser(t);
    expect((await t.call('auth.oidcStart', { provider: 'oidc', intent: 'link' })).status).toBe(401);
    const who = login('link');
    const { query, browserKey } = await goToProvider(who, { token: fan.token, intent: 'link' });
    // Only the session that started the link may finish it.
    const stranger = await createUser(t);
    expect(
      (await t.call('auth.oidcCallback', { query, browserKey }, { token: stranger.token })).body.code,
    ).toBe('OIDC_STATE_INVALID');
    const again = await goToProvider(who, { token: fan.token, intent: 'link' });
    const linked = await t.call('auth.oidcCallback', again, { token: fan.token });
    expect(linked.body).toEqual({ linked: { provider: 'oidc' } });
    const list = await t.call('auth.identities', undefined, { token: fan.token });
    expect(list.body.items).toEqual([
      expect.objectContaining({ provider: 'oidc', providerName: 'Test ID', removable: true }),
    ]);
    // Signs in as the linked account.
    const signIn = await goToProvider(who);
    expect((await t.call('auth.oidcCallback', signIn)).body.user.user).toBe(fan.username);
    // Another account cannot link the same provider account.
    const taken = await goToProvider(who, { token: stranger.token, intent: 'link' });
    expect((await t.call('auth.oidcCallback', taken, { token: stranger.token })).body.code).toBe(
      'OIDC_ALREADY_LINKED',
    );
    expect((await t.call('auth.identityUnlink', {}, { params: { provider: 'oidc' } })).status).toBe(401);
    expect(
      (await t.call('auth.identityUnlink', {}, { token: stranger.token, params: { provider: 'oidc' } }))
        .status,
    ).toBe(404);
    const un = await t.call('auth.identityUnlink', {}, { token: fan.token, params: { provider: 'oidc' } });
    expect(un.body).toEqual({ success: true });
    expect((await t.call('auth.identities', undefined, { token: fan.token })).body.items).toEqual([]);
    // Now the provider account is a stranger again: a sign-in offers a sign-up (its email is the provider's).
    const after = await goToProvider(who);
    expect((await t.call('auth.oidcCallback', after)).body.signup).toBeDefined();

    // An account made by the provider has no password: its only way in cannot be unlinked.
    const solo = await signUp(login('solo'));
    const items = (await t.call('auth.identities', undefined, { token: solo.token })).body.items;
    expect(items).toEqual([expect.objectContaining({ removable: false })]);
    const refused = await t.call(
      'auth.identityUnlink',
      {},
      { token: solo.token, params: { provider: 'oidc' }, lang: 'es' },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('OIDC_LAST_SIGN_IN');
    expect(refused.body.message).toContain('única forma');
  });

  it('with two-step sign-in on, the provider sign-in still asks for the second factor', async () => {
    const fan = await createUser(t);
    await t.services.twoFactor.enrolKnownSecret(fan.id, STAFF_TOTP_SECRET);
    const who = login('tf');
    const link = await goToProvider(who, { token: fan.token, intent: 'link' });
    expect((await t.call('auth.oidcCallback', link, { token: fan.token })).status).toBe(200);
    const signIn = await goToProvider(who);
    const res = await t.call('auth.oidcCallback', signIn);
    expect(res.body).toEqual({ twoFactor: { challenge: expect.any(String), methods: ['totp', 'recovery'] } });
    expect(res.body.token).toBeUndefined();
    const wrong = await t.call('auth.twoFactor', {
      challenge: res.body.twoFactor!.challenge,
      code: '000000',
    });
    expect(wrong.status).toBe(400);
    const done = await t.call('auth.twoFactor', {
      challenge: res.body.twoFactor!.challenge,
      code: await generate({ secret: STAFF_TOTP_SECRET }),
    });
    expect(done.status).toBe(200);
    expect(done.body.user.user).toBe(fan.username);
    // The password still works as before for this account.
    expect(
      (await t.call('auth.login', { login: fan.username, password: TEST_PASSWORD })).body.twoFactor,
    ).toBeDefined();
  });
});
