import { type ClientToServerEvents, type ServerToClientEvents, SOCKET_PATH } from '@fanverse/contract';
import { io, type Socket } from 'socket.io-client';
import { useSession } from './session.store.ts';
import { useUi } from './ui.store.ts';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;

/** The open socket, for features that listen to their own events. */
export function getSocket(): AppSocket | null {
  return socket;
}

function linkOf(payload: unknown): string | null {
  if (!payload || typeof payload !== 'object') return null;
  const link = (payload as { link?: unknown }).link;
  return typeof link === 'string' && link.startsWith('/') ? link : null;
}

function firstImage(payload: unknown): string | null {
  if (!payload || typeof payload !== 'object') return null;
  const product = (payload as { product?: { media?: { src?: unknown }[] } }).product;
  const src = product?.media?.[0]?.src;
  return typeof src === 'string' ? src : null;
}

/** Opens the realtime connection for a session (spec §4: on login). Failures are silent. */
export function connectSocket(token: string): void {
  if (socket) disconnectSocket();
  const s: AppSocket = io({
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: { token },
    reconnectionAttempts: 10,
    reconnectionDelayMax: 30_000,
  });
  s.on('connect_error', () => {
    // The socket server may be missing or restarting: the app works without live updates.
  });
  s.on('notification', ({ notification }) => {
    useUi.getState().pushNotification({
      id: notification._id,
      message: notification.message,
      image: firstImage(notification.payload),
      link: linkOf(notification.payload),
    });
  });
  s.on('counter', (counters) => useSession.getState().setCounters(counters));
  s.on('unreadMessages', ({ total }) => useSession.getState().setCounters({ messagesUnread: total }));
  socket = s;
}

/** Closes the realtime connection (spec §4: on logout). */
export function disconnectSocket(): void {
  if (!socket) return;
  socket.removeAllListeners();
  socket.disconnect();
  socket = null;
}
