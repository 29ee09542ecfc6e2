import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { relyingParty } from './passkey.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

// Registration and sign-in with a real authenticator run in Chromium's virtual authenticator
// (e2e/tests/accounts.spec.ts "passkeys"); here: who may not, and challenges used once.
describe('passkeys (issue 18)', () => {
  it('the relying party is the public host, or localhost on the port without one', () => {
    expect(relyingParty({ publicUrl: 'https://fans.example.com/x', port: 3000 })).toEqual({
      id: 'fans.example.com',
      origins: ['https://fans.example.com'],
    });
    expect(relyingParty({ publicUrl: undefined, port: 3210 })).toEqual({
      id: 'localhost',
      origins: ['http://localhost:3210'],
    });
  });

  it('only a signed-in account lists, adds and removes its own', async () => {
    for (const name of ['auth.passkeys', 'auth.passkeyRegisterOptions'] as const) {
      expect((await t.call(name, {})).status).toBe(401);
    }
    const fan = await createUser(t);
    const other = await createUser(t);
    expect((await t.call('auth.passkeys', undefined, { token: fan.token })).body).toEqual({ items: [] });
    const options = await t.call('auth.passkeyRegisterOptions', {}, { token: fan.token });
    expect(options.status).toBe(200);
    expect(options.body.options).toMatchObject({ rp: { id: 'localhost' }, user: { name: fan.username } });
    // Another account cannot answer this account's challenge.
    const stolen = await t.call(
      'auth.passkeyRegister',
      { challengeId: options.body.challengeId, response: { id: 'x', response: {} } },
      { token: other.token },
    );
    expect(stolen.body.code).toBe('PASSKEY_EXPIRED');
    // A forged answer is a clear refusal, and the challenge is spent by the attempt.
    const forged = await t.call(
      'auth.passkeyRegister',
      {
        challengeId: options.body.challengeId,
        response: { id: 'x', rawId: 'x', type: 'public-key', response: {} },
      },
      { token: fan.token, lang: 'es' },
    );
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('PASSKEY_INVALID');
    expect(forged.body.message).toContain('llave de acceso');
    const again = await t.call(
      'auth.passkeyRegister',
      { challengeId: options.body.challengeId, response: { id: 'x', response: {} } },
      { token: fan.token },
    );
    expect(again.body.code).toBe('PASSKEY_EXPIRED');
    const unknown = await t.call(
      'auth.passkeyRemove',
      {},
      { token: fan.token, params: { id: '00000000-0000-4000-8000-000000000000' } },
    );
    expect(unknown.status).toBe(404);
    // A stored passkey of fan's: another account's remove answers 404 like an unknown id.
    const rows = (await t.database.session((exec) =>
      exec(
        `INSERT INTO passkeys (user_id, credential_id, public_key, name) VALUES ('${fan.id}', 'cred-${fan.id}', 'pk', 'Chrome · Linux') RETURNING id`,
      ),
    )) as { id: string }[];
    const id = rows[0]!.id;
    expect((await t.call('auth.passkeyRemove', {}, { token: other.token, params: { id } })).status).toBe(404);
    expect((await t.call('auth.passkeys', undefined, { token: fan.token })).body.items).toHaveLength(1);
    expect((await t.call('auth.passkeyRemove', {}, { token: fan.token, params: { id } })).status).toBe(200);
    expect((await t.call('auth.passkeys', undefined, { token: fan.token })).body.items).toHaveLength(0);
  });

  it('a sign-in challenge works once and an unknown passkey is refused', async () => {
    const options = await t.call('auth.passkeyLoginOptions', {});
    expect(options.status).toBe(200);
    expect(options.body.options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    const answer = { challengeId: options.body.challengeId, response: { id: 'nope', response: {} } };
    const first = await t.call('auth.passkeyLogin', answer);
    expect(first.body.code).toBe('PASSKEY_INVALID');
    const replay = await t.call('auth.passkeyLogin', answer);
    expect(replay.body.code).toBe('PASSKEY_EXPIRED');
    const bad = await t.call('auth.passkeyLogin', { challengeId: 'not-an-id', response: {} });
    expect(bad.status).toBe(400);
  });
});
