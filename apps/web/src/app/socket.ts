import {
  type ClientToServerEvents,
  type NotificationPayload,
  type ServerEventName,
  type ServerToClientEvents,
  SOCKET_PATH,
} from '@fanverse/contract';
import type { Socket } from 'socket.io-client';
import { useSession } from './session.store.ts';
import { useUi } from './ui.store.ts';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;

/** The open socket, for features that listen to their own events. */
export function getSocket(): AppSocket | null {
  return socket;
}

type FeatureListener = (payload: unknown) => void;
/** Listeners of features, kept across reconnections and new sessions. */
const featureListeners = new Map<ServerEventName, Set<FeatureListener>>();

/** Listens to one server event on the current and every later socket; returns the unsubscribe. */
export function onSocketEvent<E extends ServerEventName>(
  event: E,
  listener: (payload: Parameters<ServerToClientEvents[E]>[0]) => void,
): () => void {
  const set = featureListeners.get(event) ?? new Set<FeatureListener>();
  featureListeners.set(event, set);
  const stored = listener as FeatureListener;
  set.add(stored);
  return () => set.delete(stored);
}

/** The chat open on this device (spec §7 openChat / closeChat), re-announced on reconnection. */
let openChatHandle: string | null = null;
export function setOpenChat(handle: string | null): void {
  if (openChatHandle && openChatHandle !== handle) socket?.emit('closeChat');
  openChatHandle = handle;
  if (handle) socket?.emit('openChat', handle);
}

/**
 * Posts open on this device (watchPost of spec §7): per post, what each viewer wants called once
 * the room is joined. Re-joined on reconnection.
 */
const watchedPosts = new Map<string, Set<() => void>>();

/** Asks to join a post's room; once the server has let us in, each of its viewers is called. */
function joinPost(s: AppSocket, postId: string): void {
  s.emit('watchPost', postId, (ok) => {
    if (!ok) return;
    for (const joined of watchedPosts.get(postId) ?? []) joined();
  });
}

/**
 * Joins the live room of a post (new comments, their count) while the caller shows it; returns
 * the leave. `joined` runs each time the room is joined (first, and after a reconnection): what
 * happened before it (a comment between the page's data and the join) reaches no socket, so the
 * caller reads it again then.
 */
export function watchPost(postId: string, joined: () => void = () => undefined): () => void {
  const viewers = watchedPosts.get(postId) ?? new Set<() => void>();
  const first = viewers.size === 0;
  const mine = () => joined();
  viewers.add(mine);
  watchedPosts.set(postId, viewers);
  // Not yet connected: the connection's 'connect' joins every watched post (once).
  if (first && socket?.connected) joinPost(socket, postId);
  return () => {
    viewers.delete(mine);
    if (viewers.size > 0) return;
    watchedPosts.delete(postId);
    socket?.emit('unwatchPost', postId);
  };
}

function linkOf(payload: NotificationPayload): string | null {
  return payload.link.startsWith('/') ? payload.link : null;
}

function firstImage(payload: NotificationPayload): string | null {
  return payload.product?.media[0]?.src ?? null;
}

/** Lives open on this device: their rooms (chat, tips, viewers) are re-joined on reconnection. */
const watchedLives = new Set<string>();
/** Joins a live's room while the page shows it; answers whether the server let us in; returns the leave. */
export function watchLive(liveId: string, joined?: (ok: boolean) => void): () => void {
  watchedLives.add(liveId);
  socket?.emit('watchLive', liveId, (ok) => joined?.(ok));
  return () => {
    watchedLives.delete(liveId);
    socket?.emit('unwatchLive', liveId);
  };
}

/** The socket.io client, fetched once: at start-up when a session exists, else at login. */
let client: Promise<typeof import('socket.io-client')> | null = null;
export function loadSocketClient(): Promise<typeof import('socket.io-client')> {
  client ??= import('socket.io-client').catch((error: unknown) => {
    client = null; // a later connect tries again
    throw error;
  });
  return client;
}

/** Counts connect and disconnect calls: a client that arrives after a newer call is dropped. */
let generation = 0;

/**
 * Opens the realtime connection for a session (spec §4: on login). The client library loads
 * then, not with the app: visitors never fetch it. Failures are silent.
 */
export function connectSocket(token: string): void {
  disconnectSocket();
  const attempt = generation;
  loadSocketClient().then(
    ({ io }) => {
      if (attempt === generation) open(io, token);
    },
    () => undefined, // no live updates; the app works without them
  );
}

function open(io: typeof import('socket.io-client').io, token: string): void {
  const s: AppSocket = io({
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: { token },
    reconnectionAttempts: 10,
    reconnectionDelayMax: 30_000,
  });
  s.on('connect_error', (err) => {
    // The socket server may be missing or restarting: the app works without live updates. A
    // refusal while the server's database restarts is not retried by socket.io itself: retry it.
    if (!s.active && err.message === 'DATABASE_UNAVAILABLE') {
      setTimeout(() => {
        if (socket === s) s.connect();
      }, 5_000);
    }
  });
  s.on('notification', ({ notification }) => {
    useUi.getState().pushNotification({
      id: notification._id,
      message: notification.message,
      image: firstImage(notification.payload),
      link: linkOf(notification.payload),
    });
  });
  s.on('connect', () => {
    if (openChatHandle) s.emit('openChat', openChatHandle);
    for (const postId of watchedPosts.keys()) joinPost(s, postId);
    for (const liveId of watchedLives) s.emit('watchLive', liveId);
  });
  s.onAny((event: string, payload: unknown) => {
    const listeners = featureListeners.get(event as ServerEventName);
    if (listeners) for (const listener of listeners) listener(payload);
  });
  s.on('counter', (counters) => useSession.getState().setCounters(counters));
  s.on('unreadMessages', ({ total }) => useSession.getState().setCounters({ messagesUnread: total }));
  socket = s;
}

/** Closes the realtime connection (spec §4: on logout). */
export function disconnectSocket(): void {
  generation += 1;
  if (!socket) return;
  socket.removeAllListeners();
  socket.disconnect();
  socket = null;
}
