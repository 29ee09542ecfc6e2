import { API_TOKEN_MAX, endpoints, TOKEN_SCOPES } from '@fanverse/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { apiTokens, users } from '../../db/schema.ts';
import { sha256 } from '../../lib/crypto.ts';

describe('personal API tokens (?feed=developer)', () => {
  let t: TestApp;
  let clock = new Date();
  let dev: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp({ RATE_API_TOKEN_PER_MINUTE: '40' }, { now: () => clock });
    dev = await createUser(t, { roles: ['user', 'fan', 'developer'] });
  });
  afterAll(() => t.stop());

  const create = (token: string, body: Record<string, unknown>) =>
    t.call('developer.createToken', body as never, { token });

  it('lets only developers create tokens, and only from a session', async () => {
    const input = { name: 'script', scopes: ['read:profile'] };
    expect((await t.call('developer.createToken', input)).status).toBe(401);
    const fan = await createUser(t);
    const refused = await t.call('developer.createToken', input, { token: fan.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    expect((await t.call('developer.createToken', input, { token: creator.token })).status).toBe(403);

    const made = await create(dev.token, { name: 'script', scopes: ['read:profile', 'write:posts'] });
    expect(made.status).toBe(200);
    // A token cannot make, list or revoke tokens (no scope opens the developer endpoints).
    const viaToken = await t.call('developer.createToken', input, { token: made.body.token, bearer: true });
    expect(viaToken.status).toBe(403);
    expect(viaToken.body.code).toBe('API_TOKEN_NOT_ALLOWED');
    expect(
      (await t.call('developer.tokens', undefined, { token: made.body.token, bearer: true })).status,
    ).toBe(403);
  });

  it('shows the token once, stores only its hash, lists and revokes it', async () => {
    const made = await create(dev.token, {
      name: 'CI bot',
      scopes: ['read:posts', 'read:posts'],
      expiresInDays: 7,
    });
    expect(made.status).toBe(200);
    const { token, apiToken } = made.body;
    expect(token).toMatch(/^fv_[A-Za-z0-9_-]{43}$/);
    expect(apiToken).toMatchObject({ name: 'CI bot', scopes: ['read:posts'], lastUsedAt: null });
    expect(token.startsWith(apiToken.prefix)).toBe(true);
    expect(apiToken.prefix.length).toBeLessThan(12);
    expect(new Date(apiToken.expiresAt ?? 0).getTime() - clock.getTime()).toBe(7 * 86_400_000);

    const [row] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, apiToken.id));
    expect(row?.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token.slice(3));

    const list = await t.call('developer.tokens', undefined, { token: dev.token });
    expect(list.status).toBe(200);
    expect(list.body.tokens.map((x) => x.id)).toContain(apiToken.id);
    expect(JSON.stringify(list.body)).not.toContain(token.slice(3));

    // Using it records the last use (shown in the list).
    expect((await t.call('posts.list', {}, { token, bearer: true })).status).toBe(200);
    const used = await t.call('developer.tokens', undefined, { token: dev.token });
    expect(used.body.tokens.find((x) => x.id === apiToken.id)?.lastUsedAt).toBe(clock.toISOString());

    // Someone else cannot revoke it; its owner can, and it stops working at once.
    const other = await createUser(t, { roles: ['user', 'developer'] });
    const params = { id: apiToken.id };
    expect((await t.call('developer.revokeToken', undefined, { token: other.token, params })).status).toBe(
      404,
    );
    expect((await t.call('developer.revokeToken', undefined, { token: dev.token, params })).status).toBe(200);
    const after = await t.call('posts.list', {}, { token, bearer: true });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('API_TOKEN_INVALID');
    const gone = await t.call('developer.tokens', undefined, { token: dev.token });
    expect(gone.body.tokens.map((x) => x.id)).not.toContain(apiToken.id);
    expect((await t.call('developer.revokeToken', undefined, { token: dev.token, params })).status).toBe(404);
  });

  it('calls within its scopes and is refused outside them, in en and es', async () => {
    const { body } = await create(dev.token, { name: 'reader', scopes: ['read:profile'] });
    const profile = await t.call('user.profile', undefined, { token: body.token, bearer: true });
    expect(profile.status).toBe(200);
    expect(profile.body.username).toBe(dev.username);

    const en = await t.call('message.contacts', {}, { token: body.token, bearer: true });
    expect(en.status).toBe(403);
    expect(en.body).toMatchObject({
      code: 'API_TOKEN_SCOPE_MISSING',
      message: 'This API token lacks the scope read:messages needed for this call.',
    });
    const es = await t.call('message.contacts', {}, { token: body.token, bearer: true, lang: 'es' });
    expect(es.body.message).toBe(
      'Este token de API no tiene el permiso read:messages que necesita esta llamada.',
    );

    // Security settings and money are never reachable, whatever the scopes.
    const all = await create(dev.token, {
      name: 'everything',
      scopes: ['read:profile', 'write:profile', 'read:posts', 'write:posts', 'read:wallet'],
    });
    for (const [name, input] of [
      ['auth.sessions', undefined],
      ['auth.twoFactorStatus', undefined],
      ['user.delete', { password: 'whatever1' }],
      ['tips.send', {}],
    ] as const) {
      const res = await t.call(name, input as never, { token: all.body.token, bearer: true });
      expect(res.status, name).toBe(403);
      expect(res.body.code, name).toBe('API_TOKEN_NOT_ALLOWED');
    }
    const esRefusal = await t.call('auth.sessions', undefined, {
      token: all.body.token,
      bearer: true,
      lang: 'es',
    });
    expect(esRefusal.body.message).toMatch(/^Los tokens de API no pueden/);
    expect((await t.call('wallet.get', undefined, { token: all.body.token, bearer: true })).status).toBe(200);
  });

  it('never carries staff roles: an admin developer token acts as a plain user', async () => {
    const admin = await createUser(t, { roles: ['user', 'admin', 'developer'] });
    const made = await create(admin.token, { name: 'admin script', scopes: ['read:posts'] });
    expect(made.status).toBe(200);
    const staff = await t.call('admin.users', {}, { token: made.body.token, bearer: true });
    expect(staff.status).toBe(403);
    expect(staff.body.code).toBe('API_TOKEN_NOT_ALLOWED');
    // Its session still has the staff powers.
    expect((await t.call('admin.users', {}, { token: admin.token })).status).toBe(200);
    // Every endpoint a token may reach is an endpoint of the contract, none under /admin or /auth.
    for (const name of Object.keys(TOKEN_SCOPES) as (keyof typeof TOKEN_SCOPES)[]) {
      expect(endpoints[name].path).not.toMatch(/^\/(admin|auth|developer)\b/);
    }
  });

  it('refuses expired tokens, tokens of former developers, unknown tokens and bad input', async () => {
    const made = await create(dev.token, { name: 'short', scopes: ['read:posts'], expiresInDays: 1 });
    const token = made.body.token;
    expect((await t.call('posts.list', {}, { token, bearer: true })).status).toBe(200);
    const start = clock;
    clock = new Date(start.getTime() + 86_400_000 + 1000);
    try {
      const expired = await t.call('posts.list', {}, { token, bearer: true });
      expect(expired.status).toBe(401);
      expect(expired.body.code).toBe('API_TOKEN_INVALID');
      // An expired token no longer counts against the limit of live tokens.
      const list = await t.call('developer.tokens', undefined, { token: dev.token });
      expect(list.body.tokens.find((x) => x.id === made.body.apiToken.id)?.expiresAt).not.toBeNull();
    } finally {
      clock = start;
    }

    const unknown = await t.call('user.profile', undefined, {
      token: 'fv_nottherealone',
      bearer: true,
      lang: 'es',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe('Este token de API no existe, fue revocado o ha caducado.');
    // Also on an endpoint that works anonymously: a bad token is said, not ignored.
    expect((await t.call('posts.list', {}, { token: 'fv_nottherealone', bearer: true })).status).toBe(401);

    const former = await createUser(t, { roles: ['user', 'developer'] });
    const theirs = await create(former.token, { name: 'x', scopes: ['read:profile'], expiresInDays: null });
    expect(theirs.body.apiToken.expiresAt).toBeNull();
    await t.database.db
      .update(users)
      .set({ roles: ['user', 'fan'] })
      .where(eq(users.id, former.id));
    expect((await t.call('user.profile', undefined, { token: theirs.body.token, bearer: true })).status).toBe(
      401,
    );

    for (const bad of [
      { name: '', scopes: ['read:posts'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin:everything'] },
      { name: 'x', scopes: ['read:posts'], expiresInDays: 0 },
      { name: 'x', scopes: ['read:posts'], expiresInDays: 366 },
    ]) {
      const res = await create(dev.token, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const es = await t.call(
      'developer.createToken',
      { name: '', scopes: [] },
      { token: dev.token, lang: 'es' },
    );
    expect(es.body.message).toBe('Algunos campos no son válidos. Revísalos.');
  });

  it('limits live tokens per account and calls per token', async () => {
    const busy = await createUser(t, { roles: ['user', 'developer'] });
    for (let i = 0; i < API_TOKEN_MAX; i++) {
      expect((await create(busy.token, { name: `t${i}`, scopes: ['read:posts'] })).status).toBe(200);
    }
    const over = await create(busy.token, { name: 'one more', scopes: ['read:posts'] });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('API_TOKEN_LIMIT');

    const { body } = await create(dev.token, { name: 'hot loop', scopes: ['read:profile'] });
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) {
      statuses.push((await t.call('user.profile', undefined, { token: body.token, bearer: true })).status);
    }
    expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true);
    expect(statuses[40]).toBe(429);
  });

  it('is granted and taken away by a super administrator; taking it away stops the tokens', async () => {
    const superAdmin = await createUser(t, { roles: ['user', 'super'] });
    const admin = await createUser(t, { roles: ['user', 'admin'] });
    const person = await createUser(t);
    const grant = (token: string, on: boolean) =>
      t.call('admin.userRole', { role: 'developer', grant: on }, { token, params: { id: person.id } });
    expect((await grant(admin.token, true)).status).toBe(403);
    expect((await grant(person.token, true)).status).toBe(403);
    expect((await create(person.token, { name: 'x', scopes: ['read:profile'] })).status).toBe(403);
    expect((await grant(superAdmin.token, true)).status).toBe(200);
    const made = await create(person.token, { name: 'x', scopes: ['read:profile'] });
    expect(made.status).toBe(200);
    expect((await t.call('user.profile', undefined, { token: made.body.token, bearer: true })).status).toBe(
      200,
    );
    expect((await grant(superAdmin.token, false)).status).toBe(200);
    const after = await t.call('user.profile', undefined, { token: made.body.token, bearer: true });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('API_TOKEN_INVALID');
    // The former developer still sees and revokes their tokens.
    const list = await t.call('developer.tokens', undefined, { token: person.token });
    expect(list.body.tokens).toHaveLength(1);
    const params = { id: made.body.apiToken.id };
    expect((await t.call('developer.revokeToken', undefined, { token: person.token, params })).status).toBe(
      200,
    );
  });

  it('keeps the routes outside the contract (file streams) closed to tokens', async () => {
    const { body } = await create(dev.token, { name: 'files', scopes: ['read:profile'] });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/verifications/00000000-0000-4000-8000-000000000000/documents/front',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('API_TOKEN_NOT_ALLOWED');
  });
});

describe('personal API tokens in the logs', () => {
  it('never logs a token, whether it is made, used, refused or revoked', async () => {
    const lines: string[] = [];
    const t = await createTestApp({ LOG_LEVEL: 'info' }, { logTo: { write: (line) => lines.push(line) } });
    try {
      const dev = await createUser(t, { roles: ['user', 'developer'] });
      const made = await t.call(
        'developer.createToken',
        { name: 'logged?', scopes: ['read:profile'] },
        { token: dev.token },
      );
      const token = made.body.token;
      expect(token).toMatch(/^fv_/);
      expect((await t.call('user.profile', undefined, { token, bearer: true })).status).toBe(200);
      expect((await t.call('message.contacts', {}, { token, bearer: true })).status).toBe(403);
      const params = { id: made.body.apiToken.id };
      await t.call('developer.revokeToken', undefined, { token: dev.token, params });
      expect((await t.call('user.profile', undefined, { token, bearer: true })).status).toBe(401);
      const log = lines.join('');
      expect(log).toContain('/api/v1/developer/tokens');
      expect(log).toContain('"statusCode":401');
      expect(log).not.toContain(token.slice(3));
      expect(log).not.toContain(dev.token);
    } finally {
      await t.stop();
    }
  });
});
