import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.stop();
});

describe('HTTP caching and compression', () => {
  it('compresses JSON for clients that accept it', async () => {
    const res = await t.app.inject({ url: '/api/v1/', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(gunzipSync(res.rawPayload).toString('utf8')) as { name: string };
    expect(body.name).toBe(t.config.appName);
    const plain = await t.app.inject({ url: '/api/v1/' });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('answers 304 to a client that holds the same answer (ETag)', async () => {
    const first = await t.app.inject({ url: '/api/v1/posts' });
    const tag = first.headers.etag;
    // The weak SHA-1 of the JSON, as the ETag plugin computes it by default.
    expect(tag).toBe(`W/"${createHash('sha1').update(first.body).digest('base64')}"`);
    const again = await t.app.inject({ url: '/api/v1/posts', headers: { 'if-none-match': String(tag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it("a visitor's cached feed shows a post as soon as it is approved, and hides it once deleted", async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const before = await t.call('posts.list', {});
    const id = await createPost(t, creator, { message: 'Fresh for visitors' });
    const after = await t.call('posts.list', {});
    expect(after.body.posts.map((p) => p._id)).toContain(id);
    expect(after.body.statistics.total).toBe(before.body.statistics.total + 1);
    await t.call('posts.delete', {}, { token: creator.token, params: { id } });
    const gone = await t.call('posts.list', {});
    expect(gone.body.posts.map((p) => p._id)).not.toContain(id);
  });

  it('sends the start-up answer made once a second as it is: the same JSON and tag, 304 for a holder', async () => {
    const first = await t.app.inject({ url: '/api/v1/?view=home', headers: { ilang: 'es' } });
    let second = await t.app.inject({ url: '/api/v1/?view=home', headers: { ilang: 'es' } });
    // Two calls a second apart are two answers (serverTime): ask again within one second.
    for (let i = 0; i < 5 && second.body !== first.body; i++) {
      second = await t.app.inject({ url: '/api/v1/?view=home', headers: { ilang: 'es' } });
    }
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(first.headers.etag).toBe(`W/"${createHash('sha1').update(first.body).digest('base64')}"`);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.json()).toMatchObject({ language: 'es', name: t.config.appName });
    // A holder of the answer gets a 304 (asked again if a second went by in between).
    let held = await t.app.inject({
      url: '/api/v1/?view=home',
      headers: { ilang: 'es', 'if-none-match': String(first.headers.etag) },
    });
    for (let i = 0; i < 5 && held.statusCode !== 304; i++) {
      const now = await t.app.inject({ url: '/api/v1/?view=home', headers: { ilang: 'es' } });
      held = await t.app.inject({
        url: '/api/v1/?view=home',
        headers: { ilang: 'es', 'if-none-match': String(now.headers.etag) },
      });
    }
    expect(held.statusCode).toBe(304);
    expect(held.body).toBe('');
    const english = await t.app.inject({ url: '/api/v1/?view=home', headers: { ilang: 'en' } });
    expect(english.json()).toMatchObject({ language: 'en' });
    expect(english.headers.etag).not.toBe(first.headers.etag);
  });

  it('a settings change reaches the start-up answer at once', async () => {
    const superAdmin = await createUser(t, { roles: ['user', 'admin', 'super'] });
    const before = await t.call('home.get', {});
    expect(before.body.features.switches.tips).toBe(true);
    await t.call('admin.updateSettings', { features: { tips: false } }, { token: superAdmin.token });
    expect((await t.call('home.get', {})).body.features.switches.tips).toBe(false);
    await t.call('admin.updateSettings', { features: { tips: true } }, { token: superAdmin.token });
    expect((await t.call('home.get', {})).body.features.switches.tips).toBe(true);
  });

  it('tags successful GET answers only, and reads If-None-Match as a list of weak tags', async () => {
    const first = await t.app.inject({ url: '/api/v1/posts' });
    const tag = String(first.headers.etag);
    const strong = tag.replace(/^W\//, '');
    for (const ifNoneMatch of [`"other", ${tag}`, strong, '*']) {
      const res = await t.app.inject({ url: '/api/v1/posts', headers: { 'if-none-match': ifNoneMatch } });
      expect(res.statusCode, ifNoneMatch).toBe(304);
    }
    expect(
      (await t.app.inject({ url: '/api/v1/posts', headers: { 'if-none-match': '"other"' } })).statusCode,
    ).toBe(200);
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: { login: 'nobody-here', password: 'wrong-password' },
    });
    expect(post.statusCode).toBeGreaterThanOrEqual(400);
    expect(post.headers.etag).toBeUndefined();
    const missing = await t.app.inject({ url: '/api/v1/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it("sends a visitor's shared feed compressed once: the same bytes to every visitor, tag unchanged", async () => {
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    for (let i = 0; i < 6; i++)
      await createPost(t, creator, { message: `A free post for everyone, number ${i}` });
    const plain = await t.app.inject({ url: '/api/v1/posts', headers: { ilang: 'en' } });
    const br = await t.app.inject({
      url: '/api/v1/posts',
      headers: { ilang: 'en', 'accept-encoding': 'br' },
    });
    const again = await t.app.inject({
      url: '/api/v1/posts',
      headers: { ilang: 'en', 'accept-encoding': 'gzip, br' },
    });
    const gzip = await t.app.inject({
      url: '/api/v1/posts',
      headers: { ilang: 'en', 'accept-encoding': 'gzip' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(again.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    for (const res of [plain, br, gzip]) {
      expect(res.headers.vary).toContain('accept-encoding');
      expect(res.headers.etag).toBe(plain.headers.etag);
    }
    expect(Buffer.compare(br.rawPayload, again.rawPayload)).toBe(0);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
  });
});
