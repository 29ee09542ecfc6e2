import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.stop());

describe('GET /user/profile', () => {
  it('answers the profile fields, the unread notification count and every counter', async () => {
    const u = await createUser(t, { verified: true });
    await t.database.session((exec) =>
      exec(
        `INSERT INTO notifications (user_id, kind) VALUES ('${u.id}', 'like'), ('${u.id}', 'comment');
         INSERT INTO notifications (user_id, kind, read_at) VALUES ('${u.id}', 'like', now())`,
      ),
    );
    const res = await t.call('user.profile', undefined, { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      _id: u.id,
      username: u.username,
      name: 'Factory Person',
      email: u.email,
      birthdate: '1990-01-01',
      displayName: null,
      about: null,
      location: null,
      avatar: null,
      cover: null,
      notifications: 2,
    });
    expect(Object.keys(res.body.counters).sort()).toEqual(
      [
        'complaintsByVerify',
        'creatorsByVerify',
        'documentsByVerify',
        'messagesUnread',
        'notificationsUnread',
        'postsByReview',
        'profilesByVerify',
        'storiesByReview',
      ].sort(),
    );
    expect(res.body.counters.notificationsUnread).toBe(2);
    expect(res.body).not.toHaveProperty('passwordHash');
  });
});

describe('PATCH /user/profile', () => {
  it('saves each editable field and answers the new values', async () => {
    const u = await createUser(t, { verified: true });
    const res = await t.call(
      'user.updateProfile',
      {
        name: 'New Name',
        displayName: 'Shown Name',
        about: 'About me',
        location: 'Medellín',
        birthdate: '1992-03-04',
        country: 'CO',
      },
      { token: u.token },
    );
    expect(res.status).toBe(200);
    const again = await t.call('user.profile', undefined, { token: u.token });
    expect(again.body).toMatchObject({
      name: 'New Name',
      displayName: 'Shown Name',
      about: 'About me',
      location: 'Medellín',
      birthdate: '1992-03-04',
      country: 'CO',
    });
  });

  it('refuses a username taken by someone else and an age under 18', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const taken = await t.call(
      'user.updateProfile',
      { username: b.username.toUpperCase() },
      { token: a.token },
    );
    expect(taken.status).toBe(409);
    expect(taken.body.fields?.username).toBeDefined();
    const young = await t.call('user.updateProfile', { birthdate: '2020-01-01' }, { token: a.token });
    expect(young.status).toBe(400);
    expect(young.body.fields?.birthdate).toContain('18');
  });

  it('needs a session', async () => {
    expect((await t.call('user.updateProfile', { name: 'X' })).status).toBe(401);
  });
});

describe('POST /report/connection', () => {
  it('marks the user online with a last connection and answers the counters', async () => {
    const u = await createUser(t);
    const res = await t.call('report.connection', { time: Date.now() }, { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body.online).toBe(true);
    expect(Date.parse(res.body.lastConnection)).toBeGreaterThan(Date.now() - 60_000);
    expect(res.body.counter.notificationsUnread).toBe(0);
    const profile = await t.call('user.profile', undefined, { token: u.token });
    expect(profile.body.online).toBe(true);
    expect(profile.body.lastConnection).toBe(res.body.lastConnection);
  });

  it('needs a session', async () => {
    expect((await t.call('report.connection', { time: 1 })).status).toBe(401);
  });
});

describe('POST /user/delete', () => {
  it('refuses without the typed word, in the request language', async () => {
    const u = await createUser(t);
    const res = await t.call(
      'user.delete',
      { confirm: 'borrar', password: TEST_PASSWORD },
      { token: u.token, lang: 'es' },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Escribe la palabra eliminar para confirmar.');
  });

  it('refuses a wrong password', async () => {
    const u = await createUser(t);
    const res = await t.call(
      'user.delete',
      { confirm: 'delete', password: 'wrong-one-1' },
      { token: u.token },
    );
    expect(res.status).toBe(401);
  });

  it('removes personal data, ends every session and frees nothing that identifies the person', async () => {
    const u = await createUser(t);
    const res = await t.call(
      'user.delete',
      { confirm: 'eliminar', password: TEST_PASSWORD },
      { token: u.token },
    );
    expect(res.status).toBe(200);
    expect((await t.call('user.profile', undefined, { token: u.token })).status).toBe(401);
    expect((await t.call('auth.login', { login: u.username, password: TEST_PASSWORD })).status).toBe(401);
    const rows = await t.database.session((exec) =>
      exec(`SELECT username, email, name, birthdate, deleted_at FROM users WHERE id = '${u.id}'`),
    );
    expect(rows[0]?.deleted_at).not.toBeNull();
    expect(rows[0]?.email).not.toBe(u.email);
    expect(rows[0]?.username).not.toBe(u.username);
    expect(rows[0]?.birthdate).toBeNull();
  });
});
