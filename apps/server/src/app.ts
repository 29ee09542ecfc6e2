import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createAuthenticator } from './http/auth.ts';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  frameworkErrors,
  registerErrorHandler,
  sendNotFound,
} from './http/error-handler.ts';
import { registerEtags } from './http/etag.ts';
import { createWebFirstView, registerFirstViewCookies } from './http/first-view.ts';
import { acceptedEncoding, compressHtml, type HtmlPage } from './http/html.ts';
import { createMetrics, type Metrics } from './http/metrics.ts';
import { deleteTempFiles, readMultipart, registerMultipart } from './http/multipart.ts';
import { OneLinePerRequest, pathOf, requestSerializer } from './http/request-log.ts';
import { COMPRESS_FROM_BYTES, defineRoute, outputModeOf } from './http/route.ts';
import type { RouteDeps } from './http/route-deps.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { batchedLogStream } from './lib/log-stream.ts';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './lib/rate-limiter.ts';
import { resolveAppSecret } from './lib/secret.ts';
import { LoggingMailer, type Mailer, OutboxMailer, SmtpMailer } from './mail/mailer.ts';
import { resolveFfmpeg } from './media/ffmpeg.ts';
import { LIVE_RENDITION, LiveMedia } from './media/live/live-media.ts';
import { RtmpIngest } from './media/live/rtmp-ingest.ts';
import { createMediaModule } from './media/media.module.ts';
import { VideoPlayback } from './media/playback.ts';
import { createPrivateStorage } from './media/storage.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { registerApplicationJobs } from './modules/applications/application.jobs.ts';
import { applicationRoutes } from './modules/applications/application.routes.ts';
import { registerAuthJobs } from './modules/auth/auth.jobs.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { OIDC_CALLBACK_PATH } from './modules/auth/oidc.service.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { blockRoutes } from './modules/blocks/block.routes.ts';
import { commentRoutes } from './modules/comments/comment.routes.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { creatorRoutes } from './modules/creators/creator.routes.ts';
import { devRoutes } from './modules/dev/dev.routes.ts';
import { developerRoutes } from './modules/developer/developer.routes.ts';
import { earningsRoutes } from './modules/earnings/earnings.routes.ts';
import { galleryRoutes } from './modules/gallery/gallery.routes.ts';
import { homeRoutes } from './modules/home/home.routes.ts';
import { registerLiveJobs } from './modules/lives/live.jobs.ts';
import { liveRoutes } from './modules/lives/live.routes.ts';
import { registerMessageJobs } from './modules/messages/message.jobs.ts';
import { messageRoutes } from './modules/messages/message.routes.ts';
import { notificationRoutes } from './modules/notifications/notification.routes.ts';
import { registerPostJobs } from './modules/posts/post.jobs.ts';
import { postRoutes } from './modules/posts/post.routes.ts';
import { reportRoutes } from './modules/reports/report.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { injectShareMeta, nameIndexHtml } from './modules/share/share.ts';
import { statisticsRoutes } from './modules/statistics/statistics.routes.ts';
import { subscriptionRoutes } from './modules/subscriptions/subscription.routes.ts';
import { registerUserJobs } from './modules/users/user.jobs.ts';
import { userRoutes } from './modules/users/user.routes.ts';
import { vaultRoutes } from './modules/vault/vault.routes.ts';
import { walletRoutes } from './modules/wallet/wallet.routes.ts';
import { wikiRoutes } from './modules/wiki/wiki.routes.ts';
import { registerMoneyJobs } from './payments/money.jobs.ts';
import { DeferredPublisher } from './realtime/publisher.ts';
import { SessionEvents } from './realtime/session-events.ts';
import { attachRealtime, type RealtimeServer } from './realtime/socket-server.ts';
import { buildServices, type Services } from './services.ts';
import { registerLeakJobs } from './watermark/leak.jobs.ts';
import { leakRoutes } from './watermark/leak.routes.ts';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Defaults: Redis when REDIS_URL is set, otherwise in memory. */
  limiter?: RateLimiter;
  mailer?: Mailer;
  now?: () => Date;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them to check what is never logged). */
  logTo?: { write(line: string): void };
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
  leakRoutes,
  vaultRoutes,
  liveRoutes,
  wikiRoutes,
  developerRoutes,
];

/** Builds the whole app without listening (tests and main.ts both use this). */
export async function buildApp(options: AppOptions): Promise<BuiltApp> {
  const { config, database } = options;
  // Request logs are written asynchronously, in batches (lib/log-stream.ts, issue 13).
  const logStream = options.logger === false || options.logTo ? undefined : batchedLogStream();
  const requestLog = new OneLinePerRequest();
  const app = Fastify({
    bodyLimit: config.bodyLimitBytes,
    logController: requestLog,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    trustProxy: config.trustProxy,
    // Without a logger (`logger: false`, tests) a silent one: Fastify tells the log controller of
    // each answered request only when it has a logger, and the request duration metric is
    // observed there (http/request-log.ts).
    logger:
      options.logger === false
        ? { level: 'silent' }
        : {
            level: config.logLevel,
            stream: options.logTo ?? logStream,
            // Method and path only: never headers (tokens, cookies), nor query strings, which can
            // carry reset codes and search words. (So nothing of a request is left to redact.)
            serializers: { req: requestSerializer },
          },
  });

  if (logStream)
    app.addHook('onClose', async () => {
      await logStream.close();
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
  const liveMedia = new LiveMedia({
    root: config.live.dir,
    ffmpeg: () => resolveFfmpeg(config.media).ffmpeg,
    key: (liveId) => media.hlsKeys.key('live', liveId, LIVE_RENDITION, liveId),
    segmentSeconds: config.live.segmentSeconds,
    mark: media.watermarker.videoKey,
    log: (msg, data) => app.log.warn(data ?? {}, msg),
  });
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
    watermarker: media.watermarker,
    markBackfill: media.markBackfill,
    liveMedia,
    mediaStorage: media.storage,
    hls: media.hls,
    privateStorage: createPrivateStorage(config),
    logger: app.log,
    now: options.now,
  });

  // JSON answers and static files compressed when the client accepts it (br or gzip; small answers
  // as they are); built assets that have a precompressed twin (.br/.gz from the web build) are sent
  // as is by the static plugin.
  // ETags on GET answers (before compression, so they hash the JSON): a client that already holds
  // the answer, such as a visitor reloading the shared feed or the start-up call, gets a 304.
  registerEtags(app);
  await app.register(compress, { global: true, threshold: COMPRESS_FROM_BYTES, encodings: ['br', 'gzip'] });
  // Security headers (http/security-headers.ts): documents get this policy, other answers a short
  // strict set. The consented analytics tag (spec §7) may come from its own origin and report to it.
  const analyticsOrigin = config.analytics?.scriptUrl.startsWith('http')
    ? [new URL(config.analytics.scriptUrl).origin]
    : [];
  const documentPolicy = (coop: 'same-origin-allow-popups' | false) =>
    ({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...analyticsOrigin],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...(config.mediaCdnUrl ? [config.mediaCdnUrl] : [])],
          mediaSrc: ["'self'", 'blob:', ...(config.mediaCdnUrl ? [config.mediaCdnUrl] : [])],
          // hls.js fetches playlists, keys and (CDN) segments with XHR.
          connectSrc: [
            "'self'",
            'ws:',
            'wss:',
            ...(config.mediaCdnUrl ? [config.mediaCdnUrl] : []),
            ...analyticsOrigin,
          ],
          // hls.js runs its demuxer in a worker it makes from a blob: URL.
          workerSrc: ["'self'", 'blob:'],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // Social sign-in opens the provider in a popup that must keep its opener (ADR 0036).
      crossOriginOpenerPolicy: coop ? { policy: coop } : false,
    }) as const;
  // The page the provider sends the popup back to: no opener policy, so the popup (a provider
  // page before it) stays with the window that opened it and can post it the result.
  registerSecurityHeaders(app, documentPolicy('same-origin-allow-popups'), [
    { prefix: OIDC_CALLBACK_PATH, options: documentPolicy(false) },
  ]);
  registerErrorHandler(app, { notFound: await createWebPages(config, services) });
  const metrics = createMetrics(
    {
      database,
      sockets: () => realtime.io.of('/').sockets.size,
      linked: () => realtime.linked(),
    },
    requestLog,
  );
  // @fastify/multipart adds an async onRequest and an async onResponse hook to every route of the
  // instance it is registered on (about 0.8 µs of CPU per request on the start-up call, issue 13),
  // and only the endpoints that take files use it: they are registered in a scope of their own
  // (RouteEnv.uploads), where it is. Elsewhere a multipart body is refused (415,
  // UNSUPPORTED_MEDIA_TYPE). Registered after the app-wide hooks and error handler, which a scope
  // inherits when it is made.
  let uploads: FastifyInstance = app;
  await app.register(async (scope) => {
    await registerMultipart(scope, config);
    uploads = scope;
  });
  media.registerRoutes(app);

  // File streams and other non-contract routes take sessions only; contract routes also API tokens.
  const authenticate = createAuthenticator(services.auth);
  const authenticateRoute = createAuthenticator(services.auth, services.apiTokens);
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
          authenticate: authenticateRoute,
          uploads,
          output: outputModeOf(config.env),
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

  // Uploaded videos and live streams on the protected HLS delivery (ADR 0021).
  const playback = new VideoPlayback({
    media: media.service,
    hls: media.hls,
    signer: media.signer,
    // Through a post or story that holds the file, or through a message (ADR 0043).
    entitled: async (auth, row) =>
      (await services.posts.mediaAccess(auth, [row])).has(row.id) ||
      (await services.messages.mediaAccess(auth, row.id)),
    previewEntitled: (auth, row) => services.posts.mayPreview(auth, row),
    freeToEveryone: async (row) => (await services.posts.mediaAccess(null, [row])).has(row.id),
    marks: media.watermarker,
  });
  media.hls.addSource(playback.source());
  media.hls.addSource(services.livePlayback.source());
  media.hls.registerRoutes(app, {
    authenticate: (token) => services.auth.authenticate(token),
    byId: (sessionId) => services.auth.sessionById(sessionId),
  });
  deps.route('media.play', ({ auth, params }) => playback.play(auth, params.id));
  // Captions tracks of the caller's own videos (ADR 0037); served through the HLS delivery.
  deps.route('media.captions.put', async ({ auth, params, input }) => ({
    success: true as const,
    captions: (await media.service.setCaptions(auth.userId, params.id, input)).map((t) => t.language),
  }));
  deps.route('media.captions.delete', async ({ auth, params }) => ({
    success: true as const,
    captions: (await media.service.removeCaptions(auth.userId, params.id, params.language)).map(
      (t) => t.language,
    ),
  }));

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

  await registerWebFiles(app, config, services);

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
    resolveHandle: async (handle) => (await services.handles.find(handle))?.id,
    presence: {
      online: (userId) => services.presence.connected(userId),
      offline: (userId, since) => services.presence.lastDisconnected(userId, since),
    },
    lives: {
      mayWatch: (auth, liveId) => services.lives.mayWatch(auth, liveId),
      mayIngest: (auth, liveId) => services.lives.mayIngest(auth, liveId),
      push: (liveId, chunk, feeder) => liveMedia.push(liveId, chunk, feeder),
      dropFeed: (liveId, feeder) => liveMedia.drop(liveId, feeder),
      viewersChanged: (liveId) => services.lives.viewersChanged(liveId),
    },
  });
  publisher.attach(realtime);
  // Every module's background work on the one backbone, registered in its own *.jobs.ts.
  registerPostJobs({ jobs, watchMedia: media.watch, posts: services.posts });
  registerMessageJobs({ jobs, watchMedia: media.watch, messages: services.messages });
  registerMoneyJobs(jobs, {
    expire: () => services.subscriptions.expireDue(),
    payouts: () => services.earnings.runPayouts(),
    renewalNotices: () => services.subscriptions.queueRenewalNotices(),
    renewalNotice: (id, periodEnd) => services.subscriptions.sendRenewalNotice(id, periodEnd),
    receipt: (key) => services.billing.sendReceipt(key),
    welcome: (job) => services.offers.sendWelcome(job),
  });
  registerApplicationJobs(jobs, services.applications);
  registerUserJobs(jobs, services.accountDeletion);
  registerLiveJobs(jobs, services.lives, services.liveReferences);
  registerLeakJobs(jobs, services.leaks);
  // RTMP ingest for OBS when LIVE_RTMP_PORT is set: a publish with a creator's stream key feeds their live.
  const rtmp = config.live.rtmp
    ? new RtmpIngest({
        ...config.live.rtmp,
        dir: config.live.dir,
        liveForKey: (key) => services.lives.liveForStreamKey(key),
        started: (liveId, url) => liveMedia.pull(liveId, url),
        // The encoder went away: its run stops; a reconnect (to this copy or another) resumes the live.
        stopped: (liveId, url) => void liveMedia.drop(liveId, url),
        log: (msg, data) => app.log.warn(data ?? {}, msg),
      })
    : undefined;
  await rtmp?.start();
  registerAuthJobs(jobs, { confirmations: services.emailConfirmation, devices: services.devices });
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
      await Promise.all([app.close(), jobs.stop(), liveMedia.stopAll(), rtmp?.stop()]);
      await media.watermarker.close();
      // Events published by late work go nowhere instead of to a closed Redis.
      publisher.detach();
      await realtime.close();
      if (!options.limiter) await limiter.close();
    },
  };
}

/**
 * The built web app's files: each one a GET route of @fastify/static (found at start-up), with the
 * precompressed copies the build made; and the cookies that name the first view's viewer.
 */
async function registerWebFiles(app: FastifyInstance, config: Config, services: Services): Promise<void> {
  registerFirstViewCookies(app, services.auth, config.publicUrl);
  if (!fs.existsSync(path.join(config.webDistDir, 'index.html'))) return;
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

/**
 * What no route answers: for GET and HEAD outside the API, the web app's page (index.html for every
 * client-side route; the home page, creator pages and posts with their first view rendered in,
 * http/first-view.ts, ADR 0048); the JSON 404 otherwise. It is the not-found handler, so an API
 * call runs no hook for pages (ADR 0052).
 */
async function createWebPages(
  config: Config,
  services: Services,
): Promise<(req: FastifyRequest, reply: FastifyReply) => Promise<unknown>> {
  const share = services.share;
  const index = path.join(config.webDistDir, 'index.html');
  const hasWeb = fs.existsSync(index);
  const indexHtml = hasWeb ? nameIndexHtml(fs.readFileSync(index, 'utf8'), config.appName) : '';
  const indexPage = compressHtml(indexHtml, true);
  const firstView = hasWeb ? await createWebFirstView(config, services) : null;
  const sendPage = (req: FastifyRequest, reply: FastifyReply, page: HtmlPage, vary = 'accept-encoding') => {
    const encoding = acceptedEncoding(req.headers['accept-encoding']);
    reply.header('vary', vary).type('text/html; charset=utf-8');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(encoding ? page[encoding] : page.identity);
  };
  return async (req, reply) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.url.startsWith('/api/'))
      return sendNotFound(req, reply);
    const url = pathOf(req.url);
    // A file of the build that is not a route (added after start-up).
    const file = path.join(config.webDistDir, path.normalize(url));
    if (
      hasWeb &&
      file.startsWith(config.webDistDir) &&
      url !== '/' &&
      fs.statSync(file, { throwIfNoEntry: false })?.isFile()
    ) {
      return reply.sendFile(path.relative(config.webDistDir, file));
    }
    if (/\.[a-z0-9]{2,5}$/i.test(url) && url.startsWith('/assets/')) return sendNotFound(req, reply);
    if (!hasWeb) {
      return reply
        .type('text/html')
        .send(
          '<!doctype html><title>Fanverse</title><p>The web app is not built. Run <code>npm run build</code>.</p>',
        );
    }
    reply.header('cache-control', 'no-cache');
    // A shared creator or post link: the same page with its preview tags (modules/share).
    const meta = await share.metaFor(url).catch(() => null);
    const origin = config.publicUrl?.replace(/\/$/, '') ?? `${req.protocol}://${req.host}`;
    const html = meta ? injectShareMeta(indexHtml, meta, origin, url) : indexHtml;
    // The page's first view, made for the cookies' viewer and language: one person's page is private.
    const view = firstView ? await firstView.page(req, html) : null;
    if (view) {
      if (view.personal) reply.header('cache-control', 'private, no-cache');
      return sendPage(req, reply, view.page, 'accept-encoding, cookie');
    }
    return sendPage(req, reply, meta ? compressHtml(html, false) : indexPage);
  };
}
