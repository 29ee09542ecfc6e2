import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, type TestInfo } from '@playwright/test';

export const DEMO_PASSWORD = 'fanverse-demo';
export const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts/screens');

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

/** Logs in through the API and stores the token as the app does, then opens `path`. */
export async function loginByApi(
  page: Page,
  request: APIRequestContext,
  username: string,
  pathname = '/',
): Promise<string> {
  const res = await request.post('/api/v1/auth/login', {
    data: { login: username, password: DEMO_PASSWORD },
  });
  expect(res.ok()).toBe(true);
  const { token, user } = (await res.json()) as { token: string; user: unknown };
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

export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 800 };

/** Signs a new fan up through the API; the username is unique per run (letters and digits). */
export async function signUpFan(
  request: APIRequestContext,
  prefix: string,
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
