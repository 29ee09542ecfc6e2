import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { jpeg, postForm } from '../../../test/media-fixtures.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.stop());

describe('avatar and cover', () => {
  it('crops the avatar as the adjust editor says and serves it publicly', async () => {
    const u = await createUser(t, { verified: true });
    const res = await postForm(
      base,
      '/api/v1/user/profile/image',
      u.token,
      { kind: 'avatar', x: '10', y: '20', width: '100', height: '100' },
      [{ name: 'me.jpg', data: await jpeg(400, 300) }],
    );
    expect(res.status).toBe(200);
    const avatar = res.body.avatar as string;
    expect(avatar).toMatch(/^\/api\/v1\/public-media\/[0-9a-f-]{36}\/thumb$/);
    const file = await fetch(`${base}${avatar}`);
    expect(file.status).toBe(200);
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([100, 100]);
  });

  it('refuses a crop outside the picture and a missing file', async () => {
    const u = await createUser(t, { verified: true });
    const bad = await postForm(
      base,
      '/api/v1/user/profile/image',
      u.token,
      { kind: 'cover', x: '350', y: '0', width: '100', height: '100' },
      [{ name: 'me.jpg', data: await jpeg(400, 300) }],
    );
    expect(bad.status).toBe(400);
    const none = await postForm(base, '/api/v1/user/profile/image', u.token, { kind: 'cover' }, []);
    expect(none.status).toBe(400);
  });

  it('never serves post media through the public route', async () => {
    const c = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const post = await postForm(
      base,
      '/api/v1/posts',
      c.token,
      { certifyAdults: 'true', certifyConsent: 'true', certifyTerms: 'true', visibility: 'ppv', price: '10' },
      [{ name: 'p.jpg', data: await jpeg() }],
    );
    const mediaId = (post.body.post as { media: { _id: string }[] }).media[0]!._id;
    expect((await fetch(`${base}/api/v1/public-media/${mediaId}/web`)).status).toBe(404);
  });
});
