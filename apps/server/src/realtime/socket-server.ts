import type { ClientToServerEvents, ServerEventName, ServerToClientEvents } from '@fanverse/contract';
import { SOCKET_PATH } from '@fanverse/contract';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { isDatabaseUnavailable } from '../db/errors.ts';
import type { AuthInfo } from '../http/guards.ts';
import { localOpenChats, redisOpenChats } from './open-chats.ts';
import type { RealtimePublisher } from './publisher.ts';
import { createResilientRedisAdapter } from './redis-adapter.ts';
import type { SessionEvents } from './session-events.ts';

/** One event for the sockets in some rooms (each socket once). */
type Outgoing = [rooms: string[], event: ServerEventName, args: unknown[]];

/** What one server copy asks or tells the others (over Redis). */
interface ServerSideEvents {
  /** Events for the copy's sockets in their rooms, in the order they were published. */
  deliver: (events: Outgoing[]) => void;
}

type Io = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  ServerSideEvents,
  { auth: AuthInfo; openChatWith?: string; ingest?: string }
>;

export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
export const postRoom = (postId: string) => `post:${postId}`;
export const liveRoom = (liveId: string) => `live:${liveId}`;

/** What the socket server asks the live module (issue 17). */
export interface LiveHooks {
  mayWatch(auth: AuthInfo, liveId: string): Promise<boolean>;
  mayIngest(auth: AuthInfo, liveId: string): Promise<boolean>;
  /** A chunk of the creator's camera stream; false when it could not be taken. */
  /** A chunk of the creator's camera stream from this socket (`feeder`, the socket's id). */
  push(liveId: string, chunk: Buffer, feeder: string): Promise<boolean>;
  /** The creator's ingest socket went away: its run of the live's media stops; the live goes on. */
  dropFeed(liveId: string, feeder: string): Promise<void>;
  /** Someone joined or left the live's room: count the viewers again (publisher.liveViewers). */
  viewersChanged(liveId: string): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  lives?: LiveHooks;
  /** Largest socket message (a live's camera chunk); Socket.IO's default is 1 MB. */
  maxMessageBytes?: number;
}): RealtimeServer {
  let closing = false;
  const report = (p: Promise<void> | undefined) => void p?.catch(() => undefined);
  const io: Io = new Server(opts.app.server, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: opts.maxMessageBytes ?? 4 * 1024 * 1024,
    // Memory per socket (issue 13, docs/benchmarks.md "Realtime"): no per-connection deflate
    // context (zlib windows are the largest per-socket cost when on) and no compression of the
    // polling transport, which is off anyway.
    perMessageDeflate: false,
    httpCompression: false,
  });
  // The HTTP upgrade request (headers, socket references) is kept by engine.io for the socket's
  // whole life; the handshake has already copied what we read (auth), so let it go.
  io.engine.on('connection', (raw: { request?: unknown }) => {
    raw.request = undefined;
  });
  const redis = opts.redisUrl ? createResilientRedisAdapter(opts.redisUrl, opts.app.log) : undefined;
  if (redis) io.adapter(redis.adapter);
  const chats = redis ? redisOpenChats(redis.commands) : localOpenChats();

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

  /** This copy's sockets in a room (no question to the other copies). */
  const localCount = (room: string) => io.of('/').adapter.rooms.get(room)?.size ?? 0;

  /**
   * Events go to this copy's sockets at once and to the other copies' in one Redis message per
   * turn of the event loop (`deliver`), however many were published in it: a direct message is
   * five events to two people, and every event published alone was a message for every copy to
   * decode (issue 13, docs/benchmarks.md "Realtime"). One channel keeps the copy's order.
   */
  let outgoing: Outgoing[] = [];
  const flush = () => {
    const events = outgoing;
    outgoing = [];
    io.serverSideEmit('deliver', events);
  };
  const emitLocally = ([rooms, event, args]: Outgoing) =>
    io.local.to(rooms).emit(event, ...(args as Parameters<ServerToClientEvents[typeof event]>));
  const publish = (rooms: string[], event: ServerEventName, args: unknown[]) => {
    const out: Outgoing = [rooms, event, args];
    emitLocally(out);
    if (redis && outgoing.push(out) === 1) setImmediate(flush);
  };
  io.on('deliver', (events) => {
    for (const out of events) emitLocally(out);
  });

  io.on('connection', (socket) => {
    const { auth } = socket.data;
    void socket.join([userRoom(auth.userId), sessionRoom(auth.sessionId)]);
    /** The chat this socket shows (every copy knows once this resolves), or none. */
    const showChat = async (withUserId: string | undefined) => {
      const before = socket.data.openChatWith;
      if (before === withUserId) return;
      socket.data.openChatWith = withUserId;
      if (before) await chats.close(auth.userId, before);
      if (withUserId) await chats.open(auth.userId, withUserId);
    };
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
      await showChat(id);
      if (typeof ack === 'function') ack(!!id);
    });
    socket.on('closeChat', () => void showChat(undefined));
    const countViewers = (liveId: string) => report(opts.lives?.viewersChanged(liveId));
    socket.on('watchLive', async (liveId, ack) => {
      const ok =
        typeof liveId === 'string' &&
        UUID.test(liveId) &&
        !!opts.lives &&
        (await opts.lives.mayWatch(auth, liveId).catch(() => false));
      if (ok) {
        await socket.join(liveRoom(liveId));
        countViewers(liveId);
      }
      if (typeof ack === 'function') ack(ok);
    });
    socket.on('unwatchLive', (liveId) => {
      if (typeof liveId !== 'string' || !socket.rooms.has(liveRoom(liveId))) return;
      void socket.leave(liveRoom(liveId));
      countViewers(liveId);
    });
    socket.on('liveChunk', async (liveId, chunk, ack) => {
      const reply = (ok: boolean) => typeof ack === 'function' && ack(ok);
      if (typeof liveId !== 'string' || !UUID.test(liveId) || !opts.lives || !Buffer.isBuffer(chunk))
        return reply(false);
      if (socket.data.ingest !== liveId) {
        if (!(await opts.lives.mayIngest(auth, liveId).catch(() => false))) return reply(false);
        socket.data.ingest = liveId;
      }
      reply(await opts.lives.push(liveId, chunk, socket.id).catch(() => false));
    });
    socket.on('disconnecting', () => {
      // The creator's camera socket: a reconnect (to this copy or another) resumes the live.
      const ingest = socket.data.ingest;
      if (ingest && opts.lives) report(opts.lives.dropFeed(ingest, socket.id));
      for (const room of socket.rooms) {
        if (room.startsWith('live:')) setTimeout(() => countViewers(room.slice(5)), 0);
      }
    });
    // Another socket of this user on this copy already made them online: no write per extra tab.
    if (localCount(userRoom(auth.userId)) <= 1) report(opts.presence?.online(auth.userId));
    socket.on('disconnect', () => {
      void showChat(undefined);
      if (closing || !opts.presence) return;
      // Still connected here (another tab): no need to ask every copy.
      if (localCount(userRoom(auth.userId)) > 0) return;
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
      publish([userRoom(userId)], event, args);
    },
    toPost(postId, alsoUsers, event, ...args) {
      publish([postRoom(postId), ...alsoUsers.map(userRoom)], event, args);
    },
    hasOpenChat: (userId, withUserId) => chats.isOpen(userId, withUserId),
    toLive(liveId, event, ...args) {
      publish([liveRoom(liveId)], event, args);
    },
    async liveViewers(liveId, except) {
      try {
        const sockets = await io.in(liveRoom(liveId)).fetchSockets();
        const people = new Set(sockets.map((s) => s.data.auth.userId));
        if (except) people.delete(except);
        return people.size;
      } catch {
        return 0;
      }
    },
    async leaveLive(liveId, userId) {
      io.in(userRoom(userId)).socketsLeave(liveRoom(liveId));
    },
    async close() {
      closing = true;
      stopListening();
      // Events published in this last turn still reach the other copies.
      if (outgoing.length) flush();
      await chats.stop();
      await io.close();
      await redis?.close();
    },
  };
}
