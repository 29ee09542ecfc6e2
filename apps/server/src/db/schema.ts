import {
  ADMIN_STATUSES,
  APPLICATION_STATUSES,
  COMPLAINT_STATUSES,
  LANGUAGES,
  LEAK_TRACE_ERRORS,
  LEAK_TRACE_STATUSES,
  LIVE_AUDIENCES,
  LIVE_MODERATIONS,
  LIVE_SOURCES,
  LIVE_STATUSES,
  MEDIA_STATUSES,
  OFFER_KINDS,
  PAYOUT_STATUSES,
  POST_KINDS,
  POST_STATUSES,
  ROLES,
  SUBSCRIPTION_STATUSES,
  VISIBILITIES,
} from '@fanverse/contract';
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Status columns (ADR 0015): a text column typed with its list of values, and a check constraint
 * `<table>_<column>_check` so the database refuses anything else. To add a value, add it to the
 * list and run `npm run db:generate`: the migration drops and re-adds the constraint.
 */
const oneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  text(name, { enum: values });
const allowed = (
  table: string,
  column: string,
  col: AnyPgColumn,
  values: readonly string[],
): ReturnType<typeof check> =>
  check(
    `${table}_${column}_check`,
    sql`${col} IN (${sql.raw(values.map((v) => `'${v}'`).join(', '))})` as SQL,
  );

/** Server-only statuses (not part of the API). */
export const CHECKOUT_STATUSES = ['pending', 'completed', 'declined', 'failed'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];
export const PAYMENT_EVENT_STATUSES = ['received', 'applied', 'rejected', 'ignored'] as const;
export type PaymentEventStatus = (typeof PAYMENT_EVENT_STATUSES)[number];
/** What a ledger transfer was sold as; a reversal keeps its sale's category. */
export const LEDGER_CATEGORIES = [
  'credits',
  'subscriptions',
  'content',
  'tips',
  'flowers',
  'gifts',
  'live',
] as const;
export type LedgerCategory = (typeof LEDGER_CATEGORIES)[number];

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /**
     * Whether the person chose a password: false for an account made by a sign-in provider (its
     * password_hash is then a random one nobody knows) until a reset code sets one.
     */
    passwordSet: boolean('password_set').notNull().default(true),
    birthdate: date('birthdate', { mode: 'string' }),
    country: text('country'),
    roles: oneOf('roles', ROLES).array().notNull().default(sql`ARRAY['user','fan']::text[]`),
    verified: boolean('verified').notNull().default(false),
    language: text('language').notNull().default('en'),
    online: boolean('online').notNull().default(false),
    lastConnection: timestamp('last_connection', { withTimezone: true }),
    referralCode: text('referral_code').notNull(),
    referredBy: uuid('referred_by'),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_referral_code_idx').on(t.referralCode),
    check(
      'users_roles_check',
      sql`${t.roles} <@ ${sql.raw(`ARRAY[${ROLES.map((r) => `'${r}'`).join(', ')}]::text[]`)}`,
    ),
  ],
);

export const profiles = pgTable('profiles', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  displayName: text('display_name'),
  about: text('about'),
  location: text('location'),
  avatar: text('avatar'),
  cover: text('cover'),
  /** Monthly subscription price in cents (creators). */
  subscriptionPriceCents: integer('subscription_price_cents'),
  discountStatus: text('discount_status').notNull().default('off'),
  discountPercent: integer('discount_percent').notNull().default(0),
  discountDateLimit: timestamp('discount_date_limit', { withTimezone: true }),
  /** Creators: a visible "site/@handle" mark on the images their fans see (issue 19). */
  visibleWatermark: boolean('visible_watermark').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the opaque token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The browser's User-Agent at sign-in (cut to 400 characters): the devices page names the device from it. */
    userAgent: text('user_agent'),
    /** The address the session signed in from, then the last one seen (devices page). */
    ip: text('ip'),
    /**
     * Signed in with a passkey (user verification: something the person has and is or knows), so
     * it counts as two-step sign-in for the administrator roles (ADR 0039).
     */
    passkey: boolean('passkey').notNull().default(false),
  },
  (t) => [uniqueIndex('sessions_token_hash_idx').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * Email confirmation (the verified flag, issue 18): a 6-digit code for typing and a long token for
 * the mail's link, both stored hashed; a new mail retires the older rows.
 */
export const emailConfirmations = pgTable(
  'email_confirmations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    /** Wrong codes typed against this row, counted before each comparison (as reset codes). */
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_confirmations_token_idx').on(t.tokenHash),
    index('email_confirmations_user_idx').on(t.userId),
  ],
);

/** Two-factor sign-in (issue 18): the TOTP secret, sealed with a key derived from the server secret. */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** AES-256-GCM sealed base32 secret (lib/secret-box.ts); never logged, never answered again. */
  totpSecret: text('totp_secret').notNull(),
  /** Set once the first code confirmed the enrolment; until then the secret is pending. */
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The last TOTP time step accepted: a code is never accepted twice. */
  lastTimeStep: integer('last_time_step'),
  createdAt: createdAt(),
});

/** One-time recovery codes (hashed); each is used once, by a conditional update. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/** Passkeys (WebAuthn credentials): a password-less sign-in that is both factors at once (issue 18). */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator names it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The signature counter last seen (0 for authenticators that keep none). */
    counter: integer('counter').notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    /** A name for the list ("Chrome on Android"), from the device that made it. */
    name: text('name').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('passkeys_credential_idx').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/**
 * Personal API tokens of developers (`?feed=developer`, ADR 0034): `Authorization: Bearer fv_…`
 * acts as the user on the endpoints of the token's scopes only. Only the SHA-256 of the token is
 * kept; `prefix` (its first characters) tells tokens apart in the list.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    /** Null: works until revoked. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_tokens_hash_idx').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId)],
);

/** A WebAuthn challenge handed out for one registration or sign-in; used once, short-lived. */
export const passkeyChallenges = pgTable('passkey_challenges', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The account registering a passkey; null for a sign-in (the passkey names the account). */
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  challenge: text('challenge').notNull(),
  kind: text('kind').$type<'register' | 'login'>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** A sign-in provider account (OpenID Connect or OAuth 2) linked to an account (issue 18, ADR 0036). */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The configured provider's id: `oidc`, `google` or `x`. */
    provider: text('provider').notNull(),
    /** The provider's stable id of the person (`sub`). */
    subject: text('subject').notNull(),
    /** The email the provider answered when linked (shown on the security page). */
    email: text('email'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('user_identities_provider_subject_idx').on(t.provider, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/**
 * One provider sign-in between leaving for the provider and coming back: state (hashed), nonce and
 * PKCE verifier, kept in the database so any server copy can finish it; used once, 10 minutes.
 * After a first sign-in it holds the provider's claims for the sign-up form (the ticket, 30 minutes).
 */
export const oidcFlows = pgTable(
  'oidc_flows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stateHash: text('state_hash').notNull(),
    /** Hash of a secret only the browser that started the flow holds (binds the return to it). */
    browserHash: text('browser_hash').notNull(),
    provider: text('provider').notNull(),
    intent: text('intent').$type<'login' | 'link'>().notNull(),
    /** The account linking a provider (intent `link`). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** A first sign-in: the sign-up ticket (hashed), the provider's claims, and when it was spent. */
    ticketHash: text('ticket_hash'),
    claims: jsonb('claims'),
    ticketExpiresAt: timestamp('ticket_expires_at', { withTimezone: true }),
    ticketUsedAt: timestamp('ticket_used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('oidc_flows_state_idx').on(t.stateHash),
    uniqueIndex('oidc_flows_ticket_idx').on(t.ticketHash),
  ],
);

/** The step between a right password and the second factor: short-lived, guesses counted. */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('login_challenges_token_idx').on(t.tokenHash)],
);

export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Set when a newer code replaces this one. */
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    /** Guesses made against this code, counted before each comparison (issue 11). */
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('password_reset_codes_hash_idx').on(t.codeHash),
    index('password_reset_codes_user_idx').on(t.userId),
  ],
);

export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  createdAt: createdAt(),
});

export const contactRequests = pgTable('contact_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  kind: text('kind').notNull(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  status: text('status').notNull().default('new'),
  createdAt: createdAt(),
});

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    /**
     * Set when a notification must reach its recipient once only (a retried job must not notify
     * twice), e.g. `live:<liveId>`; unique per recipient. Null for the others (NULLs never collide).
     */
    onceKey: text('once_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_unread_idx').on(t.userId, t.readAt),
    uniqueIndex('notifications_user_once_idx').on(t.userId, t.onceKey),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type ProfileRow = typeof profiles.$inferSelect;

/** A creator's vault folders (ADR 0032): a file is in at most one (`media.folder_id`). */
export const vaultFolders = pgTable(
  'vault_folders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('vault_folders_owner_name_idx').on(t.ownerId, sql`lower(${t.name})`)],
);

/** Uploaded files. Keys point into the storage driver; originals are never public. */
export const media = pgTable(
  'media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    purpose: text('purpose').notNull(),
    status: oneOf('status', MEDIA_STATUSES).notNull().default('processing'),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    originalKey: text('original_key').notNull(),
    webKey: text('web_key'),
    thumbKey: text('thumb_key'),
    blurKey: text('blur_key'),
    posterKey: text('poster_key'),
    width: integer('width'),
    height: integer('height'),
    info: jsonb('info'),
    /** Videos: seconds from the start anyone who may see the post may play (free preview); 0 none. */
    previewSeconds: integer('preview_seconds').notNull().default(0),
    /**
     * Videos: the creator's WebVTT captions tracks (ADR 0037), one per language, each stored as
     * `captions/<language>.vtt` beside the original. Served only to viewers entitled to the video.
     */
    captions: jsonb('captions')
      .$type<{ language: string; name: string; size: number }[]>()
      .notNull()
      .default([]),
    error: text('error'),
    /**
     * SHA-256 of the uploaded bytes (vault files only; ADR 0032): one owner's same file is stored
     * once. Cleared when processing fails, so a new upload of that file is tried again.
     */
    contentHash: text('content_hash'),
    /** The vault folder the owner put it in (ADR 0032); none when unfiled. */
    folderId: uuid('folder_id').references(() => vaultFolders.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('media_owner_idx').on(t.ownerId),
    index('media_folder_idx').on(t.folderId),
    uniqueIndex('media_owner_hash_idx').on(t.ownerId, t.contentHash),
    allowed('media', 'status', t.status, MEDIA_STATUSES),
  ],
);

export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: oneOf('kind', POST_KINDS).notNull().default('post'),
    message: text('message').notNull().default(''),
    visibility: oneOf('visibility', VISIBILITIES).notNull().default('free'),
    /** Price in credits (pay-per-view). */
    price: integer('price').notNull().default(0),
    discountStatus: text('discount_status').notNull().default('off'),
    discountPercent: integer('discount_percent').notNull().default(0),
    discountDateLimit: timestamp('discount_date_limit', { withTimezone: true }),
    adminStatus: oneOf('admin_status', ADMIN_STATUSES).notNull().default('new'),
    reviewReason: text('review_reason'),
    reviewedBy: uuid('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    status: oneOf('status', POST_STATUSES).notNull().default('active'),
    /** Scheduled publication; null publishes once approved. Feeds show a post only from this time. */
    publishAt: timestamp('publish_at', { withTimezone: true }),
    /**
     * When it went live (approval, or the scheduled-publication job); cleared when it leaves
     * approval (an edit, a take-down, a send-back), so approved again it goes live again. A story
     * lives a day from it (access/posts.ts `storyStart`).
     */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    certifiedAt: timestamp('certified_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('posts_creator_idx').on(t.creatorId, t.createdAt),
    index('posts_review_idx').on(t.adminStatus, t.kind),
    // The feeds: equality on review state, status and kind, newest first; creator_id and id ride
    // along so a deep page's offset is skipped inside the index.
    index('posts_feed_idx').on(t.adminStatus, t.status, t.kind, t.createdAt, t.creatorId, t.id),
    // Visitors' and Explore's feeds: free posts only (spec §6).
    index('posts_free_feed_idx')
      .on(t.adminStatus, t.status, t.kind, t.createdAt, t.creatorId, t.id)
      .where(sql`${t.visibility} = 'free'`),
    allowed('posts', 'kind', t.kind, POST_KINDS),
    allowed('posts', 'visibility', t.visibility, VISIBILITIES),
    allowed('posts', 'admin_status', t.adminStatus, ADMIN_STATUSES),
    allowed('posts', 'status', t.status, POST_STATUSES),
    index('posts_publish_at_idx').on(t.creatorId, t.publishAt),
    // The stories lists: a story lives a day from when it went live, access/posts.ts
    // `storyStartSql` (the same expression, or the planner cannot use it), newest live first.
    index('posts_story_live_idx').on(
      sql`(CASE WHEN ${t.kind} = 'story' THEN COALESCE(${t.publishedAt}, ${t.publishAt}, ${t.createdAt}) END)`,
    ),
  ],
);

export const postMedia = pgTable(
  'post_media',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.postId, t.mediaId] }), index('post_media_media_idx').on(t.mediaId)],
);

export const postLikes = pgTable(
  'post_likes',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] }), index('post_likes_user_idx').on(t.userId)],
);

export const postSaves = pgTable(
  'post_saves',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] }), index('post_saves_user_idx').on(t.userId)],
);

export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id'),
    /** The top-level comment of the thread (null for a top-level comment). */
    rootId: uuid('root_id'),
    deep: integer('deep').notNull().default(0),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('comments_post_idx').on(t.postId, t.createdAt), index('comments_root_idx').on(t.rootId)],
);

/** Entitlement: a fan's subscription to a creator (the money module drives its life cycle). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fanId: uuid('fan_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: oneOf('status', SUBSCRIPTION_STATUSES).notNull().default('active'),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    dynamicPricingId: text('dynamic_pricing_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_fan_creator_idx').on(t.fanId, t.creatorId),
    index('subscriptions_creator_idx').on(t.creatorId),
    allowed('subscriptions', 'status', t.status, SUBSCRIPTION_STATUSES),
  ],
);

/** Entitlement: pay-per-view content a fan unlocked. */
export const unlocks = pgTable(
  'unlocks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.postId] })],
);

export const follows = pgTable(
  'follows',
  {
    followerId: uuid('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.followerId, t.creatorId] }), index('follows_creator_idx').on(t.creatorId)],
);

/**
 * Words of each person's handle and name with their one-letter deletions (symmetric-deletion
 * spelling index): "lnua" and "luna" share "lna"/"lua", so a transposed, dropped, doubled or
 * changed letter still finds the word through an equality lookup. Kept by database triggers on
 * users and profiles (migration 0016), never written by the app.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    term: text('term').notNull(),
    variant: text('variant').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.variant, t.userId, t.term] }),
    index('search_terms_user_idx').on(t.userId),
  ],
);

/** Categories a creator chose for their page (CATEGORY_TAGS); Explore lists creators by them. */
export const creatorTags = pgTable(
  'creator_tags',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tag: text('tag').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tag] }), index('creator_tags_tag_idx').on(t.tag, t.userId)],
);

export const complaints = pgTable(
  'complaints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason').notNull(),
    details: text('details'),
    status: oneOf('status', COMPLAINT_STATUSES).notNull().default('pending'),
    response: text('response'),
    createdAt: createdAt(),
  },
  (t) => [
    index('complaints_status_idx').on(t.status),
    allowed('complaints', 'status', t.status, COMPLAINT_STATUSES),
    // One open complaint per reporter and reported thing (issue 11): a repeat answers the open one.
    uniqueIndex('complaints_open_per_reporter_idx')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export const galleryCategories = pgTable(
  'gallery_categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    imageMediaId: uuid('image_media_id').references(() => media.id, { onDelete: 'set null' }),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('gallery_categories_creator_idx').on(t.creatorId)],
);

export const galleryItems = pgTable(
  'gallery_items',
  {
    categoryId: uuid('category_id')
      .notNull()
      .references(() => galleryCategories.id, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.mediaId] })],
);

export type MediaRow = typeof media.$inferSelect;
export type PostRow = typeof posts.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;

/**
 * Direct messages. `messageUUID` is the sender's client id of the message: one sender's
 * repeated or concurrent sends of the same id store one row (unique index, insert on conflict).
 */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageUuid: text('message_uuid').notNull(),
    fromId: uuid('from_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toId: uuid('to_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull().default(''),
    /** Price in credits of the attached media (0: free). */
    price: integer('price').notNull().default(0),
    /** Set on the copies of one mass message. */
    massId: uuid('mass_id'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('messages_from_uuid_idx').on(t.fromId, t.messageUuid),
    index('messages_pair_idx').on(t.fromId, t.toId, t.createdAt),
    index('messages_to_unread_idx').on(t.toId, t.readAt),
    index('messages_to_pair_idx').on(t.toId, t.fromId, t.createdAt),
  ],
);

export const messageMedia = pgTable(
  'message_media',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.mediaId] }), index('message_media_media_idx').on(t.mediaId)],
);

/** Entitlement: paid message media a receiver unlocked (the money module charges the credits). */
export const messageUnlocks = pgTable(
  'message_unlocks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.messageId] })],
);

/** A user blocked another: no messages or comments between them either way, hidden in search. */
export const userBlocks = pgTable(
  'user_blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index('user_blocks_blocked_idx').on(t.blockedId),
  ],
);

export type MessageRow = typeof messages.$inferSelect;

/** A person's application to become a creator (spec §2 apply flow, §3 fields). */
export const creatorApplications = pgTable(
  'creator_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fields: jsonb('fields').notNull().default({}),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    documentType: text('document_type'),
    /** draft → pending → accepted | rejected (a rejected applicant may apply again). */
    status: oneOf('status', APPLICATION_STATUSES).notNull().default('draft'),
    reason: text('reason'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    decidedBy: uuid('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('creator_applications_user_idx').on(t.userId),
    index('creator_applications_status_idx').on(t.status),
    allowed('creator_applications', 'status', t.status, APPLICATION_STATUSES),
  ],
);

/** Identity photos: private storage, never media URLs; deleted a while after the decision. */
export const identityDocuments = pgTable(
  'identity_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => creatorApplications.id, { onDelete: 'cascade' }),
    side: text('side').notNull(),
    storageKey: text('storage_key').notNull(),
    mime: text('mime').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('identity_documents_side_idx').on(t.applicationId, t.side)],
);

/** Who did what in the admin area, and when. */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    details: jsonb('details').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('admin_actions_target_idx').on(t.targetType, t.targetId)],
);

// ---- Money (issue 6): ledger, wallets, products, checkouts, postbacks, payouts ----

/** Admin-managed credit bags (products) with the provider's price point. */
export const creditBags = pgTable('credit_bags', {
  id: text('id').primaryKey(),
  credits: integer('credits').notNull(),
  priceCents: integer('price_cents').notNull(),
  eticketid: text('eticketid').notNull(),
  active: boolean('active').notNull().default(true),
  position: integer('position').notNull().default(0),
});

/**
 * Settings changed at run time, as integers by key: the commission percent (admin), the payout
 * period, holding time and feature switches (super). The table kept its first name.
 */
export const moneySettings = pgTable('money_settings', {
  key: text('key').primaryKey(),
  value: integer('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A fan's credits, kept in step with the ledger in the same transaction (row locked to spend). */
export const wallets = pgTable('wallets', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  credits: integer('credits').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One business transfer of the append-only ledger. `idempotencyKey` makes a spend or a provider
 * event apply once; `relatedId` points a reversal at the transfer it reverses.
 */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    category: oneOf('category', LEDGER_CATEGORIES),
    idempotencyKey: text('idempotency_key').notNull(),
    userId: uuid('user_id'),
    creatorId: uuid('creator_id'),
    postId: uuid('post_id'),
    /** The paid message a `message_unlock` paid for (ADR 0032), as `postId` names an unlocked post. */
    messageId: uuid('message_id'),
    provider: text('provider'),
    purchaseId: text('purchase_id'),
    transactionId: text('transaction_id'),
    amountCents: integer('amount_cents').notNull().default(0),
    credits: integer('credits').notNull().default(0),
    relatedId: uuid('related_id'),
    memo: text('memo'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_key_idx').on(t.idempotencyKey),
    index('ledger_transactions_user_idx').on(t.userId, t.createdAt),
    index('ledger_transactions_creator_idx').on(t.creatorId, t.createdAt),
    index('ledger_transactions_provider_tran_idx').on(t.provider, t.transactionId),
    index('ledger_transactions_related_idx').on(t.relatedId),
    index('ledger_transactions_post_idx').on(t.postId),
    index('ledger_transactions_message_idx').on(t.messageId),
    allowed('ledger_transactions', 'category', t.category, LEDGER_CATEGORIES),
  ],
);

/** Legs of a transfer: per currency the amounts of one transfer sum to zero. Never updated. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id),
    account: text('account').notNull(),
    currency: text('currency').notNull(),
    amount: integer('amount').notNull(),
    /** Creator earnings: when the holding period ends and the amount can be paid out. */
    availableAt: timestamp('available_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.account, t.currency),
    index('ledger_entries_tx_idx').on(t.transactionId),
  ],
);

/** A hosted-billing checkout: what we asked the provider to charge, checked against its postback. */
export const checkouts = pgTable(
  'checkouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    bagId: text('bag_id'),
    creatorId: uuid('creator_id'),
    amountCents: integer('amount_cents').notNull(),
    credits: integer('credits').notNull().default(0),
    eticketid: text('eticketid'),
    dynamicPricingId: text('dynamic_pricing_id'),
    status: oneOf('status', CHECKOUT_STATUSES).notNull().default('pending'),
    /** Subscriptions: the first paid period (days; a trial's length) and what renews after it. */
    periodDays: integer('period_days'),
    recurringCents: integer('recurring_cents'),
    recurringDays: integer('recurring_days'),
    /** The offer link redeemed by this checkout (counted when it is paid). */
    offerId: uuid('offer_id'),
    purchaseId: text('purchase_id'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('checkouts_user_idx').on(t.userId),
    index('checkouts_purchase_idx').on(t.provider, t.purchaseId),
    allowed('checkouts', 'status', t.status, CHECKOUT_STATUSES),
  ],
);

/** Every provider postback, stored raw before it is applied; one row per (provider, transaction, event). */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    event: text('event').notNull(),
    raw: jsonb('raw').notNull(),
    status: oneOf('status', PAYMENT_EVENT_STATUSES).notNull().default('received'),
    error: text('error'),
    createdAt: createdAt(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_events_key_idx').on(t.provider, t.idempotencyKey),
    allowed('payment_events', 'status', t.status, PAYMENT_EVENT_STATUSES),
  ],
);

/** Billing facts of a subscription (the entitlement row lives in `subscriptions`). */
export const subscriptionBilling = pgTable(
  'subscription_billing',
  {
    subscriptionId: uuid('subscription_id')
      .primaryKey()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    purchaseId: text('purchase_id').notNull(),
    priceCents: integer('price_cents').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    lastActivationAt: timestamp('last_activation_at', { withTimezone: true }).notNull(),
    lastRenewalAt: timestamp('last_renewal_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Length of each renewed period (a bundle's months); null: the configured monthly period. */
    periodDays: integer('period_days'),
    /** The period end the renewal notice (7 days before) was mailed for: one mail per period. */
    renewalNoticeFor: timestamp('renewal_notice_for', { withTimezone: true }),
  },
  (t) => [uniqueIndex('subscription_billing_purchase_idx').on(t.provider, t.purchaseId)],
);

/** A creator's subscription bundles: N months paid at once at a discount (issue 19). */
export const subscriptionBundles = pgTable(
  'subscription_bundles',
  {
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    months: integer('months').notNull(),
    discountPercent: integer('discount_percent').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.creatorId, t.months] }),
    check('subscription_bundles_percent_check', sql`${t.discountPercent} BETWEEN 0 AND 90`),
  ],
);

/**
 * Offer links: a free trial or a discount on the first period, with an expiry and a use limit.
 * `uses` only grows by a guarded update (`uses < max_uses`), backed by a check constraint.
 */
export const offerLinks = pgTable(
  'offer_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    kind: oneOf('kind', OFFER_KINDS).notNull(),
    trialDays: integer('trial_days').notNull().default(0),
    discountPercent: integer('discount_percent').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    maxUses: integer('max_uses').notNull(),
    uses: integer('uses').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('offer_links_code_idx').on(t.code),
    index('offer_links_creator_idx').on(t.creatorId),
    allowed('offer_links', 'kind', t.kind, OFFER_KINDS),
    check('offer_links_uses_check', sql`${t.uses} >= 0 AND ${t.uses} <= ${t.maxUses}`),
  ],
);

/** The message sent automatically to each new subscriber (issue 19). */
export const welcomeMessages = pgTable('welcome_messages', {
  creatorId: uuid('creator_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  text: text('text').notNull(),
  active: boolean('active').notNull().default(true),
  /** Price in credits of the attached media (0: free); the subscriber unlocks them like a paid message. */
  price: integer('price').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Vault files attached to a creator's welcome message (sent with each new subscriber's copy). */
export const welcomeMessageMedia = pgTable(
  'welcome_message_media',
  {
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => welcomeMessages.creatorId, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.creatorId, t.mediaId] }),
    index('welcome_message_media_media_idx').on(t.mediaId),
  ],
);

/** Where a creator is paid: kind card | bank | transfer; `details` holds the full data, `masked` what is shown. */
export const payoutMethods = pgTable('payout_methods', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  details: jsonb('details').notNull(),
  masked: text('masked').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One payout of a creator's available earnings in a batch run; admins mark it paid or failed. */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    batchKey: text('batch_key').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: oneOf('status', PAYOUT_STATUSES).notNull().default('scheduled'),
    method: text('method'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payouts_creator_batch_idx').on(t.creatorId, t.batchKey),
    index('payouts_status_idx').on(t.status),
    allowed('payouts', 'status', t.status, PAYOUT_STATUSES),
  ],
);

/**
 * Secrets every server copy on this database must share, by name (`app`: the key behind signed
 * media URLs and sandbox payment links). Created once, by whichever copy starts first (ADR 0014).
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * One row per fan and private file served to them (ADR 0026): the invisible mark in that fan's copy
 * carries `mark_id`, so a leaked copy names the fan and when the file was first served to them.
 */
export const mediaServes = pgTable(
  'media_serves',
  {
    markId: integer('mark_id').primaryKey().generatedAlwaysAsIdentity(),
    fanId: uuid('fan_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    servedAt: timestamp('served_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('media_serves_fan_media_idx').on(t.fanId, t.mediaId)],
);

/**
 * Who was served a marked video (ADR 0041): one row per fan and video, made on the first play. The
 * row's keyed code picks variant A or B of each segment of that fan's playlists; the leak tracer
 * matches the bits read from a copy against these codes.
 */
export const videoServes = pgTable(
  'video_serves',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fanId: uuid('fan_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    servedAt: timestamp('served_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('video_serves_fan_media_idx').on(t.fanId, t.mediaId),
    index('video_serves_media_idx').on(t.mediaId),
  ],
);

/**
 * Leak traces run by creators and staff: what a leaked copy's mark said, for a DMCA complaint. A
 * row is made `pending` with its `leaks.trace` job (same transaction); the job runs it (`running`,
 * `attempts` counts the runs started) and records the result (`done`) or why not (`failed`). The
 * uploaded copy waits in private storage under a key made from the id until then.
 */
export const leakTraces = pgTable(
  'leak_traces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requesterId: uuid('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The requester's roles in force when they asked: the job decides what they may learn by them. */
    requesterRoles: oneOf('requester_roles', ROLES).array().notNull().default(sql`'{}'::text[]`),
    status: oneOf('status', LEAK_TRACE_STATUSES).notNull().default('pending'),
    /** Null on traces made before it was recorded. */
    kind: text('kind', { enum: ['image', 'video'] }),
    fileName: text('file_name').notNull().default(''),
    markId: integer('mark_id'),
    mediaId: uuid('media_id').references(() => media.id, { onDelete: 'set null' }),
    /** The live a leaked video was traced to (a recording of it, ADR 0045); media_id is then null. */
    liveId: uuid('live_id').references((): AnyPgColumn => lives.id, { onDelete: 'set null' }),
    fanId: uuid('fan_id').references(() => users.id, { onDelete: 'set null' }),
    servedAt: timestamp('served_at', { withTimezone: true }),
    /** Percent, one decimal; null until done. */
    confidence: doublePrecision('confidence_pct'),
    error: oneOf('error', LEAK_TRACE_ERRORS),
    attempts: integer('attempts').notNull().default(0),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    complaintId: uuid('complaint_id').references(() => complaints.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('leak_traces_requester_idx').on(t.requesterId, t.createdAt),
    allowed('leak_traces', 'status', t.status, LEAK_TRACE_STATUSES),
  ],
);

/**
 * The grid of a marked live (ADR 0045): its HLS segment length and how many consecutive segments
 * carry one bit of a viewer's code (a bit period of about 2 s, as on videos).
 */
export interface LiveMarkGrid {
  segmentSeconds: number;
  segmentsPerBit: number;
}

/**
 * Live streams (issue 17). One live at a time per creator (partial unique index). `audience` says who
 * may watch: the creator's subscribers, everyone logged in, or anyone holding a ticket bought with
 * credits (`ticketPrice`). The recording stays on the server's disk until the creator publishes it
 * as a post or it is cleaned up.
 */
export const lives = pgTable(
  'lives',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    audience: oneOf('audience', LIVE_AUDIENCES).notNull(),
    ticketPrice: integer('ticket_price').notNull().default(0),
    goalCredits: integer('goal_credits'),
    goalLabel: text('goal_label'),
    source: oneOf('source', LIVE_SOURCES).notNull().default('browser'),
    status: oneOf('status', LIVE_STATUSES).notNull().default('live'),
    peakViewers: integer('peak_viewers').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedBy: uuid('ended_by'),
    replayPostId: uuid('replay_post_id'),
    /**
     * The traceable mark's grid (ADR 0045) when the built-in media path encodes this live in A/B
     * variants; null for a live packaged by the external engine (unmarked).
     */
    mark: jsonb('mark').$type<LiveMarkGrid>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('lives_one_live_per_creator_idx').on(t.creatorId).where(sql`status = 'live'`),
    index('lives_status_idx').on(t.status, t.startedAt),
    index('lives_creator_idx').on(t.creatorId, t.startedAt),
    allowed('lives', 'audience', t.audience, LIVE_AUDIENCES),
    allowed('lives', 'source', t.source, LIVE_SOURCES),
    allowed('lives', 'status', t.status, LIVE_STATUSES),
  ],
);

/** A fan's ticket to a ticketed live: bought once (the ledger key and this row both say so). */
export const liveTickets = pgTable(
  'live_tickets',
  {
    liveId: uuid('live_id')
      .notNull()
      .references(() => lives.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.liveId, t.userId] })],
);

/** Live chat: kept so the creator can remove a message by id and late viewers see the last lines. */
export const liveMessages = pgTable(
  'live_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    liveId: uuid('live_id')
      .notNull()
      .references(() => lives.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('live_messages_live_idx').on(t.liveId, t.createdAt)],
);

/** The creator's moderation of a viewer in one live: muted (may watch, not chat) or banned (out). */
export const liveModerations = pgTable(
  'live_moderations',
  {
    liveId: uuid('live_id')
      .notNull()
      .references(() => lives.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: oneOf('kind', LIVE_MODERATIONS).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.liveId, t.userId, t.kind] }),
    allowed('live_moderations', 'kind', t.kind, LIVE_MODERATIONS),
  ],
);

/**
 * Who was served a live (ADR 0045), like `video_serves` for videos: one row per viewer and live,
 * made on their first playlist request. Its keyed code picks variant A or B of each bit period of
 * that viewer's playlists; the leak tracer matches the bits read from a recording against these.
 */
export const liveServes = pgTable(
  'live_serves',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fanId: uuid('fan_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    liveId: uuid('live_id')
      .notNull()
      .references(() => lives.id, { onDelete: 'cascade' }),
    servedAt: timestamp('served_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('live_serves_fan_live_idx').on(t.fanId, t.liveId),
    index('live_serves_live_idx').on(t.liveId),
  ],
);

/** A creator's RTMP stream key, stored as its SHA-256 (the key is shown once, at creation). */
export const liveStreamKeys = pgTable(
  'live_stream_keys',
  {
    creatorId: uuid('creator_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('live_stream_keys_hash_idx').on(t.keyHash)],
);

/**
 * The help knowledge base (`?feed=wiki`, issue 15): one row per article and language, Markdown
 * written by admins with its HTML rendered by the server on save.
 */
export const wikiArticles = pgTable(
  'wiki_articles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull(),
    language: oneOf('language', LANGUAGES).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    html: text('html').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('wiki_articles_slug_language_idx').on(t.slug, t.language),
    index('wiki_articles_language_idx').on(t.language, t.title),
    allowed('wiki_articles', 'language', t.language, LANGUAGES),
  ],
);
