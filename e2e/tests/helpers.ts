import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
// Admin and super roles act only with two-step sign-in on (issue 18): the seed turns it on for the
// demo staff with this known secret (README, ADR 0027) and the journeys compute its codes.
import type { PostsResponse } from '@fanverse/contract';
import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  type TestInfo,
  test,
} from '@playwright/test';
import { DEMO_STAFF_TOTP_SECRET } from '../../apps/server/src/seed/demo-staff.ts';

export { DEMO_STAFF_TOTP_SECRET };

export const DEMO_PASSWORD = 'fanverse-demo';
export const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts/screens');

/**
 * A test video made by ffmpeg: the moving `testsrc2` picture (`size`, `rate`) for `seconds`, with a
 * 440 Hz tone unless `audio` is false, encoded by `encode` (H.264 + AAC in MP4 by default) into a
 * file named `name` (its extension picks the container when `encode` has no `-f`).
 */
export function testClip(opts: {
  seconds: number;
  size?: string;
  rate?: number;
  audio?: boolean;
  name?: string;
  encode?: string[];
}): Buffer {
  const { seconds, size = '320x240', rate = 25, audio = true, name = 'clip.mp4' } = opts;
  const encode = opts.encode ?? [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
  ];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-e2e-clip-'));
  const out = path.join(dir, name);
  try {
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${rate}`],
      ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'] : []),
      ...['-t', String(seconds), ...encode, out],
    ]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Waits until the app has taken over the server's first view (ADR 0048: #root loses
 * data-first-view); until then the page is the server's markup and the app's handlers, such as a
 * modal's focus trap, are not running.
 */
export async function appTookOver(page: Page, message?: string): Promise<void> {
  await expect(page.locator('#root'), message).not.toHaveAttribute('data-first-view', /.*/, {
    timeout: 20_000,
  });
}

/** Skips the age advice for a logged-out visitor, as a returning visitor would have. */
export async function acceptAge(page: Page): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('ageAccepted', 'confirm'));
}

/** Logs in through the form and waits to leave /login. */
export async function login(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByTestId('field-login').fill(username);
  await page.getByTestId('field-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** The current authenticator code of a secret, `steps` 30-second steps ahead. */
export async function totpCode(secret: string, steps = 0): Promise<string> {
  const { generate } = await import('otplib');
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

type Session = { token: string; user: unknown };
const sessions = new Map<string, Session>();

/**
 * A session of a demo account through the API, with the second step when the account has two-step
 * sign-in (the demo staff). A code is never accepted twice, so a staff session is kept for the
 * worker and reused while it is alive; a code refused as already used waits for the next step.
 */
export async function sessionOf(
  request: APIRequestContext,
  username: string,
  opts: { secret?: string; fresh?: boolean } = {},
): Promise<Session> {
  const kept = opts.fresh ? undefined : sessions.get(username);
  if (kept) {
    const alive = await request.get('/api/v1/user/profile', { headers: { a1sledom: kept.token } });
    if (alive.ok()) return kept;
  }
  for (let attempt = 0; attempt < 4; attempt++) {
    const res = await request.post('/api/v1/auth/login', {
      data: { login: username, password: DEMO_PASSWORD },
    });
    expect(res.ok(), await res.text()).toBe(true);
    const body = (await res.json()) as Session & { twoFactor?: { challenge: string } };
    if (!body.twoFactor) return body;
    const second = await request.post('/api/v1/auth/2fa', {
      data: {
        challenge: body.twoFactor.challenge,
        code: await totpCode(opts.secret ?? DEMO_STAFF_TOTP_SECRET),
      },
    });
    if (second.ok()) {
      const session = (await second.json()) as Session;
      sessions.set(username, session);
      return session;
    }
    // This step's code was used by an earlier sign-in: wait for the next step.
    await new Promise((r) => setTimeout(r, 30_500 - (Date.now() % 30_000)));
  }
  throw new Error(`could not sign ${username} in with the second step`);
}

/** The demo super grants a role to an account (admin area, users list). */
export async function grantRoleByApi(request: APIRequestContext, user: unknown, role: string): Promise<void> {
  const { token } = await sessionOf(request, 'superadmin');
  const grant = await request.post(`/api/v1/admin/users/${(user as { _id: string })._id}/role`, {
    headers: { a1sledom: token },
    data: { role, grant: true },
  });
  expect(grant.ok(), await grant.text()).toBe(true);
}

/** Turns two-step sign-in on for a session through the API; answers the secret and recovery codes. */
export async function enableTotpByApi(
  request: APIRequestContext,
  token: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const headers = { a1sledom: token };
  const setup = await request.post('/api/v1/auth/2fa/totp/setup', { data: {}, headers });
  expect(setup.ok(), await setup.text()).toBe(true);
  const { secret } = (await setup.json()) as { secret: string };
  const enable = await request.post('/api/v1/auth/2fa/totp/enable', {
    data: { code: await totpCode(secret) },
    headers,
  });
  expect(enable.ok(), await enable.text()).toBe(true);
  return { secret, ...((await enable.json()) as { recoveryCodes: string[] }) };
}

/** Logs in through the API and stores the token as the app does, then opens `path`. */
export async function loginByApi(
  page: Page,
  request: APIRequestContext,
  username: string,
  pathname = '/',
): Promise<string> {
  const { token, user } = await sessionOf(request, username);
  await page.addInitScript(
    ([t, u]) => {
      window.localStorage.setItem('token', t as string);
      window.localStorage.setItem('user', JSON.stringify(u));
      window.localStorage.setItem('ageAccepted', 'confirm');
    },
    [token, user] as const,
  );
  await page.goto(pathname);
  return token;
}

/** Saves a named screenshot under e2e/artifacts/screens and attaches it to the report. */
export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** The newest mail to an address in the dev outbox. */
export async function newestMail(request: APIRequestContext, to: string): Promise<{ text: string }> {
  const res = await request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(to)}`);
  const { mails } = (await res.json()) as { mails: { text: string; createdAt: string }[] };
  const sorted = [...mails].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  if (!sorted[0]) throw new Error(`no mail to ${to}`);
  return sorted[0];
}

/**
 * Confirms a new account's email with the code of its confirmation mail (queued at signup: waits
 * for the job to send it), as the person would from the banner.
 */
export async function confirmEmailByApi(
  request: APIRequestContext,
  token: string,
  email: string,
): Promise<void> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
      const { mails } = (await res.json()) as { mails: { subject: string; text: string }[] };
      code = mails.map((m) => /: (\d{6})\n/.exec(m.text)?.[1]).find(Boolean);
      return code;
    })
    .toBeTruthy();
  const res = await request.post('/api/v1/auth/confirm-email', {
    data: { code },
    headers: { a1sledom: token },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** The phone and desktop viewports of every journey, screenshot and axe check (STYLE: 390 and 1280 px). */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Signs a new fan up through the API; the username is unique per run (letters and digits). */
export async function signUpFan(
  request: APIRequestContext,
  prefix: string,
  opts: { confirmEmail?: boolean } = {},
): Promise<{ token: string; user: unknown; username: string }> {
  const username = `${prefix}${Date.now().toString(36)}`.slice(0, 20);
  const res = await request.post('/api/v1/auth/signup', {
    data: {
      username,
      name: `E2E ${prefix}`,
      email: `${username}@example.com`,
      password: DEMO_PASSWORD,
      birthdate: '1995-05-05',
      acceptTerms: true,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const { token, user } = (await res.json()) as { token: string; user: unknown };
  if (opts.confirmEmail) {
    await confirmEmailByApi(request, token, `${username}@example.com`);
    const me = await request.get('/api/v1/user/profile', { headers: { a1sledom: token } });
    return { token, user: { ...(user as object), verified: (await me.json()).verified }, username };
  }
  return { token, user, username };
}

/** Opens `pathname` with an existing session token, as the app stores it. */
export async function openWithToken(
  page: Page,
  token: string,
  user: unknown,
  pathname: string,
): Promise<void> {
  await page.addInitScript(
    ([t, u]) => {
      window.localStorage.setItem('token', t as string);
      window.localStorage.setItem('user', JSON.stringify(u));
      window.localStorage.setItem('ageAccepted', 'confirm');
    },
    [token, user] as const,
  );
  await page.goto(pathname);
}

/** A screenshot once the open modals have finished their opening animation. */
export async function settledShot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await expect(page.locator('.modal:not(.is-open)')).toHaveCount(0);
  await page.waitForTimeout(400);
  await shot(page, testInfo, name);
}

/** On the sandbox billing page: screenshot (optional) and Approve, then back in the app. */
export async function approveOnBillingPage(page: Page, shotName?: string): Promise<void> {
  await expect(page).toHaveURL(/\/api\/v1\/payments\/sandbox\//);
  const approve = page.locator('button[name="decision"][value="approve"]');
  await expect(approve).toBeVisible();
  if (shotName) await shot(page, test.info(), shotName);
  await approve.click();
  await expect(page).not.toHaveURL(/\/payments\/sandbox\//);
}

/** No serious or critical axe finding on the page as it is now (a view the route table cannot reach). */
export async function expectAccessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

/**
 * Publishes a post of `token`'s creator holding one video and waits until its file is processed;
 * the post's id and its file's id (media.play's `:id`). The post still waits for review.
 */
export async function publishClipWithMedia(
  request: APIRequestContext,
  token: string,
  name: string,
  data: Buffer,
  visibility = 'free',
  extra: Record<string, string> = {},
): Promise<{ postId: string; mediaId: string }> {
  const res = await request.post('/api/v1/posts', {
    headers: { a1sledom: token },
    multipart: {
      message: `Video ${name}`,
      visibility,
      certifyAdults: 'true',
      certifyConsent: 'true',
      certifyTerms: 'true',
      ...extra,
      files: { name, mimeType: 'application/octet-stream', buffer: data },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const postId = ((await res.json()) as { post: PostsResponse['posts'][number] }).post._id;
  let mediaId = '';
  await expect
    .poll(
      async () => {
        const list = await request.get(`/api/v1/posts?post=${postId}`, { headers: { a1sledom: token } });
        const media = ((await list.json()) as PostsResponse).posts[0]?.media[0];
        mediaId = media?._id ?? '';
        return media?.status;
      },
      { timeout: 180_000, intervals: [500] },
    )
    .toBe('ready');
  return { postId, mediaId };
}

/** `publishClipWithMedia`, the post's id only. */
export async function publishClip(...args: Parameters<typeof publishClipWithMedia>): Promise<string> {
  return (await publishClipWithMedia(...args)).postId;
}

/** An administrator (`adminToken`) approves the post, as the review tab does. */
export async function approveByApi(request: APIRequestContext, adminToken: string, postId: string) {
  const review = await request.post('/api/v1/admin/post-review', {
    headers: { a1sledom: adminToken },
    data: { id: postId, adminStatus: 'approved' },
  });
  expect(review.ok(), await review.text()).toBe(true);
}

/**
 * Plays a video muted and waits until time advances and a frame has a size, through HLS (a blob:
 * MediaSource, not a plain file): the post's player on `page`, or the `<video>` given.
 */
export async function playsInPage(target: Page | Locator, timeout = 20_000) {
  const video = 'goto' in target ? target.getByTestId('video-player').locator('video').first() : target;
  await expect(video).toBeAttached();
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    void v.play().catch(() => undefined);
  });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => ({ t: v.currentTime > 0.3, w: v.videoWidth > 0 })), {
      timeout,
    })
    .toEqual({ t: true, w: true });
  expect(await video.evaluate((v: HTMLVideoElement) => v.currentSrc.startsWith('blob:'))).toBe(true);
}
