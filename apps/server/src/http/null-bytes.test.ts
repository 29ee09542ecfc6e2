import type { EndpointName } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let fan: Awaited<ReturnType<typeof createUser>>;
let creator: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  t = await createTestApp();
  fan = await createUser(t);
  creator = await createUser(t, { roles: ['user', 'fan', 'creator'], verified: true });
  admin = await createUser(t, { roles: ['user', 'admin', 'super'] });
});
afterAll(() => t.stop());

const NUL = 'a\u0000b';

/** The endpoints that answered 500 to a NUL character (issue 11), with the field that carries it. */
const cases: [EndpointName, Record<string, unknown>, string, { params?: Record<string, string> }?][] = [
  ['auth.login', { login: NUL, password: 'whatever-123' }, 'login'],
  [
    'auth.signup',
    {
      username: 'nulbyte1',
      name: NUL,
      email: 'nul@example.com',
      password: 'x'.repeat(10),
      birthdate: '1990-01-01',
      acceptTerms: true,
    },
    'name',
  ],
  ['auth.code', { email: `x${NUL}@example.com` }, 'email'],
  ['creator.search', { q: NUL }, 'q'],
  ['user.follow', { creator: NUL }, 'creator'],
  ['user.block', { user: NUL }, 'user'],
  ['checkout.credits', { bag: NUL }, 'bag'],
  ['checkout.subscription', { creator: NUL }, 'creator'],
  ['message.contacts', { q: NUL }, 'q'],
  ['admin.users', { q: NUL }, 'q'],
  ['posts.list', { creator: NUL }, 'creator'],
  ['stories.list', { creator: NUL }, 'creator'],
  ['gallery.get', { creator: NUL }, 'creator'],
  ['user.updateProfile', { name: NUL }, 'name'],
  ['contact.send', { name: 'Ann', email: 'ann@example.com', subject: 'Hi', message: NUL }, 'message'],
  ['creator.profile', {}, 'id', { params: { id: NUL } }],
  ['subscriptions.cancel', {}, 'creator', { params: { creator: NUL } }],
];

describe('a NUL character in any text', () => {
  it.each(cases)('%s answers 400 naming the field', async (name, input, field, opts) => {
    const token = name.startsWith('admin.')
      ? admin.token
      : name.startsWith('creator.')
        ? creator.token
        : fan.token;
    const res = await t.call(name, input, { token, params: opts?.params, lang: 'es', ip: '10.77.0.1' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.fields?.[field]).toBe('Este valor contiene un carácter nulo, que no está permitido.');
  });

  it('is found in nested values and in keys too', async () => {
    const res = await t.call(
      'user.updateProfile',
      { name: 'ok', links: [{ [NUL]: 1 }] },
      { token: fan.token },
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields ?? {})).toEqual(['links.0.ab']);
  });
});
