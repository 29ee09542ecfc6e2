import { randomBytes } from 'node:crypto';
import { ADMINISTRATOR_ROLES, type Role } from '@fanverse/contract';
import { hashPassword } from '../src/lib/crypto.ts';
import { createTestApp, type TestApp } from './harness.ts';

export const TEST_PASSWORD = 'correct-horse-9';
/** The authenticator secret of the administrators the factory makes (base32). */
export const STAFF_TOTP_SECRET = 'TESTSTAFFTOTPSECRETABCDEFGHIJKLM';
let passwordHash: Promise<string> | undefined;

let seq = 0;
/** A fresh, valid username (letters and digits, 6–20). */
export function uniqueUsername(prefix = 'user'): string {
  seq += 1;
  return `${prefix}${randomBytes(3).toString('hex')}${seq}`.slice(0, 20);
}

/** YYYY-MM-DD `years` years before today (in the process time zone). */
export function yearsAgo(years: number, extraDays = 0): string {
  const d = new Date();
  d.setFullYear(d.getFullYear() - years);
  d.setDate(d.getDate() + extraDays);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export function signupInput(overrides: Record<string, unknown> = {}) {
  const username = uniqueUsername();
  return {
    username,
    name: 'Test Person',
    email: `${username}@example.com`,
    password: TEST_PASSWORD,
    birthdate: '1990-01-01',
    acceptTerms: true,
    ...overrides,
  };
}

/** Creates a user with the given roles and logs in; answers the token. */
export async function createUser(
  t: TestApp,
  opts: {
    roles?: Role[];
    verified?: boolean;
    username?: string;
    language?: 'en' | 'es';
    /** Administrators get two-step sign-in (STAFF_TOTP_SECRET) unless this is false. */
    twoFactor?: boolean;
  } = {},
): Promise<{ id: string; username: string; email: string; token: string }> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const username = opts.username ?? uniqueUsername();
  const email = `${username.toLowerCase()}@example.com`;
  const user = await t.services.users.create({
    username,
    email,
    name: 'Factory Person',
    passwordHash: await passwordHash,
    birthdate: '1990-01-01',
    roles: opts.roles ?? ['user', 'fan'],
    verified: opts.verified ?? false,
    language: opts.language ?? 'en',
    referralCode: randomBytes(5).toString('hex'),
    referredBy: null,
  });
  const res = await t.call(
    'auth.login',
    { login: username, password: TEST_PASSWORD },
    { ip: `10.9.${seq % 250}.1` },
  );
  if (res.status !== 200) throw new Error(`factory login failed: ${JSON.stringify(res.body)}`);
  // Administrator roles act only with two-step sign-in on (issue 18): staff made here have it.
  if (opts.roles?.some((r) => ADMINISTRATOR_ROLES.includes(r)) && opts.twoFactor !== false) {
    await t.services.twoFactor.enrolKnownSecret(user.id, STAFF_TOTP_SECRET);
  }
  return { id: user.id, username, email, token: res.body.token };
}

export const CERTIFIED = { certifyAdults: true, certifyConsent: true, certifyTerms: true };
/** The same certifications as the fields of a multipart form (an upload). */
export const CERTIFIED_FORM = { certifyAdults: 'true', certifyConsent: 'true', certifyTerms: 'true' };

/** A post by the creator (JSON, no files), approved by a moderator unless `approve` is false. */
export async function createPost(
  t: TestApp,
  creator: { token: string },
  fields: Record<string, unknown> = {},
  opts: { approve?: boolean; moderator?: { token: string } } = {},
): Promise<string> {
  const res = await t.call(
    'posts.create',
    { message: 'Hello fans', ...CERTIFIED, ...fields },
    { token: creator.token },
  );
  if (res.status !== 200) throw new Error(`createPost failed: ${JSON.stringify(res.body)}`);
  const id = res.body.post._id;
  if (opts.approve !== false) {
    const moderator = opts.moderator ?? (await createUser(t, { roles: ['admin', 'user'] }));
    const review = await t.call(
      'admin.postReview',
      { id, adminStatus: 'approved' },
      { token: moderator.token },
    );
    if (review.status !== 200) throw new Error(`approve failed: ${JSON.stringify(review.body)}`);
  }
  return id;
}

/** Gives a fan an active subscription to a creator (the money module will do this through payments). */
export async function subscribe(t: TestApp, fanId: string, creatorId: string, days = 30): Promise<void> {
  await t.database.session((exec) =>
    exec(
      `INSERT INTO subscriptions (fan_id, creator_id, status, current_period_end)
       VALUES ('${fanId}', '${creatorId}', 'active', now() + interval '${days} days')`,
    ),
  );
}

/** Records that a fan unlocked a pay-per-view post (the money module will charge credits for it). */
export async function unlock(t: TestApp, userId: string, postId: string): Promise<void> {
  await t.database.session((exec) =>
    exec(`INSERT INTO unlocks (user_id, post_id) VALUES ('${userId}', '${postId}')`),
  );
}

/** Records that a receiver unlocked a paid message (the money module will charge credits for it). */
export async function unlockMessage(t: TestApp, userId: string, messageId: string): Promise<void> {
  await t.services.messages.grantUnlock(userId, messageId);
}

/** Step 1 of a creator application with every field valid (spec §3). */
export const APPLICATION_PROFILE = {
  step: '1',
  fullName: 'Ana María Pérez',
  country: 'CO',
  profileUrl: 'https://example.com/ana',
  email: 'ana@example.com',
  phone: '+57 300 123 4567',
  birthday: '1994-04-04',
  description: 'Fitness and travel content.',
  socialNetworks: 'x.com/ana',
  instagram: '@ana',
  experience: 'Two years',
  currentlyWorking: 'true',
  platformName: 'Another site',
  comments: '',
  howKnown: 'A friend',
} as const;

/**
 * The cast of a clock-driven posts test, on a listening app whose clock is `now`: a verified
 * creator, a fan subscribed to them, and an admin who reviews.
 */
export async function clockedCast(now: () => Date) {
  const t = await createTestApp({}, { now });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  const fan = await createUser(t);
  const admin = await createUser(t, { roles: ['admin', 'user'] });
  await subscribe(t, fan.id, creator.id);
  return { t, base, creator, fan, admin };
}
