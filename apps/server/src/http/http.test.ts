import { endpoints } from '@fanverse/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { registerErrorHandler } from './error-handler.ts';
import { type AuthInfo, requireRoles, requireSomeRoles } from './guards.ts';
import { defineRoute } from './route.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_KB: '4' });
});
afterAll(() => t.stop());

describe('errors', () => {
  it('answers bad JSON with a clear error and no internals', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json', ilang: 'es' },
      payload: '{"login": "abc",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'INVALID_JSON',
      message: 'El cuerpo de la solicitud no es un JSON válido.',
    });
  });

  it('answers an oversize body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ login: 'x'.repeat(10_000), password: 'y' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/v1/no/such/thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found.' });
  });

  it('hides internal failures behind the catalogue message', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/boom', async () => {
      throw new Error('relation "users" does not exist at character 15');
    });
    const res = await app.inject({ url: '/boom', headers: { ilang: 'en' } });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/relation|users|stack|at /);
    expect(res.json().code).toBe('INTERNAL');
  });
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });
});

describe('dev outbox', () => {
  it('is refused to callers that are not on this machine', async () => {
    const res = await t.app.inject({ url: '/api/v1/dev/outbox', remoteAddress: '203.0.113.9' });
    expect(res.statusCode).toBe(404);
  });

  it.each([
    ['x-forwarded-for', '203.0.113.9'],
    ['forwarded', 'for=203.0.113.9'],
    ['x-real-ip', '203.0.113.9'],
    ['x-forwarded-host', 'fanverse.example'],
    ['via', '1.1 nginx'],
  ])('is refused through a proxy on the same host (%s), even from loopback', async (header, value) => {
    const direct = await t.call('dev.outbox', {});
    expect(direct.status).toBe(200);
    const proxied = await t.call('dev.outbox', {}, { headers: { [header]: value } });
    expect(proxied.status).toBe(404);
    expect(proxied.body.code).toBe('FEATURE_DISABLED');
  });

  it('does not exist in production', async () => {
    const prod = await createTestApp({
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://127.0.0.1:1',
      MONEY_JOBS: 'false',
    });
    try {
      expect(prod.config.devOutbox).toBe(false);
      expect(prod.services.outbox).toBeUndefined();
      const res = await prod.call('dev.outbox', {});
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('FEATURE_DISABLED');
    } finally {
      await prod.stop();
    }
  });
});

describe('role guards', () => {
  const auth = (roles: AuthInfo['roles']): AuthInfo => ({
    userId: 'u',
    sessionId: 's',
    username: 'x',
    roles,
    verified: true,
  });

  it('requireRoles needs every role and requireSomeRoles any one', () => {
    expect(requireRoles('super', 'admin')(auth(['super', 'admin', 'user']))).toBe(true);
    expect(requireRoles('super', 'admin')(auth(['admin']))).toBe(false);
    expect(requireSomeRoles('super', 'admin')(auth(['admin']))).toBe(true);
    expect(requireSomeRoles('super', 'admin')(auth(['creator', 'user']))).toBe(false);
  });

  it('a guarded route answers 403 to the roles that may not call it and 401 to anonymous callers', async () => {
    const fan = await createUser(t, { roles: ['user', 'fan'] });
    const superUser = await createUser(t, { roles: ['super', 'admin', 'user'] });
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    const authenticate = (req: { headers: Record<string, unknown> }) =>
      t.services.auth.authenticate(String(req.headers.a1sledom ?? ''));
    defineRoute(
      app,
      { authenticate: authenticate as never },
      'user.profile',
      ({ auth }) => t.services.user.profile(auth),
      {
        guard: requireRoles('super'),
      },
    );
    expect(endpoints['user.profile'].auth).toBe('required');
    expect((await app.inject({ url: '/api/v1/user/profile' })).statusCode).toBe(401);
    const asFan = await app.inject({ url: '/api/v1/user/profile', headers: { a1sledom: fan.token } });
    expect(asFan.statusCode).toBe(403);
    expect(asFan.json().code).toBe('FORBIDDEN');
    const asSuper = await app.inject({ url: '/api/v1/user/profile', headers: { a1sledom: superUser.token } });
    expect(asSuper.statusCode).toBe(200);
  });
});

describe('errors the router raises itself', () => {
  it('answers a path parameter over the length limit and a broken URL with the catalogue', async () => {
    const long = await t.app.inject({ method: 'DELETE', url: `/api/v1/posts/${'9'.repeat(500)}` });
    expect(long.statusCode).toBe(404);
    expect(long.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
    const broken = await t.app.inject({ method: 'GET', url: '/api/v1/creator/profile/%E0%A4%A' });
    expect(broken.statusCode).toBe(404);
    expect(broken.json().code).toBe('NOT_FOUND');
  });
});
