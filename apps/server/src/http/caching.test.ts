import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
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
});
