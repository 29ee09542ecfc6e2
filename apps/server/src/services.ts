import { randomUUID } from 'node:crypto';
import { isAdministrator, isStaff } from './access/index.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { JobSender } from './jobs/job.ts';
import type { RateLimiter } from './lib/rate-limiter.ts';
import { SecretBox } from './lib/secret-box.ts';
import type { Mailer, OutboxMailer } from './mail/mailer.ts';
import { resolveFfmpeg } from './media/ffmpeg.ts';
import type { HlsDelivery } from './media/hls/index.ts';
import type { LiveMedia } from './media/live/live-media.ts';
import { NginxRtmpControl, NginxRtmpFiles } from './media/live/nginx-rtmp.ts';
import type { MarkBackfill } from './media/mark-backfill.ts';
import type { Storage } from './media/storage.ts';
import { MARK_REFERENCE } from './media/video.ts';
import { ActionLog } from './modules/admin/action-log.ts';
import { AdminRepository } from './modules/admin/admin.repository.ts';
import { AdminUserService } from './modules/admin/admin-user.service.ts';
import { ComplaintService } from './modules/admin/complaint.service.ts';
import { ApplicationRepository } from './modules/applications/application.repository.ts';
import { ApplicationService } from './modules/applications/application.service.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { DeviceService } from './modules/auth/device.service.ts';
import { EmailConfirmationRepository } from './modules/auth/email-confirmation.repository.ts';
import { EmailConfirmationService } from './modules/auth/email-confirmation.service.ts';
import { IdentityRepository } from './modules/auth/identity.repository.ts';
import { OidcService } from './modules/auth/oidc.service.ts';
import { PasskeyRepository } from './modules/auth/passkey.repository.ts';
import { PasskeyService } from './modules/auth/passkey.service.ts';
import { ResetCodeRepository } from './modules/auth/reset-code.repository.ts';
import { SessionRepository } from './modules/auth/session.repository.ts';
import { SessionCache } from './modules/auth/session-cache.ts';
import { TwoFactorRepository } from './modules/auth/two-factor.repository.ts';
import { TwoFactorService } from './modules/auth/two-factor.service.ts';
import { BlockRepository } from './modules/blocks/block.repository.ts';
import { BlockService } from './modules/blocks/block.service.ts';
import { CommentRepository } from './modules/comments/comment.repository.ts';
import { CommentService } from './modules/comments/comment.service.ts';
import { ContactRepository } from './modules/contact/contact.repository.ts';
import { ContactService } from './modules/contact/contact.service.ts';
import { CreatorRepository } from './modules/creators/creator.repository.ts';
import { CreatorService } from './modules/creators/creator.service.ts';
import { ApiTokenRepository } from './modules/developer/api-token.repository.ts';
import { ApiTokenService } from './modules/developer/api-token.service.ts';
import { GalleryRepository } from './modules/gallery/gallery.repository.ts';
import { GalleryService } from './modules/gallery/gallery.service.ts';
import { HomeService } from './modules/home/home.service.ts';
import { LiveRepository } from './modules/lives/live.repository.ts';
import { LiveService } from './modules/lives/live.service.ts';
import { LivePlayback } from './modules/lives/live-playback.ts';
import { LiveReferences } from './modules/lives/live-reference.ts';
import { MessageRepository } from './modules/messages/message.repository.ts';
import { MessageService } from './modules/messages/message.service.ts';
import { CounterPublisher } from './modules/notifications/counter.publisher.ts';
import { NotificationRepository } from './modules/notifications/notification.repository.ts';
import { NotificationService } from './modules/notifications/notification.service.ts';
import type { MediaPort } from './modules/posts/media.port.ts';
import { PostRepository } from './modules/posts/post.repository.ts';
import { PostService } from './modules/posts/post.service.ts';
import { PresenceRepository } from './modules/presence/presence.repository.ts';
import { PresenceService } from './modules/presence/presence.service.ts';
import { ReportRepository } from './modules/reports/report.repository.ts';
import { ReportService } from './modules/reports/report.service.ts';
import { SettingsService } from './modules/settings/settings.service.ts';
import { ShareService } from './modules/share/share.ts';
import { StatisticsRepository } from './modules/statistics/statistics.repository.ts';
import { StatisticsService } from './modules/statistics/statistics.service.ts';
import { AccountDeletionRepository } from './modules/users/account-deletion.repository.ts';
import { AccountDeletionService, type DeletionLogger } from './modules/users/account-deletion.service.ts';
import { CountersService } from './modules/users/counters.service.ts';
import { Handles } from './modules/users/handles.ts';
import { UserRepository } from './modules/users/user.repository.ts';
import { UserService } from './modules/users/user.service.ts';
import { VaultRepository } from './modules/vault/vault.repository.ts';
import { VaultService } from './modules/vault/vault.service.ts';
import { createMoneyStore } from './modules/wallet/money.unit.ts';
import { MoneyTerms } from './modules/wallet/terms.service.ts';
import { WikiRepository } from './modules/wiki/wiki.repository.ts';
import { WikiService } from './modules/wiki/wiki.service.ts';
import { buildMoneyServices } from './payments/money.services.ts';
import type { RealtimePublisher } from './realtime/publisher.ts';
import type { SessionEvents } from './realtime/session-events.ts';
import { LeakRepository } from './watermark/leak.repository.ts';
import { LeakService } from './watermark/leak.service.ts';
import { LeakTracer } from './watermark/leak-tracer.ts';
import { liveMarkGrid } from './watermark/live-mark.ts';
import type { Watermarker } from './watermark/watermarker.ts';

export interface ServiceDeps {
  config: Config;
  /** Signing key shared by every server copy (lib/secret.ts). */
  appSecret: string;
  database: Database;
  mailer: Mailer;
  outbox: OutboxMailer | undefined;
  limiter: RateLimiter;
  sessionEvents: SessionEvents;
  publisher: RealtimePublisher;
  /** The job backbone: services queue background work on it, never hold a promise of their own. */
  jobs: JobSender;
  media: MediaPort;
  /** Per-fan marked copies and their serve records (ADR 0026). */
  watermarker: Watermarker;
  /** Re-encodes private videos from before the mark with it (ADR 0041). */
  markBackfill: MarkBackfill;
  /** The live streams' media path (ffmpeg to HLS). */
  liveMedia: LiveMedia;
  /** The media storage (local or S3): ended lives' mark references are kept there (ADR 0045). */
  mediaStorage: Storage;
  /** The protected HLS delivery (media/hls) live streams are served through. */
  hls: Pick<HlsDelivery, 'playlistUrl'>;
  /** Identity photos and leaked copies waiting to be traced: never public, never signed URLs. */
  privateStorage: Storage;
  /** The app's logger (pino); services log counts and ids of their own records, never personal data. */
  logger?: DeletionLogger & { error(obj: unknown, msg?: string): void };
  now?: () => Date;
}

/** The composition root of the domain: repositories and services, wired once. */
export function buildServices(deps: ServiceDeps) {
  const { db } = deps.database;
  const users = new UserRepository(db);
  const sessions = new SessionRepository(db, new SessionCache(deps.database));
  const counters = new CountersService();
  counters.register(['notificationsUnread'], async (auth) => ({
    notificationsUnread: await users.unreadNotifications(auth.userId),
  }));
  const onSessionsRevoked = (ids: string[]) => deps.sessionEvents.revoked(ids);
  const adminRepo = new AdminRepository(db);
  const actionLog = new ActionLog(adminRepo);
  const moneyStore = createMoneyStore(db);
  const moneyTerms = new MoneyTerms(moneyStore, deps.config.money);
  const settings = new SettingsService({
    repo: moneyStore.settings,
    defaults: deps.config.money,
    log: actionLog,
    terms: moneyTerms,
    server: {
      paymentProvider: deps.config.paymentProvider,
      devOutbox: deps.config.devOutbox,
      sandboxControls: deps.config.money.sandboxControls,
    },
  });
  const postRepo = new PostRepository(db);
  const reportRepo = new ReportRepository(db);
  const leakRepo = new LeakRepository(db);
  counters.register(['postsByReview', 'storiesByReview', 'complaintsByVerify'], async (auth) => {
    if (!isStaff(auth)) return {};
    const [postsByReview, storiesByReview, complaintsByVerify] = await Promise.all([
      postRepo.countByReview('post'),
      postRepo.countByReview('story'),
      reportRepo.pendingCount(),
    ]);
    return { postsByReview, storiesByReview, complaintsByVerify };
  });
  const messageRepo = new MessageRepository(db);
  counters.register(['messagesUnread'], async (auth) => ({
    messagesUnread: await messageRepo.unreadTotal(auth.userId),
  }));
  const counterPublisher = new CounterPublisher(counters, (id) => users.identity(id), deps.publisher);
  const notifications = new NotificationService(
    new NotificationRepository(db),
    deps.publisher,
    counterPublisher,
    deps.now,
  );
  const creators = new CreatorService(new CreatorRepository(db), deps.database, deps.now);
  const findByHandle = (handle: string) => creators.findCreatorByHandle(handle);
  const handles = new Handles(users, deps.database);
  const blocks = new BlockService(new BlockRepository(db), findByHandle);
  const posts = new PostService({
    posts: postRepo,
    media: deps.media,
    creators,
    notifications,
    publisher: deps.publisher,
    jobs: deps.jobs,
    now: deps.now,
  });
  const messages = new MessageService({
    messages: messageRepo,
    media: deps.media,
    blocks,
    notifications,
    counters: counterPublisher,
    publisher: deps.publisher,
    jobs: deps.jobs,
    limiter: deps.limiter,
    messagesPerMinute: deps.config.rateLimits.messagePerAccount,
    findByHandle,
    personByHandle: (handle) => handles.find(handle),
    findById: (id) => users.findById(id),
    features: settings,
    now: deps.now,
  });
  const adminUsers = new AdminUserService(adminRepo, sessions, actionLog, onSessionsRevoked, deps.now);
  const applicationRepo = new ApplicationRepository(db);
  counters.register(['documentsByVerify', 'profilesByVerify', 'creatorsByVerify'], async (auth) => {
    if (!isAdministrator(auth)) return {};
    const pending = await applicationRepo.pendingCounts();
    // Each badge equals its queue: one pending application carries a profile and its documents.
    return {
      documentsByVerify: pending.applications,
      profilesByVerify: pending.applications,
      creatorsByVerify: pending.applications,
    };
  });
  const applications = new ApplicationService({
    applications: applicationRepo,
    users,
    storage: deps.privateStorage,
    notifications,
    log: actionLog,
    inbox: async (from, to, text) => {
      await messages.send(from, { to, message: text, messageUUID: randomUUID(), price: 0 }, []);
    },
    limits: {
      maxImageBytes: deps.config.media.maxImageBytes,
      maxVideoBytes: deps.config.media.maxVideoBytes,
    },
    retentionDays: deps.config.identityRetentionDays,
    features: settings,
    now: deps.now,
  });
  const money = buildMoneyServices({
    store: moneyStore,
    terms: moneyTerms,
    config: deps.config,
    appSecret: deps.appSecret,
    features: settings,
    findCreator: (handle) => creators.findCreatorByHandle(handle),
    sendMessage: async (from, to, input) => {
      await messages.send(from, { to, ...input }, []);
    },
    media: deps.media,
    visiblePost: (auth, postId) => posts.visible(auth, postId),
    notifications,
    jobs: deps.jobs,
    mailer: deps.mailer,
    now: deps.now,
  });
  const liveRepo = new LiveRepository(db);
  const liveEngine = deps.config.live.engine ? new NginxRtmpFiles(deps.config.live.engine) : undefined;
  const liveReferences = new LiveReferences({
    media: deps.liveMedia,
    storage: deps.mediaStorage,
    lives: liveRepo,
  });
  const lives = new LiveService({
    lives: liveRepo,
    media: deps.liveMedia,
    hls: deps.hls,
    wallet: money.wallet,
    publisher: deps.publisher,
    notifications,
    jobs: deps.jobs,
    findByHandle: async (handle) => {
      const row = await users.findByLogin(handle);
      return row && !row.deletedAt && row.username.toLowerCase() === handle.toLowerCase() ? row : undefined;
    },
    createReplayPost: async (auth, text, file) => {
      const post = await posts.create(
        auth,
        {
          message: text,
          kind: 'post',
          visibility: 'subscribers',
          price: 0,
          discountStatus: 'off',
          discountPercent: 0,
          discountDateLimit: null,
        },
        [file],
      );
      return post._id;
    },
    rtmpUrl: deps.config.live.rtmpUrl,
    markGrid: liveMarkGrid(deps.config.live.segmentSeconds),
    engine: liveEngine,
    engineControl: deps.config.live.engine?.controlUrl
      ? new NginxRtmpControl(deps.config.live.engine.controlUrl)
      : undefined,
    references: liveReferences,
    now: deps.now,
  });
  const livePlayback = new LivePlayback({
    lives: liveRepo,
    media: deps.liveMedia,
    engine: liveEngine,
    mayWatch: (auth, liveId) => lives.mayWatch(auth, liveId),
    marks: deps.watermarker,
  });
  const emailConfirmation = new EmailConfirmationService({
    confirmations: new EmailConfirmationRepository(db),
    users,
    mailer: deps.mailer,
    jobs: deps.jobs,
    limiter: deps.limiter,
    grantFreeCredits: (userId) => money.wallet.grantFreeCredits(userId),
    config: deps.config,
    now: deps.now,
  });
  const twoFactor = new TwoFactorService({
    repo: new TwoFactorRepository(db),
    users,
    limiter: deps.limiter,
    box: new SecretBox(deps.appSecret, 'totp'),
    config: deps.config,
    now: deps.now,
  });
  const passkeys = new PasskeyService({
    repo: new PasskeyRepository(db),
    users,
    config: deps.config,
    now: deps.now,
  });
  const devices = new DeviceService({
    sessions,
    users,
    mailer: deps.mailer,
    jobs: deps.jobs,
    config: deps.config,
    onSessionsRevoked,
    now: deps.now,
  });
  const auth = new AuthService({
    users,
    sessions,
    resetCodes: new ResetCodeRepository(db),
    mailer: deps.mailer,
    limiter: deps.limiter,
    config: deps.config,
    features: settings,
    staffRule: settings,
    now: deps.now,
    onSessionsRevoked,
    onSignup: (userId) => emailConfirmation.queueMail(userId),
    onVerifiedSignup: async (userId) => {
      await money.wallet.grantFreeCredits(userId);
    },
    onSignedIn: (userId, sessionId) => devices.noticeSignIn(userId, sessionId),
    twoFactor,
  });
  return {
    lives,
    livePlayback,
    liveReferences,
    liveMedia: deps.liveMedia,
    statistics: new StatisticsService(new StatisticsRepository(db, deps.config.timezone), deps.now),
    applications,
    adminUsers,
    complaints: new ComplaintService(adminRepo, posts, creators, adminUsers, notifications, actionLog),
    media: deps.media,
    notifications,
    creators,
    posts,
    share: new ShareService({ db, appName: deps.config.appName }),
    comments: new CommentService(new CommentRepository(db), posts, notifications, deps.publisher, blocks, {
      limiter: deps.limiter,
      perMinute: deps.config.rateLimits.commentPerAccount,
    }),
    blocks,
    messages,
    presence: new PresenceService(new PresenceRepository(db), deps.now),
    reports: new ReportService(reportRepo, posts, creators, deps.limiter),
    leaks: new LeakService({
      traces: leakRepo,
      tracer: new LeakTracer(leakRepo, deps.watermarker, {
        ffmpeg: () => resolveFfmpeg(deps.config.media),
        reference: async (mediaId) => {
          const file = await deps.media.videoFile(mediaId, MARK_REFERENCE);
          if (!file) return null;
          const chunks: Buffer[] = [];
          for await (const c of await file.open()) chunks.push(Buffer.from(c));
          return Buffer.concat(chunks);
        },
        liveReference: (liveId) => liveReferences.read(liveId),
      }),
      reports: reportRepo,
      storage: deps.privateStorage,
      jobs: deps.jobs,
      publisher: deps.publisher,
      logger: deps.logger,
    }),
    vault: new VaultService(new VaultRepository(db), deps.media),
    gallery: new GalleryService(new GalleryRepository(db), creators, posts, deps.media),
    users,
    handles,
    counters,
    auth,
    oidc: new OidcService({
      repo: new IdentityRepository(db),
      users,
      auth,
      config: deps.config,
      now: deps.now,
    }),
    user: new UserService({
      users,
      counters,
      media: deps.media,
      watermarks: deps.watermarker,
      cdnUrl: deps.config.mediaCdnUrl,
      now: deps.now,
    }),
    accountDeletion: new AccountDeletionService({
      users,
      erasure: new AccountDeletionRepository(db),
      sessions,
      media: deps.media,
      privateStorage: deps.privateStorage,
      lives,
      jobs: deps.jobs,
      pushCounters: (userId) => counterPublisher.push(userId),
      onSessionsRevoked,
      logger: deps.logger,
      now: deps.now,
    }),
    home: new HomeService({ users, config: deps.config, settings }),
    wiki: new WikiService(new WikiRepository(db), actionLog),
    apiTokens: new ApiTokenService({
      tokens: new ApiTokenRepository(db),
      limiter: deps.limiter,
      perMinute: deps.config.rateLimits.apiTokenPerMinute,
      now: deps.now,
    }),
    settings,
    markBackfill: deps.markBackfill,
    contact: new ContactService(new ContactRepository(db), deps.limiter, reportRepo),
    outbox: deps.outbox,
    emailConfirmation,
    devices,
    twoFactor,
    passkeys,
    ...money,
  };
}

export type Services = ReturnType<typeof buildServices>;
