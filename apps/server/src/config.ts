import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(`${p}:`)), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    })
    .refine(
      (v) => {
        if (v === undefined) return true;
        try {
          new URL(v);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'is not a valid URL' },
    );

const positiveInt = (def: number) => z.coerce.number().int().positive().default(def);

const timezone = z
  .string()
  .default('America/Bogota')
  .refine(
    (tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'is not a known IANA time zone (e.g. America/Bogota)' },
  );

/** Every setting of the server, with its default. Documented in the README's configuration table. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  MEDIA_DIR: z.string().optional(),
  MEDIA_CDN_URL: optionalUrl(['http', 'https']),
  APP_NAME: z.string().trim().min(1).max(40).default('Fanverse'),
  APP_KEY: z
    .string()
    .trim()
    .regex(/^[a-z0-9]{2,20}$/, { message: 'must be 2-20 lowercase letters or digits' })
    .optional(),
  PUBLIC_URL: optionalUrl(['http', 'https']),
  PAYMENT_PROVIDER: z.enum(['sandbox', 'segpay']).default('sandbox'),
  SMTP_URL: optionalUrl(['smtp', 'smtps']),
  MAIL_FROM: z.string().default('Fanverse <no-reply@fanverse.local>'),
  TIMEZONE: timezone,
  SEED_DEMO: bool.optional(),
  /**
   * The analytics tag (spec §7), off by default: the script of a self-hosted Plausible or Matomo
   * (an https URL, or a path on this site) and the site id it counts under. The web app loads it
   * only after the visitor agrees in the cookie banner.
   */
  ANALYTICS_SCRIPT_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^(https?:\/\/[^\s]+|\/[^\s/][^\s]*)$/.test(v), {
      message: 'must be an http(s) URL or a path starting with /',
    }),
  ANALYTICS_SITE_ID: z.string().trim().max(200).optional(),
  SEED_PASSWORD: z.string().min(8, { message: 'must be at least 8 characters' }).default('fanverse-demo'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_KB: positiveInt(1024),
  TRUST_PROXY: bool.optional(),
  /** Graceful shutdown: the longest wait for requests, jobs and connections to finish. */
  SHUTDOWN_TIMEOUT_SECONDS: positiveInt(25),
  /** Prometheus metrics on a listener of their own; 0 turns it off. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  METRICS_HOST: z.string().default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  /** Rate limits: attempts per window. Per address limits are looser than per account ones. */
  RATE_WINDOW_SECONDS: positiveInt(900),
  RATE_LOGIN_PER_IP: positiveInt(100),
  RATE_LOGIN_PER_ACCOUNT: positiveInt(10),
  RATE_SIGNUP_PER_IP: positiveInt(20),
  RATE_RESET_PER_IP: positiveInt(30),
  RATE_RESET_PER_ACCOUNT: positiveInt(5),
  RATE_CONFIRM_MAIL_PER_ACCOUNT: positiveInt(5),
  CONFIRM_EMAIL_TTL_HOURS: positiveInt(48),
  /** Per account and minute: comments, and direct messages. */
  RATE_COMMENT_PER_ACCOUNT: positiveInt(10),
  RATE_MESSAGE_PER_ACCOUNT: positiveInt(60),
  /** Calls per personal API token and minute (on top of each endpoint's own limits). */
  RATE_API_TOKEN_PER_MINUTE: positiveInt(120),
  RESET_CODE_TTL_MINUTES: positiveInt(15),
  RESET_CODE_MAX_ATTEMPTS: positiveInt(10),
  SESSION_TTL_DAYS: positiveInt(30),
  DEV_OUTBOX: bool.optional(),
  /** Secret for signed media URLs and payment links; absent: one is generated and kept in the database. */
  APP_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  MEDIA_MAX_IMAGE_MB: positiveInt(20),
  MEDIA_MAX_VIDEO_MB: positiveInt(1024),
  MEDIA_URL_TTL_SECONDS: positiveInt(3600),
  /** Life of signed, session-bound HLS playlist and key URLs (the player asks again after). */
  HLS_URL_TTL_SECONDS: positiveInt(600),
  /** x264 preset of the video ladder: faster presets keep transcoding above real time on small machines. */
  VIDEO_PRESET: z
    .enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium'])
    .default('veryfast'),
  WATERMARK_CACHE_MB: positiveInt(1024),
  MEDIA_S3_BUCKET: z.string().optional(),
  MEDIA_S3_REGION: z.string().default('us-east-1'),
  MEDIA_S3_ENDPOINT: optionalUrl(['http', 'https']),
  MEDIA_S3_ACCESS_KEY: z.string().optional(),
  MEDIA_S3_SECRET_KEY: z.string().optional(),
  MEDIA_S3_PATH_STYLE: bool.optional(),
  FFMPEG_PATH: z.string().optional(),
  IDENTITY_RETENTION_DAYS: positiveInt(30),
  FFPROBE_PATH: z.string().optional(),
  /** Live streaming (issue 17): HLS files and recordings of lives; RTMP ingest for OBS when a port is set. */
  LIVE_DIR: z.string().optional(),
  LIVE_RTMP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  LIVE_RTMP_HOST: z.string().default('127.0.0.1'),
  /** The RTMP server URL shown to creators for OBS (default rtmp://localhost:<port>/live). */
  LIVE_RTMP_URL: z.string().optional(),
  /** Length of a live's HLS segments in seconds (a key frame each): shorter is lower latency, more requests. */
  LIVE_SEGMENT_SECONDS: z.coerce.number().min(0.25).max(6).default(0.5),
  /**
   * The media engine of RTMP lives (ADR 0040): `builtin` (node-media-server + ffmpeg in the app) or
   * `nginx-rtmp` (nginx's RTMP module ingests and packages; the app authorises publish and watch).
   */
  LIVE_ENGINE: z.enum(['builtin', 'nginx-rtmp']).default('builtin'),
  /** nginx-rtmp: the secret in the on_publish URL (`…/api/v1/lives/engine/publish?secret=…`). */
  LIVE_ENGINE_SECRET: z.string().min(16).optional(),
  /** nginx-rtmp: its `hls_path` (hls_nested on) and `record_path`, readable by every app copy. */
  LIVE_ENGINE_HLS_DIR: z.string().optional(),
  LIVE_ENGINE_RECORD_DIR: z.string().optional(),
  /** nginx-rtmp: where an accepted publish is relayed, under the live's id (its `hls` application). */
  LIVE_ENGINE_RELAY_URL: z.string().default('rtmp://127.0.0.1:1935/hls'),
  /**
   * nginx-rtmp: the base URL of its HTTP `rtmp_control` and `rtmp_stat` locations (`/control`,
   * `/stat`), e.g. `http://127.0.0.1:8088`: ending a live drops the encoder. Unset: it keeps pushing.
   */
  LIVE_ENGINE_CONTROL_URL: z.string().url().optional(),
  /** Money (issue 6). Percents are whole numbers; amounts integer cents or credits. */
  CREDIT_VALUE_CENTS: positiveInt(10),
  PLATFORM_COMMISSION_PERCENT: z.coerce.number().int().min(0).max(100).default(20),
  CREATOR_MIN_SHARE_PERCENT: z.coerce.number().int().min(0).max(100).default(50),
  REFERRAL_PERCENT: z.coerce.number().int().min(0).max(100).default(5),
  EARNINGS_HOLD_DAYS: z.coerce.number().int().min(0).default(7),
  PAYOUT_PERIOD: z.enum(['weekly', '15days']).default('weekly'),
  PAYOUT_MIN_CENTS: z.coerce.number().int().min(1).default(1),
  VERIFIED_FREE_CREDITS: z.coerce.number().int().min(0).default(10),
  FLOWERS_CREDITS: positiveInt(10),
  GIFT_CREDITS: positiveInt(50),
  SUBSCRIPTION_PERIOD_DAYS: positiveInt(30),
  /** The job backbone (ADR 0013). */
  JOBS_CRON: bool.optional(),
  JOBS_WORKERS: bool.optional(),
  JOBS_EXPIRE_SECONDS: z.coerce.number().int().positive().optional(),
  SANDBOX_CONTROLS: bool.optional(),
  SEGPAY_BILLING_URL: optionalUrl(['https', 'http']),
  SEGPAY_SUBSCRIPTION_ETICKETID: z.string().default('000000:00000'),
  SEGPAY_POSTBACK_USER: z.string().optional(),
  SEGPAY_POSTBACK_PASSWORD: z.string().optional(),
  SEGPAY_HMAC_KEY: z.string().optional(),
  SEGPAY_SRS_URL: optionalUrl(['https', 'http']),
  SEGPAY_SRS_USER: z.string().optional(),
  SEGPAY_SRS_KEY: z.string().optional(),
  /** Social sign-in (ADR 0036): any OpenID Connect provider, Google, X. Each is on when its client id is set. */
  OIDC_ISSUER_URL: optionalUrl(['https', 'http']),
  OIDC_CLIENT_ID: z.string().trim().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_NAME: z.string().trim().min(1).max(40).default('OpenID'),
  GOOGLE_CLIENT_ID: z.string().trim().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  X_CLIENT_ID: z.string().trim().optional(),
  X_CLIENT_SECRET: z.string().optional(),
});

export type RawEnv = z.input<typeof envSchema>;

/**
 * A sign-in provider. `oidc`: OpenID Connect found by discovery at `issuer` (ID token, nonce).
 * `oauth2`: plain OAuth 2 with fixed endpoints and a profile API (X has no OpenID Connect).
 */
export type SignInProviderConfig = {
  id: 'oidc' | 'google' | 'x';
  name: string;
  clientId: string;
  clientSecret: string | undefined;
} & (
  | { kind: 'oidc'; issuer: string; scope: string }
  | {
      kind: 'oauth2';
      authorizationEndpoint: string;
      tokenEndpoint: string;
      profileEndpoint: string;
      scope: string;
    }
);

function providersOf(e: z.output<typeof envSchema>, problems: string[]): SignInProviderConfig[] {
  const out: SignInProviderConfig[] = [];
  if (e.OIDC_ISSUER_URL || e.OIDC_CLIENT_ID) {
    if (!e.OIDC_ISSUER_URL || !e.OIDC_CLIENT_ID) {
      problems.push('OIDC_ISSUER_URL and OIDC_CLIENT_ID go together (the generic OpenID Connect sign-in)');
    } else if (e.NODE_ENV === 'production' && !e.OIDC_ISSUER_URL.startsWith('https:')) {
      problems.push('OIDC_ISSUER_URL must be https when NODE_ENV=production');
    } else {
      out.push({
        id: 'oidc',
        name: e.OIDC_NAME,
        kind: 'oidc',
        issuer: e.OIDC_ISSUER_URL,
        scope: 'openid profile email',
        clientId: e.OIDC_CLIENT_ID,
        clientSecret: e.OIDC_CLIENT_SECRET,
      });
    }
  }
  if (e.GOOGLE_CLIENT_ID) {
    if (!e.GOOGLE_CLIENT_SECRET) problems.push('GOOGLE_CLIENT_SECRET is required with GOOGLE_CLIENT_ID');
    out.push({
      id: 'google',
      name: 'Google',
      kind: 'oidc',
      issuer: 'https://accounts.google.com',
      scope: 'openid profile email',
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET,
    });
  }
  if (e.X_CLIENT_ID) {
    out.push({
      id: 'x',
      name: 'X',
      kind: 'oauth2',
      authorizationEndpoint: 'https://x.com/i/oauth2/authorize',
      tokenEndpoint: 'https://api.x.com/2/oauth2/token',
      profileEndpoint: 'https://api.x.com/2/users/me?user.fields=profile_image_url',
      scope: 'users.read tweet.read',
      clientId: e.X_CLIENT_ID,
      clientSecret: e.X_CLIENT_SECRET,
    });
  }
  return out;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  mediaDir: string;
  mediaCdnUrl: string | undefined;
  appName: string;
  appKey: string;
  publicUrl: string | undefined;
  paymentProvider: 'sandbox' | 'segpay';
  smtpUrl: string | undefined;
  mailFrom: string;
  timezone: string;
  seedDemo: boolean;
  /** The analytics tag the web app may load after consent; null when off. */
  analytics: { scriptUrl: string; siteId: string } | null;
  seedPassword: string;
  logLevel: string;
  bodyLimitBytes: number;
  trustProxy: boolean;
  shutdownTimeoutSeconds: number;
  /** Prometheus metrics: port 0 = off. Off loopback only with a bearer token. */
  metrics: { port: number; host: string; token: string | undefined };
  rateLimits: {
    windowSeconds: number;
    loginPerIp: number;
    loginPerAccount: number;
    signupPerIp: number;
    resetPerIp: number;
    resetPerAccount: number;
    /** Email confirmation mails (signup's and resends) per account per window. */
    confirmMailPerAccount: number;
    /** Comments per account per minute. */
    commentPerAccount: number;
    /** Direct messages per account per minute. */
    messagePerAccount: number;
    /** Calls per personal API token per minute. */
    apiTokenPerMinute: number;
  };
  resetCodeTtlMinutes: number;
  resetCodeMaxAttempts: number;
  /** How long an email confirmation code and link work. */
  confirmEmailTtlHours: number;
  sessionTtlDays: number;
  /**
   * Mail goes to the dev outbox (readable at /api/v1/dev/outbox from loopback, without proxy
   * headers) instead of SMTP. Never on with NODE_ENV=production.
   */
  devOutbox: boolean;
  webDistDir: string;
  appSecret: string | undefined;
  /** The configured sign-in providers (social sign-in), in button order. */
  signInProviders: SignInProviderConfig[];
  /** Identity photos are deleted this many days after the application is decided. */
  identityRetentionDays: number;
  jobs: {
    /** Run the cron clock in this copy (scheduled jobs are still sent once per cluster). */
    cron: boolean;
    /** Run job workers in this copy. */
    workers: boolean;
    /** Caps how long a job may stay active before it counts as abandoned and is retried. */
    expireCapSeconds: number | undefined;
  };
  media: {
    maxImageBytes: number;
    maxVideoBytes: number;
    urlTtlSeconds: number;
    hlsUrlTtlSeconds: number;
    videoPreset: string;
    /** Bound of the disk cache of marked copies (DATA_DIR/watermarks), in bytes. */
    watermarkCacheBytes: number;
    s3:
      | {
          bucket: string;
          region: string;
          endpoint: string | undefined;
          accessKey: string | undefined;
          secretKey: string | undefined;
          /** Bucket in the path (endpoint/bucket/key) rather than in the host name. */
          pathStyle: boolean;
        }
      | undefined;
    ffmpegPath: string | undefined;
    ffprobePath: string | undefined;
  };
  live: {
    dir: string;
    rtmp: { port: number; host: string } | undefined;
    rtmpUrl: string;
    segmentSeconds: number;
    /** The external engine of RTMP lives; undefined: the built-in path. */
    engine:
      | {
          kind: 'nginx-rtmp';
          secret: string;
          hlsDir: string;
          recordDir: string;
          relayUrl: string;
          controlUrl: string | undefined;
        }
      | undefined;
  };
  money: MoneyConfig;
}

export interface MoneyConfig {
  creditValueCents: number;
  platformPercent: number;
  minCreatorPercent: number;
  referralPercent: number;
  holdDays: number;
  payoutPeriod: 'weekly' | '15days';
  payoutMinCents: number;
  verifiedFreeCredits: number;
  flowersCredits: number;
  giftCredits: number;
  subscriptionPeriodDays: number;
  /** Sandbox controls (simulated renewals, refunds…): on unless NODE_ENV=production. */
  sandboxControls: boolean;
  segpay: {
    billingUrl: string;
    subscriptionEticketid: string;
    postbackUser: string | undefined;
    postbackPassword: string | undefined;
    hmacKey: string | undefined;
    srsUrl: string;
    srsUser: string | undefined;
    srsKey: string | undefined;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function liveEngine(e: z.infer<typeof envSchema>): Config['live']['engine'] {
  if (e.LIVE_ENGINE === 'builtin') return undefined;
  if (!e.LIVE_ENGINE_SECRET || !e.LIVE_ENGINE_HLS_DIR)
    throw new ConfigError([
      'LIVE_ENGINE=nginx-rtmp needs LIVE_ENGINE_SECRET (16+ characters) and LIVE_ENGINE_HLS_DIR',
    ]);
  return {
    kind: e.LIVE_ENGINE,
    secret: e.LIVE_ENGINE_SECRET,
    hlsDir: path.resolve(e.LIVE_ENGINE_HLS_DIR),
    recordDir: path.resolve(e.LIVE_ENGINE_RECORD_DIR ?? e.LIVE_ENGINE_HLS_DIR),
    relayUrl: e.LIVE_ENGINE_RELAY_URL.replace(/\/+$/, ''),
    controlUrl: e.LIVE_ENGINE_CONTROL_URL?.replace(/\/+$/, ''),
  };
}

/** Parses the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0] ?? '?')} ${i.message}`));
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const problems: string[] = [];
  // Production never keeps mail where an HTTP call can read it (issue 11: reset codes leaked).
  if (production && !e.SMTP_URL) {
    problems.push(
      'SMTP_URL is required when NODE_ENV=production: password reset codes must go out by mail, never to the dev outbox',
    );
  }
  if (production && e.DEV_OUTBOX) {
    problems.push('DEV_OUTBOX cannot be on when NODE_ENV=production (the outbox would expose reset codes)');
  }
  if (e.METRICS_PORT && !isLoopback(e.METRICS_HOST) && !e.METRICS_TOKEN) {
    problems.push(
      `METRICS_TOKEN is required when METRICS_HOST (${e.METRICS_HOST}) is not a loopback address: metrics must not be public`,
    );
  }
  const signInProviders = providersOf(e, problems);
  if (problems.length) throw new ConfigError(problems);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    mediaDir: path.resolve(e.MEDIA_DIR ?? path.join(dataDir, 'media')),
    mediaCdnUrl: e.MEDIA_CDN_URL,
    appName: e.APP_NAME,
    appKey:
      e.APP_KEY ??
      (e.APP_NAME.toLowerCase()
        .replace(/[^a-z0-9]/g, '')
        .slice(0, 20) ||
        'app'),
    publicUrl: e.PUBLIC_URL,
    paymentProvider: e.PAYMENT_PROVIDER,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    timezone: e.TIMEZONE,
    seedDemo: e.SEED_DEMO ?? e.DATABASE_URL === undefined,
    analytics: e.ANALYTICS_SCRIPT_URL
      ? { scriptUrl: e.ANALYTICS_SCRIPT_URL, siteId: e.ANALYTICS_SITE_ID ?? '' }
      : null,
    seedPassword: e.SEED_PASSWORD,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_KB * 1024,
    trustProxy: e.TRUST_PROXY ?? false,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    rateLimits: {
      windowSeconds: e.RATE_WINDOW_SECONDS,
      loginPerIp: e.RATE_LOGIN_PER_IP,
      loginPerAccount: e.RATE_LOGIN_PER_ACCOUNT,
      signupPerIp: e.RATE_SIGNUP_PER_IP,
      resetPerIp: e.RATE_RESET_PER_IP,
      resetPerAccount: e.RATE_RESET_PER_ACCOUNT,
      confirmMailPerAccount: e.RATE_CONFIRM_MAIL_PER_ACCOUNT,
      commentPerAccount: e.RATE_COMMENT_PER_ACCOUNT,
      messagePerAccount: e.RATE_MESSAGE_PER_ACCOUNT,
      apiTokenPerMinute: e.RATE_API_TOKEN_PER_MINUTE,
    },
    resetCodeTtlMinutes: e.RESET_CODE_TTL_MINUTES,
    resetCodeMaxAttempts: e.RESET_CODE_MAX_ATTEMPTS,
    confirmEmailTtlHours: e.CONFIRM_EMAIL_TTL_HOURS,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    devOutbox: !production && (e.DEV_OUTBOX ?? e.SMTP_URL === undefined),
    webDistDir: path.resolve(import.meta.dirname, '../../web/dist'),
    appSecret: e.APP_SECRET,
    signInProviders,
    identityRetentionDays: e.IDENTITY_RETENTION_DAYS,
    jobs: {
      cron: e.JOBS_CRON ?? e.NODE_ENV !== 'test',
      workers: e.JOBS_WORKERS ?? true,
      expireCapSeconds: e.JOBS_EXPIRE_SECONDS,
    },
    media: {
      maxImageBytes: e.MEDIA_MAX_IMAGE_MB * 1024 * 1024,
      maxVideoBytes: e.MEDIA_MAX_VIDEO_MB * 1024 * 1024,
      urlTtlSeconds: e.MEDIA_URL_TTL_SECONDS,
      hlsUrlTtlSeconds: e.HLS_URL_TTL_SECONDS,
      videoPreset: e.VIDEO_PRESET,
      watermarkCacheBytes: e.WATERMARK_CACHE_MB * 1024 * 1024,
      s3: e.MEDIA_S3_BUCKET
        ? {
            bucket: e.MEDIA_S3_BUCKET,
            region: e.MEDIA_S3_REGION,
            endpoint: e.MEDIA_S3_ENDPOINT,
            accessKey: e.MEDIA_S3_ACCESS_KEY,
            secretKey: e.MEDIA_S3_SECRET_KEY,
            // Self-hosted S3 servers (MinIO, s3rver…) usually want path-style; AWS virtual-hosted.
            pathStyle: e.MEDIA_S3_PATH_STYLE ?? e.MEDIA_S3_ENDPOINT !== undefined,
          }
        : undefined,
      ffmpegPath: e.FFMPEG_PATH,
      ffprobePath: e.FFPROBE_PATH,
    },
    live: {
      dir: path.resolve(e.LIVE_DIR ?? path.join(dataDir, 'live')),
      // The engine takes the encoders' RTMP: the built-in ingest stays off.
      rtmp:
        e.LIVE_RTMP_PORT && e.LIVE_ENGINE === 'builtin'
          ? { port: e.LIVE_RTMP_PORT, host: e.LIVE_RTMP_HOST }
          : undefined,
      rtmpUrl: e.LIVE_RTMP_URL ?? `rtmp://localhost:${e.LIVE_RTMP_PORT ?? 1935}/live`,
      segmentSeconds: e.LIVE_SEGMENT_SECONDS,
      engine: liveEngine(e),
    },
    money: {
      creditValueCents: e.CREDIT_VALUE_CENTS,
      platformPercent: e.PLATFORM_COMMISSION_PERCENT,
      minCreatorPercent: e.CREATOR_MIN_SHARE_PERCENT,
      referralPercent: e.REFERRAL_PERCENT,
      holdDays: e.EARNINGS_HOLD_DAYS,
      payoutPeriod: e.PAYOUT_PERIOD,
      payoutMinCents: e.PAYOUT_MIN_CENTS,
      verifiedFreeCredits: e.VERIFIED_FREE_CREDITS,
      flowersCredits: e.FLOWERS_CREDITS,
      giftCredits: e.GIFT_CREDITS,
      subscriptionPeriodDays: e.SUBSCRIPTION_PERIOD_DAYS,
      sandboxControls: e.SANDBOX_CONTROLS ?? e.NODE_ENV !== 'production',
      segpay: {
        billingUrl: e.SEGPAY_BILLING_URL ?? 'https://secure2.segpay.com/billing/poset.cgi',
        subscriptionEticketid: e.SEGPAY_SUBSCRIPTION_ETICKETID,
        postbackUser: e.SEGPAY_POSTBACK_USER,
        postbackPassword: e.SEGPAY_POSTBACK_PASSWORD,
        hmacKey: e.SEGPAY_HMAC_KEY,
        srsUrl: e.SEGPAY_SRS_URL ?? 'https://srs.segpay.com/MerchantServices/DynamicRecurring',
        srsUser: e.SEGPAY_SRS_USER,
        srsKey: e.SEGPAY_SRS_KEY,
      },
    },
  };
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
