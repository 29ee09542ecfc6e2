import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/harness.ts';
import { jpeg, postForm } from '../../test/media-fixtures.ts';
import { until } from '../../test/sockets.ts';
import { resolveAppSecret } from './secret.ts';

describe('the app secret', () => {
  const noFile = path.join(os.tmpdir(), `fv-no-secret-${randomBytes(4).toString('hex')}`);

  it('is created once in the database, the same for copies starting at the same time', async () => {
    const database = await createTestDatabase();
    try {
      const config = { appSecret: undefined, dataDir: noFile };
      const secrets = await Promise.all([1, 2, 3, 4].map(() => resolveAppSecret(config, database)));
      expect(new Set(secrets).size).toBe(1);
      expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
      expect(await resolveAppSecret(config, database)).toBe(secrets[0]);
      // APP_SECRET wins over the kept one.
      const fromEnv = 'e'.repeat(40);
      expect(await resolveAppSecret({ appSecret: fromEnv, dataDir: noFile }, database)).toBe(fromEnv);
    } finally {
      await database.close();
    }
  });

  it('carries over the secret an older install kept in DATA_DIR', async () => {
    const database = await createTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-secret-'));
    try {
      fs.writeFileSync(path.join(dataDir, '.app-secret'), 'f'.repeat(64));
      expect(await resolveAppSecret({ appSecret: undefined, dataDir }, database)).toBe('f'.repeat(64));
      fs.rmSync(path.join(dataDir, '.app-secret'));
      expect(await resolveAppSecret({ appSecret: undefined, dataDir }, database)).toBe('f'.repeat(64));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await database.close();
    }
  });
});

/** Two copies of the server on one PostgreSQL database, no APP_SECRET: links work on either. */
describe.skipIf(!process.env.DATABASE_URL)('two copies without APP_SECRET', () => {
  let one: TestApp;
  let two: TestApp;
  let base1: string;
  let base2: string;
  let dir: string;

  beforeAll(async () => {
    // Separate data directories, as on separate machines; media files on one shared store.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-copies-'));
    const env = (name: string) => ({ DATA_DIR: path.join(dir, name), MEDIA_DIR: path.join(dir, 'media') });
    one = await createTestApp(env('one'));
    two = await createTestApp(env('two'), { databaseUrl: one.databaseUrl });
    base1 = await one.app.listen({ port: 0, host: '127.0.0.1' });
    base2 = await two.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await two?.stop();
    await one?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('accepts on one copy the media URLs signed by the other', async () => {
    expect(one.config.appSecret).toBeUndefined();
    const creator = await createUser(one, { roles: ['user', 'creator'], verified: true });
    const cert = { certifyAdults: 'true', certifyConsent: 'true', certifyTerms: 'true' };
    const created = await postForm(base1, '/api/v1/posts', creator.token, { ...cert, message: 'shared' }, [
      { name: 'photo.jpg', data: await jpeg() },
    ]);
    expect(created.status).toBe(200);
    const postId = (created.body.post as { _id: string })._id;
    let src: string | null | undefined;
    await until(async () => {
      const own = await one.call('posts.list', { post: postId }, { token: creator.token });
      src = own.body.posts[0]?.media[0]?.src;
      return !!src;
    });
    expect((await fetch(`${base2}${src}`)).status).toBe(200);
    const forged = String(src).replace(/sig=([^&]{4})/, 'sig=AAAA');
    expect((await fetch(`${base2}${forged}`)).status).toBe(403);
  });

  it('opens on one copy the sandbox billing page of a checkout made on the other', async () => {
    const fan = await createUser(one);
    const checkout = await one.call('checkout.credits', { bag: 'bag-50' }, { token: fan.token });
    expect(checkout.status).toBe(200);
    const page = await fetch(`${base2}${checkout.body.redirectUrl}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Sandbox billing');
  });
});
