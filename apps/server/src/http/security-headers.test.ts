import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { OIDC_CALLBACK_PATH } from '../modules/auth/oidc.service.ts';
import { registerSecurityHeaders } from './security-headers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

const get = (url: string) => t.app.inject({ url });

describe('security headers', () => {
  it('gives answers that are not documents a short policy under which nothing runs or is framed', async () => {
    for (const res of [
      await get('/api/v1/?view=home'),
      await get('/api/v1/nothing-here'),
      await get('/healthz'),
    ]) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it("gives documents the app's policy: its own scripts only, never framed, its opener kept for sign-in", async () => {
    const page = await get('/creator1');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // The page a sign-in provider returns the popup to keeps no opener policy (ADR 0036).
    const callback = await get(`${OIDC_CALLBACK_PATH}?code=x&state=y`);
    expect(callback.headers['content-type']).toMatch(/^text\/html/);
    expect(callback.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(String(callback.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('keeps the policy on errors', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('leaves a header the route set itself, and adds the rest', async () => {
    const app = Fastify({ logger: false });
    registerSecurityHeaders(app, {});
    // A signed media file may be embedded from the CDN's domain (media.routes.ts).
    app.get('/file', (_req, reply) =>
      reply.header('cross-origin-resource-policy', 'cross-origin').type('image/webp').send(Buffer.from('x')),
    );
    const res = await app.inject({ url: '/file' });
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    await app.close();
  });
});
