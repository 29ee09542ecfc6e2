import type { ClientToServerEvents, ServerEventName, ServerToClientEvents } from '@fanverse/contract';
import { SOCKET_PATH } from '@fanverse/contract';
import { io as connect, type Socket } from 'socket.io-client';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Opens a real socket.io client with a session token and waits until it is connected. */
export async function openSocket(
  base: string,
  token: string,
  opened: TestSocket[] = [],
): Promise<TestSocket> {
  const socket: TestSocket = connect(base, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
  });
  opened.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
  return socket;
}

/** Records every payload of one event on a socket. */
export function record<E extends ServerEventName>(
  socket: TestSocket,
  event: E,
): Parameters<ServerToClientEvents[E]>[0][] {
  const got: Parameters<ServerToClientEvents[E]>[0][] = [];
  // socket.io's listener typing can't follow a generic event name; the payload type comes from E.
  const untyped = socket as unknown as { on(event: string, fn: (payload: unknown) => void): void };
  untyped.on(event, (payload) => got.push(payload as Parameters<ServerToClientEvents[E]>[0]));
  return got;
}

/** Waits until the check passes (polling); fails with the last error after the time limit. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Lets in-flight events arrive before asserting that something did NOT happen. */
export const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));
