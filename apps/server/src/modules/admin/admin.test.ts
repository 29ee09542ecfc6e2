import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser, STAFF_TOTP_SECRET, TEST_PASSWORD } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createUser>>;
let creator: Awaited<ReturnType<typeof createUser>>;
let fan: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { roles: ['admin', 'user'] });
  creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  fan = await createUser(t);
});
afterAll(() => t.stop());

describe('complaints', () => {
  it('an admin answers a report, removes the post, and the reporter is told', async () => {
    const post = await createPost(t, creator, {}, { moderator: admin });
    const report = await t.call(
      'report.create',
      { type: 'post', id: post, reason: 'violent_content' },
      { token: fan.token },
    );
    const pending = await t.call('admin.complaints', { status: 'pending' }, { token: admin.token });
    const item = pending.body.items.find((c) => c._id === report.body.id)!;
    expect(item).toMatchObject({
      reason: 'violent_content',
      response: null,
      status: 'pending',
      targetId: post,
    });
    const res = await t.call(
      'admin.complaintAct',
      { response: 'Removed, thank you.', action: 'remove_content' },
      { token: admin.token, params: { id: item._id } },
    );
    expect(res.body).toMatchObject({
      status: 'resolved',
      response: 'Removed, thank you.',
      action: 'remove_content',
    });
    expect((await t.call('posts.list', { post }, { token: fan.token })).status).toBe(404);
    const notes = await t.database.session((exec) =>
      exec(`SELECT kind FROM notifications WHERE user_id = '${fan.id}' AND kind = 'report_resolved'`),
    );
    expect(notes).toHaveLength(1);
    const logged = await t.database.session((exec) =>
      exec(`SELECT admin_id, action FROM admin_actions WHERE target_id = '${item._id}'`),
    );
    expect(logged[0]).toMatchObject({ admin_id: admin.id, action: 'complaint.resolve' });
  });

  it('a complaint can be closed with no response, and suspending the author ends their sessions', async () => {
    const author = await createUser(t, { roles: ['user', 'creator'] });
    const post = await createPost(t, author, {}, { moderator: admin });
    const report = await t.call(
      'report.create',
      { type: 'post', id: post, reason: 'fraud' },
      { token: fan.token },
    );
    const res = await t.call(
      'admin.complaintAct',
      { action: 'suspend_user' },
      { token: admin.token, params: { id: report.body.id } },
    );
    expect(res.body.response).toBeNull();
    expect((await t.call('user.profile', undefined, { token: author.token })).status).toBe(401);
    const login = await t.call('auth.login', { login: author.username, password: TEST_PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.code).toBe('ACCOUNT_SUSPENDED');
  });

  it('DMCA requests from the public page land in the complaints', async () => {
    const sent = await t.call('contact.send', {
      name: 'Rights Holder',
      email: 'legal@example.com',
      subject: 'Copyright',
      message: 'This post copies my photo.',
      kind: 'dmca',
    });
    const list = await t.call('admin.complaints', { status: 'pending' }, { token: admin.token });
    expect(list.body.items.find((c) => c.targetId === sent.body.id)?.targetType).toBe('dmca');
  });
});

describe('admin users', () => {
  it('lists creators and fans separately and searches', async () => {
    const creators = await t.call('admin.users', { role: 'creators' }, { token: admin.token });
    expect(creators.body.items.every((u) => u.roles.includes('creator'))).toBe(true);
    const found = await t.call('admin.users', { q: fan.username }, { token: admin.token });
    expect(found.body.items.map((u) => u.user)).toEqual([fan.username]);
    expect(found.body.items[0]?.email).toBe(fan.email);
  });

  it('restores a suspended account', async () => {
    const u = await createUser(t);
    await t.call('admin.userAction', { action: 'suspend' }, { token: admin.token, params: { id: u.id } });
    expect((await t.call('auth.login', { login: u.username, password: TEST_PASSWORD })).status).toBe(403);
    await t.call('admin.userAction', { action: 'restore' }, { token: admin.token, params: { id: u.id } });
    expect((await t.call('auth.login', { login: u.username, password: TEST_PASSWORD })).status).toBe(200);
  });
});

describe('admin permissions by role', () => {
  it('refuses fans and creators on every admin call, and coordinators on verifications and suspensions', async () => {
    const coord = await createUser(t, { roles: ['coord', 'user'] });
    const someone = await createUser(t);
    const calls = [
      () => t.call('admin.complaints', {}, { token: fan.token }),
      () => t.call('admin.complaints', {}, { token: creator.token }),
      () => t.call('admin.users', {}, { token: fan.token }),
      () => t.call('admin.users', {}, { token: creator.token }),
      () => t.call('admin.verifications', {}, { token: creator.token }),
      () => t.call('admin.verifications', {}, { token: coord.token }),
      () =>
        t.call('admin.userAction', { action: 'suspend' }, { token: coord.token, params: { id: someone.id } }),
      () =>
        t.call(
          'admin.userAction',
          { action: 'suspend' },
          { token: creator.token, params: { id: someone.id } },
        ),
      () => t.call('admin.postReview', { id: someone.id, adminStatus: 'approved' }, { token: creator.token }),
    ];
    for (const call of calls) expect((await call()).status).toBe(403);
    expect((await t.call('admin.complaints', {}, { token: coord.token })).status).toBe(200);
    expect((await t.call('admin.complaints', {})).status).toBe(401);
  });

  it('an admin cannot suspend a super administrator', async () => {
    const superUser = await createUser(t, { roles: ['super', 'admin', 'user'] });
    const res = await t.call(
      'admin.userAction',
      { action: 'suspend' },
      { token: admin.token, params: { id: superUser.id } },
    );
    expect(res.status).toBe(403);
  });
});

describe('staff roles', () => {
  it('a super administrator grants and takes away the admin role; an admin cannot', async () => {
    const superUser = await createUser(t, { roles: ['super', 'admin', 'user'] });
    const u = await createUser(t);
    expect(
      (
        await t.call(
          'admin.userRole',
          { role: 'admin', grant: true },
          { token: admin.token, params: { id: u.id } },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await t.call(
          'admin.userRole',
          { role: 'admin', grant: true },
          { token: superUser.token, params: { id: u.id } },
        )
      ).status,
    ).toBe(200);
    const asAdmin = await t.call('auth.login', { login: u.username, password: TEST_PASSWORD });
    expect(asAdmin.body.user.roles).toContain('admin');
    // The role acts once two-step sign-in is on (ADR 0027).
    expect((await t.call('admin.complaints', {}, { token: asAdmin.body.token })).body.code).toBe(
      'TWO_FACTOR_REQUIRED',
    );
    await t.services.twoFactor.enrolKnownSecret(u.id, STAFF_TOTP_SECRET);
    expect((await t.call('admin.complaints', {}, { token: asAdmin.body.token })).status).toBe(200);
    await t.call(
      'admin.userRole',
      { role: 'admin', grant: false },
      { token: superUser.token, params: { id: u.id } },
    );
    expect((await t.call('admin.complaints', {}, { token: asAdmin.body.token })).status).toBe(403);
    const again = await t.call('auth.login', { login: u.username, password: TEST_PASSWORD });
    const second = await t.call('auth.twoFactor', {
      challenge: again.body.twoFactor!.challenge,
      code: await generate({ secret: STAFF_TOTP_SECRET }),
    });
    expect(second.body.user.roles).not.toContain('admin');
  });
});
