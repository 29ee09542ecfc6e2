import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let creator: { username: string };
beforeAll(async () => {
  t = await createTestApp({ APP_NAME: 'Fanverse', MEDIA_CDN_URL: 'https://cdn.example.com' });
  // Landing creators are cached for a while, so the creator exists before the first call.
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
});
afterAll(() => t.stop());

describe('GET /?view=home', () => {
  it('answers English locale data by default', async () => {
    const res = await t.call('home.get', { view: 'home' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      language: 'en',
      name: 'Fanverse',
      appKey: 'fanverse',
      cdn: 'https://cdn.example.com',
      adminUser: 'fanverse',
      timezone: 'America/Bogota',
    });
    expect(res.body.words['review.rejected']).toBe('Disapproved');
    expect(res.body.landing.title).toBe('Your favourite creators, closer than ever');
  });

  it('answers Spanish when ilang is es', async () => {
    const res = await t.call('home.get', { view: 'home' }, { lang: 'es' });
    expect(res.body.language).toBe('es');
    expect(res.body.words['review.rejected']).toBe('Desaprobado');
    expect(res.body.landing.title).toBe('Tus creadores favoritos, más cerca que nunca');
  });

  it('falls back to Accept-Language without ilang', async () => {
    const res = await t.app.inject({
      url: '/api/v1/?view=home',
      headers: { 'accept-language': 'es-CO,es;q=0.9' },
    });
    expect(res.json().language).toBe('es');
  });

  it('lists verified creators on the landing and works with a stale token', async () => {
    const res = await t.call('home.get', { view: 'home' }, { token: 'stale-token' });
    expect(res.status).toBe(200);
    expect(res.body.landing.creators.map((c) => c.user)).toContain(creator.username);
  });
});
