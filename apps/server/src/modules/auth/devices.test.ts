import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { openSocket, settle, type TestSocket, until } from '../../../test/sockets.ts';

const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const MAC_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const MAC_UA_NEWER = MAC_UA.replace('Version/17.4', 'Version/18.1');

let t: TestApp;
let base: string;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.stop();
});

async function signIn(username: string, userAgent: string, ip: string): Promise<string> {
  const res = await t.call(
    'auth.login',
    { login: username, password: TEST_PASSWORD },
    { ip, headers: { 'user-agent': userAgent } },
  );
  expect(res.status).toBe(200);
  return res.body.token;
}

async function newDeviceMails(email: string) {
  await t.jobs.drain();
  const res = await t.call('dev.outbox', { to: email });
  return res.body.mails.filter((m) => /new device|dispositivo nuevo/i.test(m.subject));
}

describe('devices: the sessions of an account', () => {
  it('lists each session with its device, address and last seen; marks the current one', async () => {
    const u = await createUser(t);
    const phone = await signIn(u.username, PHONE_UA, '203.0.113.7');
    const res = await t.call('auth.sessions', undefined, { token: phone });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(2);
    const current = res.body.items.find((i) => i.current);
    expect(current?.device).toEqual({ browser: 'Chrome 131', os: 'Android 14', type: 'mobile' });
    expect(current?.address).toBe('203.0.113.7');
    expect(Date.parse(current?.lastSeenAt ?? '')).not.toBeNaN();
    expect(res.body.items.filter((i) => i.current)).toHaveLength(1);
  });

  it("revoking a session cuts that device's socket at once and its token stops working", async () => {
    const u = await createUser(t);
    const phone = await signIn(u.username, PHONE_UA, '203.0.113.8');
    const mac = await signIn(u.username, MAC_UA, '198.51.100.4');
    const phoneSocket = await openSocket(base, phone, sockets);
    const macSocket = await openSocket(base, mac, sockets);
    const list = await t.call('auth.sessions', undefined, { token: mac });
    const phoneSession = list.body.items.find((i) => i.device.type === 'mobile');
    expect(phoneSession).toBeDefined();
    const res = await t.call('auth.revokeSession', {}, { token: mac, params: { id: phoneSession!.id } });
    expect(res.status).toBe(200);
    await until(() => !phoneSocket.connected, 2_000);
    await settle();
    expect(macSocket.connected).toBe(true);
    expect((await t.call('user.profile', undefined, { token: phone })).status).toBe(401);
    expect((await t.call('user.profile', undefined, { token: mac })).status).toBe(200);
  });

  it('signs every other device out, keeping this one', async () => {
    const u = await createUser(t);
    const a = await signIn(u.username, PHONE_UA, '203.0.113.9');
    const b = await signIn(u.username, MAC_UA, '198.51.100.5');
    const aSocket = await openSocket(base, a, sockets);
    const res = await t.call('auth.revokeOtherSessions', {}, { token: b });
    expect(res.body).toEqual({ revoked: 2 }); // the factory's session and the phone
    await until(() => !aSocket.connected, 2_000);
    expect((await t.call('auth.sessions', undefined, { token: b })).body.items).toHaveLength(1);
    expect((await t.call('user.profile', undefined, { token: u.token })).status).toBe(401);
  });

  it("nobody may revoke or list another account's sessions", async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const staff = await createUser(t, { roles: ['user', 'admin'] });
    const mine = await t.call('auth.sessions', undefined, { token: owner.token });
    const id = mine.body.items[0]!.id;
    for (const who of [stranger, staff]) {
      const res = await t.call('auth.revokeSession', {}, { token: who.token, params: { id } });
      expect(res.status).toBe(404);
      const theirs = await t.call('auth.sessions', undefined, { token: who.token });
      expect(theirs.body.items.map((i) => i.id)).not.toContain(id);
    }
    expect((await t.call('auth.sessions')).status).toBe(401);
    expect((await t.call('auth.revokeOtherSessions', {})).status).toBe(401);
    expect((await t.call('auth.revokeSession', {}, { params: { id } })).status).toBe(401);
    expect((await t.call('user.profile', undefined, { token: owner.token })).status).toBe(200);
  });

  it('mails the account when a device it never used signs in, not for the same device again', async () => {
    const u = await createUser(t);
    // The factory's session has no User-Agent: a first real device is new.
    await signIn(u.username, MAC_UA, '198.51.100.6');
    expect(await newDeviceMails(u.email)).toHaveLength(1);
    await signIn(u.username, MAC_UA_NEWER, '198.51.100.7'); // a browser update is the same device
    expect(await newDeviceMails(u.email)).toHaveLength(1);
    await signIn(u.username, PHONE_UA, '203.0.113.10');
    const mails = await newDeviceMails(u.email);
    expect(mails).toHaveLength(2);
    const text = mails.map((m) => m.text).join('\n');
    expect(text).toContain('Chrome 131, Android 14');
    expect(text).toContain('203.0.113.10');
    expect(text).toContain('/user/devices');
  });
});
