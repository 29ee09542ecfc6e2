import type { ClientToServerEvents, ServerToClientEvents } from '@fanverse/contract';
import { SOCKET_PATH } from '@fanverse/contract';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { isDatabaseUnavailable } from '../db/errors.ts';
import type { AuthInfo } from '../http/guards.ts';
import type { RealtimePublisher } from './publisher.ts';
import { createResilientRedisAdapter } from './redis-adapter.ts';
import type { SessionEvents } from './session-events.ts';

type Io = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  { auth: AuthInfo; openChatWith?: string }
>;

export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
export const postRoom = (postId: string) => `post:${postId}`;

export interface RealtimeServer extends RealtimePublisher {
  io: Io;
  /** Whether events reach the other server copies (Redis connected); true with a single copy. */
  linked(): boolean;
  close(): Promise<void>;
}

/**
 * Socket.IO at /api/v1/socket (websocket transport). The handshake carries the session token in
 * `auth.token`; a bad or revoked token is refused with a reason. Each socket joins its user's and
 * its session's rooms, so a logout disconnects exactly that session's sockets. With REDIS_URL the
 * Redis adapter fans events out across server copies.
 */
export function attachRealtime(opts: {
  app: FastifyInstance;
  authenticate: (token: string) => Promise<AuthInfo | null>;
  sessionEvents: SessionEvents;
  redisUrl?: string;
  /** Whether this caller may follow a post's comments live. */
  canWatchPost?: (auth: AuthInfo, postId: string) => Promise<boolean>;
  /** The user id behind a handle, for `openChat`. */
  resolveHandle?: (handle: string) => Promise<string | undefined>;
  /** A user's first socket connected / last socket (on every server) disconnected. */
  presence?: { online(userId: string): Promise<void>; offline(userId: string, since: Date): Promise<void> };
}): RealtimeServer {
  let closing = false;
  const report = (p: Promise<void> | undefined) => void p?.catch(() => undefined);
  const io: Io = new Server(opts.app.server, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    serveClient: false,
  });
  const redis = opts.redisUrl ? createResilientRedisAdapter(opts.redisUrl, opts.app.log) : undefined;
  if (redis) io.adapter(redis.adapter);

  io.use(async (socket, next) => {
    const token = typeof socket.handshake.auth?.token === 'string' ? socket.handshake.auth.token : '';
    if (!token) return next(new Error('UNAUTHENTICATED'));
    try {
      const auth = await opts.authenticate(token);
      if (!auth) return next(new Error('INVALID_TOKEN'));
      socket.data.auth = auth;
      next();
    } catch (err) {
      // The database being away is not a bad token: the client may try again shortly.
      next(new Error(isDatabaseUnavailable(err) ? 'DATABASE_UNAVAILABLE' : 'INVALID_TOKEN'));
    }
  });

  io.on('connection', (socket) => {
    const { auth } = socket.data;
    void socket.join([userRoom(auth.userId), sessionRoom(auth.sessionId)]);
    socket.on('watchPost', async (postId, ack) => {
      const ok =
        typeof postId === 'string' &&
        !!opts.canWatchPost &&
        (await opts.canWatchPost(auth, postId).catch(() => false));
      if (ok) await socket.join(postRoom(postId));
      if (typeof ack === 'function') ack(ok);
    });
    socket.on('unwatchPost', (postId) => {
      if (typeof postId === 'string') void socket.leave(postRoom(postId));
    });
    socket.on('openChat', async (handle, ack) => {
      const id =
        typeof handle === 'string' && opts.resolveHandle
          ? await opts.resolveHandle(handle).catch(() => undefined)
          : undefined;
      socket.data.openChatWith = id;
      if (typeof ack === 'function') ack(!!id);
    });
    socket.on('closeChat', () => {
      socket.data.openChatWith = undefined;
    });
    report(opts.presence?.online(auth.userId));
    socket.on('disconnect', () => {
      if (closing || !opts.presence) return;
      const presence = opts.presence;
      const since = new Date();
      report(
        io
          .in(userRoom(auth.userId))
          .fetchSockets()
          .then((left) => (left.length || closing ? undefined : presence.offline(auth.userId, since))),
      );
    });
  });

  const stopListening = opts.sessionEvents.onRevoked((ids) => {
    for (const id of ids) io.in(sessionRoom(id)).disconnectSockets(true);
  });

  return {
    io,
    linked: () => redis?.connected() ?? true,
    toUser(userId, event, ...args) {
      io.to(userRoom(userId)).emit(event, ...args);
    },
    toPost(postId, alsoUsers, event, ...args) {
      io.to([postRoom(postId), ...alsoUsers.map(userRoom)]).emit(event, ...args);
    },
    async hasOpenChat(userId, withUserId) {
      // Asks every server copy (Redis adapter); when one doesn't answer in time, treat the chat as
      // closed: a spare notification is better than a failed send.
      try {
        const sockets = await io.in(userRoom(userId)).fetchSockets();
        return sockets.some((s) => s.data.openChatWith === withUserId);
      } catch {
        return false;
      }
    },
    async close() {
      closing = true;
      stopListening();
      await io.close();
      await redis?.close();
    },
  };
}
