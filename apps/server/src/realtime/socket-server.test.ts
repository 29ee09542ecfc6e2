import type { ServerToClientEvents } from '@fanverse/contract';
import { SOCKET_PATH } from '@fanverse/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let base: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.stop();
});

function open(token: string | undefined): Socket<ServerToClientEvents> {
  const socket = connect(base, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: token ? { token } : {},
    reconnection: false,
  });
  sockets.push(socket);
  return socket;
}

const outcome = (socket: Socket) =>
  new Promise<string>((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (err) => resolve(err.message));
  });

describe('socket server', () => {
  it('accepts a valid token and delivers events to every socket of that user only', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const a1 = open(a.token);
    const a2 = open(a.token);
    const b1 = open(b.token);
    expect(await Promise.all([outcome(a1), outcome(a2), outcome(b1)])).toEqual([
      'connected',
      'connected',
      'connected',
    ]);
    const got: string[] = [];
    a1.on('unreadMessages', (p) => got.push(`a1:${p.total}`));
    a2.on('unreadMessages', (p) => got.push(`a2:${p.total}`));
    b1.on('unreadMessages', (p) => got.push(`b1:${p.total}`));
    await new Promise((r) => setTimeout(r, 50));
    t.realtime.toUser(a.id, 'unreadMessages', { total: 3 });
    await new Promise((r) => setTimeout(r, 150));
    expect(got.sort()).toEqual(['a1:3', 'a2:3']);
  });

  it('refuses a missing or unknown token with a reason', async () => {
    expect(await outcome(open(undefined))).toBe('UNAUTHENTICATED');
    expect(await outcome(open('not-a-token'))).toBe('INVALID_TOKEN');
  });

  it('refuses a revoked token, and a logout disconnects that session', async () => {
    const u = await createUser(t);
    const s = open(u.token);
    expect(await outcome(s)).toBe('connected');
    const closed = new Promise<string>((resolve) => s.once('disconnect', (reason) => resolve(reason)));
    await t.call('auth.logout', {}, { token: u.token });
    expect(await closed).toBe('io server disconnect');
    expect(await outcome(open(u.token))).toBe('INVALID_TOKEN');
  });
});
