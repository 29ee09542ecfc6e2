import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import etag from '@fastify/etag';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createAuthenticator } from './http/auth.ts';
import { DATABASE_RETRY_AFTER_SECONDS, frameworkErrors, registerErrorHandler } from './http/error-handler.ts';
import { createMetrics, type Metrics } from './http/metrics.ts';
import { deleteTempFiles, readMultipart, registerMultipart } from './http/multipart.ts';
import { defineRoute } from './http/route.ts';
import type { RouteDeps } from './http/route-deps.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './lib/rate-limiter.ts';
import { resolveAppSecret } from './lib/secret.ts';
import { LoggingMailer, type Mailer, OutboxMailer, SmtpMailer } from './mail/mailer.ts';
import { createMediaModule } from './media/media.module.ts';
import { createPrivateStorage } from './media/storage.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { registerApplicationJobs } from './modules/applications/application.jobs.ts';
import { applicationRoutes } from './modules/applications/application.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { blockRoutes } from './modules/blocks/block.routes.ts';
import { commentRoutes } from './modules/comments/comment.routes.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { creatorRoutes } from './modules/creators/creator.routes.ts';
import { devRoutes } from './modules/dev/dev.routes.ts';
import { earningsRoutes } from './modules/earnings/earnings.routes.ts';
import { galleryRoutes } from './modules/gallery/gallery.routes.ts';
import { homeRoutes } from './modules/home/home.routes.ts';
import { registerMessageJobs } from './modules/messages/message.jobs.ts';
import { messageRoutes } from './modules/messages/message.routes.ts';
import { notificationRoutes } from './modules/notifications/notification.routes.ts';
import { registerPostJobs } from './modules/posts/post.jobs.ts';
import { postRoutes } from './modules/posts/post.routes.ts';
import { reportRoutes } from './modules/reports/report.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { statisticsRoutes } from './modules/statistics/statistics.routes.ts';
import { subscriptionRoutes } from './modules/subscriptions/subscription.routes.ts';
import { registerUserJobs } from './modules/users/user.jobs.ts';
import { userRoutes } from './modules/users/user.routes.ts';
import { walletRoutes } from './modules/wallet/wallet.routes.ts';
import { registerMoneyJobs } from './payments/money.jobs.ts';
import { DeferredPublisher } from './realtime/publisher.ts';
import { SessionEvents } from './realtime/session-events.ts';
import { attachRealtime, type RealtimeServer } from './realtime/socket-server.ts';
import { buildServices, type Services } from './services.ts';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Defaults: Redis when REDIS_URL is set, otherwise in memory. */
  limiter?: RateLimiter;
  mailer?: Mailer;
  now?: () => Date;
  logger?: boolean;
}

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
  sessionEvents: SessionEvents;
  realtime: RealtimeServer;
  /** The job backbone (one pg-boss over the app's database); `drain()` runs what is due. */
  jobs: JobQueue;
  /** Prometheus metrics; main.ts serves them on a listener of their own. */
  metrics: Metrics;
  close(): Promise<void>;
}

/** Modules that register routes; each owns its domain folder. */
const MODULES: ((deps: RouteDeps) => void)[] = [
  homeRoutes,
  authRoutes,
  userRoutes,
  contactRoutes,
  devRoutes,
  postRoutes,
  commentRoutes,
  creatorRoutes,
  reportRoutes,
  galleryRoutes,
  messageRoutes,
  notificationRoutes,
  blockRoutes,
  applicationRoutes,
  adminRoutes,
  statisticsRoutes,
  settingsRoutes,
  walletRoutes,
  billingRoutes,
  subscriptionRoutes,
  earningsRoutes,
];

/** Builds the whole app without listening (tests and main.ts both use this). */
export async function buildApp(options: AppOptions): Promise<BuiltApp> {
  const { config, database } = options;
  const app = Fastify({
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    trustProxy: config.trustProxy,
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Asynchronous writes: a synchronous write per log line cost about a quarter of a busy
            // server's CPU (issue 13). Lines written while one write is in flight go out together;
            // none waits for a buffer to fill, and pino flushes on exit.
            stream: pino.destination({ sync: false }),
            redact: ['req.headers.authorization', 'req.headers.a1sledom', 'req.headers.cookie'],
            serializers: {
              // Paths only: query strings can carry reset codes and search words.
              req: (req) => ({ method: req.method, url: req.url.split('?')[0] }),
            },
          },
  });

  database.onConnectionError((err) =>
    app.log.warn({ err: { message: err.message } }, 'database connection lost'),
  );
  const limiter =
    options.limiter ??
    (config.redisUrl
      ? RedisRateLimiter.connect(config.redisUrl, { logger: app.log })
      : new MemoryRateLimiter());
  const outbox = config.devOutbox ? new OutboxMailer(database.db) : undefined;
  const mailer =
    options.mailer ??
    (config.smtpUrl && !outbox
      ? new LoggingMailer(new SmtpMailer(config.smtpUrl, config.mailFrom), app.log)
      : outbox);
  if (!mailer) throw new Error('No mail transport: set SMTP_URL or enable DEV_OUTBOX');
  const sessionEvents = new SessionEvents();
  const publisher = new DeferredPublisher();
  const appSecret = await resolveAppSecret(config, database);
  const jobs = new JobQueue(database, {
    work: config.jobs.workers,
    cron: config.jobs.cron,
    expireCapSeconds: config.jobs.expireCapSeconds,
    logger: app.log,
  });
  const media = createMediaModule({ database, config, appSecret, jobs, now: options.now, logger: app.log });
  const services = buildServices({
    config,
    appSecret,
    database,
    mailer,
    outbox,
    limiter,
    sessionEvents,
    publisher,
    jobs,
    media: media.service,
    privateStorage: createPrivateStorage(config),
    logger: app.log,
    now: options.now,
  });

  // JSON answers and static files compressed when the client accepts it (br or gzip; small answers
  // as they are); built assets that have a precompressed twin (.br/.gz from the web build) are sent
  // as is by the static plugin.
  // ETag on answers (before compression, so it hashes the JSON): a client that already holds the
  // answer, such as a visitor reloading the shared feed or the start-up call, gets a 304.
  await app.register(etag, { weak: true });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(config.mediaCdnUrl ? [config.mediaCdnUrl] : [])],
        mediaSrc: ["'self'", 'blob:', ...(config.mediaCdnUrl ? [config.mediaCdnUrl] : [])],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        workerSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  registerErrorHandler(app);
  const metrics = createMetrics(app, {
    database,
    sockets: () => realtime.io.of('/').sockets.size,
    linked: () => realtime.linked(),
  });
  await registerMultipart(app, config);
  media.registerRoutes(app);

  const authenticate = createAuthenticator(services.auth);
  const uploadLimits = {
    maxImageBytes: config.media.maxImageBytes,
    maxVideoBytes: config.media.maxVideoBytes,
  };
  const deps: RouteDeps = {
    app,
    config,
    services,
    authenticate,
    route: (name, handler, opts) =>
      defineRoute(
        app,
        {
          authenticate,
          output: config.env === 'production' ? 'serialize' : 'validate',
          readMultipart: async (req) => {
            const body = await readMultipart(req, uploadLimits);
            return { ...body, cleanup: () => deleteTempFiles(body.files) };
          },
        },
        name,
        handler,
        opts,
      ),
  };
  for (const register of MODULES) register(deps);

  app.get('/healthz', async () => ({ status: 'ok' }));
  // Not ready while the database is away: a load balancer sends requests to other copies meanwhile.
  app.get('/readyz', async (_req, reply) => {
    try {
      await database.ping();
      return { status: 'ready', database: database.kind };
    } catch {
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable', database: database.kind });
    }
  });

  await registerWeb(app, config);

  const realtime = attachRealtime({
    app,
    authenticate: (token) => services.auth.authenticate(token),
    sessionEvents,
    redisUrl: config.redisUrl,
    canWatchPost: async (auth, postId) => {
      if (!/^[0-9a-f-]{36}$/i.test(postId)) return false;
      await services.posts.visible(auth, postId);
      return true;
    },
    resolveHandle: async (handle) => (await services.creators.findCreatorByHandle(handle))?.id,
    presence: {
      online: (userId) => services.presence.connected(userId),
      offline: (userId, since) => services.presence.lastDisconnected(userId, since),
    },
  });
  publisher.attach(realtime);
  // Every module's background work on the one backbone, registered in its own *.jobs.ts.
  registerPostJobs({ jobs, watchMedia: media.watch, posts: services.posts });
  registerMessageJobs({ jobs, watchMedia: media.watch, messages: services.messages });
  registerMoneyJobs(jobs, {
    expire: () => services.subscriptions.expireDue(),
    payouts: () => services.earnings.runPayouts(),
  });
  registerApplicationJobs(jobs, services.applications);
  registerUserJobs(jobs, services.accountDeletion);
  await jobs.start();

  return {
    app,
    services,
    sessionEvents,
    realtime,
    jobs,
    metrics,
    close: async () => {
      // This copy's live sockets go first (an open websocket would hold the HTTP server open);
      // their clients reconnect to another copy. Then, together: the HTTP server stops accepting
      // (new requests on kept-alive connections get 503) and finishes the requests in flight, and
      // the workers take no new job and finish the running ones (bounded wait).
      realtime.io.local.disconnectSockets(true);
      await Promise.all([app.close(), jobs.stop()]);
      // Events published by late work go nowhere instead of to a closed Redis.
      publisher.detach();
      await realtime.close();
      if (!options.limiter) await limiter.close();
    },
  };
}

/** Serves the built web app, with index.html for every client-side route. */
async function registerWeb(app: FastifyInstance, config: Config): Promise<void> {
  const index = path.join(config.webDistDir, 'index.html');
  const hasWeb = fs.existsSync(index);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    const url = req.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/') || url === '/healthz' || url === '/readyz') return;
    const file = path.join(config.webDistDir, path.normalize(url));
    if (
      hasWeb &&
      file.startsWith(config.webDistDir) &&
      url !== '/' &&
      fs.existsSync(file) &&
      fs.statSync(file).isFile()
    ) {
      return reply.sendFile(path.relative(config.webDistDir, file));
    }
    if (/\.[a-z0-9]{2,5}$/i.test(url) && url.startsWith('/assets/')) return; // missing asset: 404 JSON
    if (!hasWeb) {
      return reply
        .type('text/html')
        .send(
          '<!doctype html><title>Fanverse</title><p>The web app is not built. Run <code>npm run build</code>.</p>',
        );
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
