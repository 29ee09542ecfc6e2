import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_PROFILE, createUser, yearsAgo } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { jpeg } from '../../../test/media-fixtures.ts';

let t: TestApp;
let base: string;
let admin: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await createUser(t, { roles: ['admin', 'user'] });
});
afterAll(() => t.stop());

const PROFILE = APPLICATION_PROFILE;

async function photos() {
  return [
    { field: 'front', name: 'front.jpg', data: await jpeg(300, 200, '#111111') },
    { field: 'back', name: 'back.jpg', data: await jpeg(300, 200, '#222222') },
    { field: 'face', name: 'face.jpg', data: await jpeg(300, 200, '#333333') },
  ];
}

/** Multipart with named file fields (postForm names every file `files`). */
async function sendStep3(
  token: string,
  files: { field: string; name: string; data: Buffer }[],
  documentType = 'passport',
) {
  const form = new FormData();
  form.append('step', '3');
  form.append('documentType', documentType);
  for (const f of files) form.append(f.field, new Blob([f.data]), f.name);
  const res = await fetch(`${base}/api/v1/creator/apply`, {
    method: 'POST',
    headers: { a1sledom: token },
    body: form,
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { fields?: Record<string, string> },
  };
}

async function applyFully(token: string) {
  expect((await t.call('creator.apply', PROFILE, { token })).status).toBe(200);
  expect((await t.call('creator.apply', { step: '2', acceptCreatorTerms: true }, { token })).status).toBe(
    200,
  );
  const res = await sendStep3(token, await photos());
  expect(res.status).toBe(200);
  return res.body;
}

describe('creator application', () => {
  it('walks the four steps with the step state of spec §3', async () => {
    const fan = await createUser(t);
    const empty = await t.call('creator.applyState', undefined, { token: fan.token });
    expect(empty.body).toMatchObject({
      step1: false,
      step2: false,
      step3: false,
      step4: false,
      DataApplyCreatorComplete: false,
    });
    await t.call('creator.apply', PROFILE, { token: fan.token });
    expect((await t.call('creator.applyState', undefined, { token: fan.token })).body).toMatchObject({
      step1: true,
      step2: false,
    });
    await t.call('creator.apply', { step: '2', acceptCreatorTerms: true }, { token: fan.token });
    const done = await sendStep3(fan.token, await photos());
    expect(done.body).toMatchObject({
      step1: true,
      step2: true,
      step3: true,
      step4: true,
      DataApplyCreatorComplete: true,
      status: 'pending',
    });
    expect(
      (await t.call('user.profile', undefined, { token: admin.token })).body.counters.creatorsByVerify,
    ).toBeGreaterThan(0);
  });

  it.each([
    ['phone', { phone: '' }, 'required'],
    ['phone', { phone: 'call me' }, 'valid phone'],
    ['instagram', { instagram: '' }, 'required'],
    ['email', { email: 'nope' }, 'valid email'],
    ['birthday', { birthday: yearsAgo(17) }, '18'],
    ['description', { description: ' ' }, 'required'],
  ])('step 1 refuses a bad %s', async (field, change, text) => {
    const fan = await createUser(t);
    const res = await t.call('creator.apply', { ...PROFILE, ...change }, { token: fan.token });
    expect(res.status).toBe(400);
    expect(res.body.fields?.[field]).toContain(text);
  });

  it('step 2 needs the creator terms and step 1 first', async () => {
    const fan = await createUser(t);
    expect(
      (await t.call('creator.apply', { step: '2', acceptCreatorTerms: true }, { token: fan.token })).status,
    ).toBe(400);
    await t.call('creator.apply', PROFILE, { token: fan.token });
    const res = await t.call('creator.apply', { step: '2', acceptCreatorTerms: false }, { token: fan.token });
    expect(res.status).toBe(400);
    expect(res.body.fields?.acceptCreatorTerms).toBeDefined();
  });

  it('step 3 needs all three photos, different from each other, and a document type', async () => {
    const fan = await createUser(t);
    await t.call('creator.apply', PROFILE, { token: fan.token });
    await t.call('creator.apply', { step: '2', acceptCreatorTerms: true }, { token: fan.token });
    const [front, back] = await photos();
    const two = await sendStep3(fan.token, [front!, back!]);
    expect(two.status).toBe(400);
    expect(Object.keys(two.body.fields ?? {})).toEqual(['face']);
    const same = await jpeg(300, 200, '#444444');
    const selfie = await sendStep3(
      fan.token,
      ['front', 'back', 'face'].map((field) => ({ field, name: `${field}.jpg`, data: same })),
    );
    expect(selfie.status).toBe(400);
    const badType = await sendStep3(fan.token, await photos(), 'library_card');
    expect(badType.status).toBe(400);
    expect(badType.body.fields?.documentType).toBeDefined();
  });
});

describe('verification review and identity photo privacy', () => {
  it('keeps identity photos away from everyone but verifiers, by any URL', async () => {
    const fan = await createUser(t);
    await applyFully(fan.token);
    const list = await t.call('admin.verifications', { status: 'pending' }, { token: admin.token });
    const item = list.body.items.find((i) => i.user._id === fan.id)!;
    expect(item.documents).toEqual(['front', 'back', 'face']);
    expect(JSON.stringify(list.body)).not.toMatch(/identity\/|\/media\//);
    const url = `${base}/api/v1/admin/verifications/${item._id}/documents/front`;
    const other = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const coord = await createUser(t, { roles: ['coord', 'user'] });
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { a1sledom: fan.token } })).status).toBe(403);
    expect((await fetch(url, { headers: { a1sledom: other.token } })).status).toBe(403);
    expect((await fetch(url, { headers: { a1sledom: coord.token } })).status).toBe(403);
    const ok = await fetch(url, { headers: { a1sledom: admin.token } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    // Not in public media storage, and no media route serves it.
    const mediaDir = t.config.mediaDir;
    const inMedia =
      fs.existsSync(mediaDir) &&
      fs.readdirSync(mediaDir, { recursive: true }).some((f) => String(f).includes(item._id));
    expect(inMedia).toBe(false);
    expect((await fetch(`${base}/api/v1/media/${item._id}/original`)).status).toBe(403);
    expect((await fetch(`${base}/api/v1/public-media/${item._id}/web`)).status).toBe(404);
    expect((await t.call('admin.verifications', { status: 'pending' }, { token: fan.token })).status).toBe(
      403,
    );
    expect((await t.call('admin.verifications', { status: 'pending' }, { token: coord.token })).status).toBe(
      403,
    );
    expect(path.isAbsolute(mediaDir)).toBe(true);
  });

  it('a rejection with a reason reaches the inbox; the person reapplies and is accepted as a verified creator', async () => {
    const fan = await createUser(t);
    await applyFully(fan.token);
    const id = (
      await t.call('admin.verifications', { status: 'pending' }, { token: admin.token })
    ).body.items.find((i) => i.user._id === fan.id)!._id;
    const noReason = await t.call(
      'admin.verificationDecide',
      { decision: 'reject' },
      { token: admin.token, params: { id } },
    );
    expect(noReason.status).toBe(400);
    const rejected = await t.call(
      'admin.verificationDecide',
      { decision: 'reject', reason: 'The photo is blurry' },
      { token: admin.token, params: { id } },
    );
    expect(rejected.body.status).toBe('rejected');
    const state = await t.call('creator.applyState', undefined, { token: fan.token });
    expect(state.body).toMatchObject({ status: 'rejected', reason: 'The photo is blurry', step4: false });
    const inbox = await t.call('message.conversation', { user: admin.username }, { token: fan.token });
    expect(JSON.stringify(inbox.body)).toContain('The photo is blurry');

    await sendStep3(fan.token, await photos());
    const accepted = await t.call(
      'admin.verificationDecide',
      { decision: 'accept' },
      { token: admin.token, params: { id } },
    );
    expect(accepted.status).toBe(200);
    const session = await t.call('auth.login', { login: fan.username, password: 'correct-horse-9' });
    expect(session.body.user.roles).toContain('creator');
    expect(session.body.user.verified).toBe(true);
    const post = await t.call(
      'posts.create',
      { message: 'My first post', certifyAdults: true, certifyConsent: true, certifyTerms: true },
      { token: session.body.token },
    );
    expect(post.status).toBe(200);
  });

  it('deletes identity photos a set time after the decision', async () => {
    let now = new Date();
    const app = await createTestApp({ IDENTITY_RETENTION_DAYS: '7' }, { now: () => now });
    try {
      const appBase = await app.app.listen({ port: 0, host: '127.0.0.1' });
      const u = await createUser(app);
      const a = await createUser(app, { roles: ['admin', 'user'] });
      await app.call('creator.apply', PROFILE, { token: u.token });
      await app.call('creator.apply', { step: '2', acceptCreatorTerms: true }, { token: u.token });
      const form = new FormData();
      form.append('step', '3');
      form.append('documentType', 'passport');
      for (const f of await photos()) form.append(f.field, new Blob([f.data]), f.name);
      await fetch(`${appBase}/api/v1/creator/apply`, {
        method: 'POST',
        headers: { a1sledom: u.token },
        body: form,
      });
      const id = (await app.call('admin.verifications', {}, { token: a.token })).body.items[0]!._id;
      await app.call('admin.verificationDecide', { decision: 'accept' }, { token: a.token, params: { id } });
      expect(await app.services.applications.sweepDocuments()).toBe(0);
      now = new Date(now.getTime() + 8 * 86_400_000);
      expect(await app.services.applications.sweepDocuments()).toBe(3);
      const res = await fetch(`${appBase}/api/v1/admin/verifications/${id}/documents/front`, {
        headers: { a1sledom: a.token },
      });
      expect(res.status).toBe(404);
    } finally {
      await app.stop();
    }
  });
});
