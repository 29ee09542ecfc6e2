import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { pushTestPattern } from '../../apps/server/test/rtmp-push.ts';
import { chromium } from '../chromium.ts';
import { RTMP_PORT } from '../playwright.config.ts';
import {
  approveOnBillingPage,
  DEMO_PASSWORD,
  DESKTOP,
  loginByApi,
  openWithToken,
  PHONE,
  shot,
  signUpFan,
} from './helpers.ts';

// Chromium's fake camera and microphone (a test pattern and a beep), allowed without a prompt.
test.use({
  launchOptions: {
    ...chromium,
    args: [...chromium.args, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
  permissions: ['camera', 'microphone'],
});

async function loginToken(request: APIRequestContext, username: string) {
  const res = await request.post('/api/v1/auth/login', {
    data: { login: username, password: DEMO_PASSWORD },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()) as { token: string; user: unknown };
}

/** Pays through the sandbox page (subscription or a credit bag), as a fan would. */
async function payInSandbox(
  page: Page,
  request: APIRequestContext,
  token: string,
  path: string,
  data: unknown,
) {
  const res = await request.post(`/api/v1${path}`, { data, headers: { a1sledom: token } });
  expect(res.ok(), await res.text()).toBe(true);
  const { redirectUrl } = (await res.json()) as { redirectUrl: string };
  await page.goto(redirectUrl);
  await approveOnBillingPage(page);
}

async function fanPage(browser: Browser, request: APIRequestContext, prefix: string) {
  const fan = await signUpFan(request, prefix);
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await openWithToken(page, fan.token, fan.user, '/');
  return { fan, page, context };
}

async function endAnyLive(request: APIRequestContext, token: string) {
  const res = await request.get('/api/v1/lives', { headers: { a1sledom: token } });
  const { lives } = (await res.json()) as { lives: { _id: string; creator: { user: string } }[] };
  for (const l of lives.filter((x) => x.creator.user === 'creator1'))
    await request.post(`/api/v1/lives/${l._id}/end`, { headers: { a1sledom: token } });
}

/** The video element plays: its currentTime moves forward. */
async function expectPlaying(page: Page) {
  const video = page.getByTestId('live-video');
  // The page itself may take a while to load on a busy machine; the 15 s below are the video's.
  await expect(video).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000, intervals: [500] })
    .toBeGreaterThan(0.5);
  const t1 = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await page.waitForTimeout(1500);
  expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(t1);
}

test('creator1 goes live from the browser; a subscriber watches, chats and tips; a stranger is offered to subscribe', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const creator = await loginToken(request, 'creator1');
  await endAnyLive(request, creator.token);
  // A subscribed fan with credits (through the sandbox payment pages), and a stranger.
  const sub = await fanPage(browser, request, 'livesub');
  await payInSandbox(sub.page, request, sub.fan.token, '/checkout/subscription', { creator: 'creator1' });
  await payInSandbox(sub.page, request, sub.fan.token, '/checkout/credits', { bag: 'bag-50' });
  const stranger = await fanPage(browser, request, 'livestr');
  // The subscriber is on the home feed when creator1 goes live.
  await sub.page.goto('/');
  await expect(sub.page.getByTestId('post-card').first()).toBeVisible({ timeout: 30_000 });

  // creator1: Go live with the fake camera.
  await page.setViewportSize(DESKTOP);
  await openWithToken(page, creator.token, creator.user, '/live/new');
  await expect(page.getByTestId('golive-preview')).toBeVisible();
  await expect
    .poll(() => page.getByTestId('golive-preview').evaluate((v: HTMLVideoElement) => v.videoWidth))
    .toBeGreaterThan(0);
  await page.getByLabel('Title').fill('Friday night live');
  await page.getByLabel('Goal (credits)').fill('100');
  await page.getByLabel('Goal for…').fill('new lights');
  await shot(page, test.info(), 'live-golive-desktop-en');
  await page.getByTestId('golive-start').click();
  await expect(page).toHaveURL(/\/live\/[0-9a-f-]{36}$/);
  const liveUrl = new URL(page.url()).pathname;
  await expect(page.getByTestId('live-own-preview')).toBeVisible();

  // The subscriber gets the pop-up (a job notifies followers and subscribers) and sees LIVE on
  // creator1's avatar in the feed.
  const popup = sub.page.getByTestId('notification-popup').filter({ hasText: 'creator1' });
  await expect(popup).toBeVisible({ timeout: 20_000 });
  await expect(popup.getByRole('link')).toHaveAttribute('href', liveUrl);
  const card = sub.page
    .getByTestId('post-card')
    .filter({ has: sub.page.locator('a[href="/creator1"]') })
    .first();
  await card.scrollIntoViewIfNeeded();
  const badge = card.getByTestId('live-badge');
  await expect(badge).toBeVisible();
  await expect(badge).toHaveText('Live');
  await expect(badge).toHaveAttribute('data-live', liveUrl.split('/').pop() ?? '');
  await shot(sub.page, test.info(), 'live-badge-feed-desktop-en');
  // And on creator1's profile, on a phone in Spanish.
  await sub.page.setViewportSize(PHONE);
  await sub.page.evaluate(() => window.localStorage.setItem('language', 'es'));
  await sub.page.goto('/creator1');
  // (The profile, its stories and the lives in progress load one after another on a busy machine.)
  await expect(sub.page.getByTestId('creator-header').getByTestId('live-badge')).toHaveText('En directo', {
    timeout: 30_000,
  });
  await expect(sub.page.getByTestId('story-bubble').first().getByTestId('live-badge')).toHaveText(
    'En directo',
  );
  await shot(sub.page, test.info(), 'live-badge-profile-phone-es');
  await sub.page.evaluate(() => window.localStorage.setItem('language', 'en'));
  await sub.page.setViewportSize(DESKTOP);

  // The subscriber sees the video playing within 15 s.
  await sub.page.goto(liveUrl);
  await expectPlaying(sub.page);
  // The creator is in the room too but is not counted.
  await expect(page.getByTestId('live-viewers')).toContainText('1 viewer');

  // Chat and a tip reach the creator's page, with the fan's name on the stream.
  // Sent with Enter (a new fan's page also has the e-mail banner's own "Send" button).
  await sub.page.getByTestId('live-chat-input').fill('Hello from the front row');
  await sub.page.getByTestId('live-chat-input').press('Enter');
  await expect(page.getByTestId('live-chat')).toContainText('Hello from the front row');
  await sub.page.getByTestId('tip-button').click();
  const dialog = sub.page.getByRole('dialog');
  await dialog.getByRole('button', { name: /^Send a tip of/ }).click();
  await expect(page.getByTestId('live-supports')).toContainText(`${sub.fan.username} tipped`);
  await expect(sub.page.getByTestId('live-supports')).toContainText(`${sub.fan.username} tipped`);
  await sub.page.keyboard.press('Escape');
  await shot(sub.page, test.info(), 'live-watch-desktop-en');
  await shot(page, test.info(), 'live-creator-desktop-en');

  // The stranger is refused and offered to subscribe; the playlist itself is refused too.
  await stranger.page.goto(liveUrl);
  await expect(stranger.page.getByTestId('live-refused')).toHaveAttribute('data-reason', 'subscribe');
  await expect(stranger.page.getByTestId('live-subscribe')).toBeVisible();
  const id = liveUrl.split('/').pop();
  // The subscriber's signed playlist URL is bound to the subscriber's session: refused to the stranger.
  const subLive = await request.get(`/api/v1/lives/${id}`, {
    headers: { authorization: `Bearer ${sub.fan.token}` },
  });
  const { playlist } = (await subLive.json()) as { playlist: string };
  expect(playlist).toMatch(/^\/api\/v1\/hls\/live\/[0-9a-f-]{36}\/live\/index\.m3u8\?sid=/);
  const refused = await request.get(playlist, {
    headers: { authorization: `Bearer ${stranger.fan.token}` },
  });
  expect(refused.status()).toBe(403);
  await shot(stranger.page, test.info(), 'live-refused-desktop-en');

  // Phone and Spanish.
  await sub.page.setViewportSize(PHONE);
  await sub.page.evaluate(() => window.localStorage.setItem('language', 'es'));
  await sub.page.reload();
  await expect(sub.page.getByTestId('live-video')).toBeVisible();
  await sub.page.waitForTimeout(1500);
  await shot(sub.page, test.info(), 'live-watch-phone-es');

  // The creator ends the live; the fan's page says so.
  await page.getByTestId('live-end').click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'End live' }).click();
  await expect(page.getByTestId('live-replay')).toBeVisible();
  await expect(sub.page.getByTestId('live-page')).toContainText(/terminado|ended/i);
  await shot(page, test.info(), 'live-ended-desktop-en');
  await sub.context.close();
  await stranger.context.close();
});

test('a ticketed live charges the ticket once', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const creator = await loginToken(request, 'creator1');
  await endAnyLive(request, creator.token);
  const fan = await fanPage(browser, request, 'liveticket');
  await payInSandbox(fan.page, request, fan.fan.token, '/checkout/credits', { bag: 'bag-50' });
  const start = await request.post('/api/v1/lives', {
    data: { title: 'Ticketed show', audience: 'ticket', ticketPrice: 20 },
    headers: { a1sledom: creator.token },
  });
  const { live } = (await start.json()) as { live: { _id: string } };
  const wallet = async () =>
    (
      (await (await request.get('/api/v1/wallet', { headers: { a1sledom: fan.fan.token } })).json()) as {
        credits: number;
      }
    ).credits;
  const before = await wallet();
  await fan.page.setViewportSize(PHONE);
  await fan.page.goto(`/live/${live._id}`);
  const buy = fan.page.getByTestId('live-buy-ticket');
  await expect(buy).toContainText('20 credits');
  await shot(fan.page, test.info(), 'live-ticket-phone-en');
  await buy.dblclick();
  await expect(fan.page.getByTestId('live-refused')).toHaveCount(0);
  await fan.page.reload();
  await expect(fan.page.getByTestId('live-buy-ticket')).toHaveCount(0);
  expect(before - (await wallet())).toBe(20);
  // An admin sees the lives in progress and ends this one; the fan's page says it ended.
  // (loginByApi: the staff account may have a second step since accounts' two-factor sign-in.)
  await page.setViewportSize(DESKTOP);
  await loginByApi(page, request, 'superadmin', '/live');
  const item = page.locator('.lives__item').filter({ hasText: 'Ticketed show' });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await shot(page, test.info(), 'live-admin-list-desktop-en');
  await item.getByTestId('lives-end').click();
  await expect(item).toHaveCount(0);
  await expect(fan.page.getByTestId('live-page')).toContainText(/ended|terminado/i, { timeout: 15_000 });
  await fan.context.close();
});

test('an RTMP push of a test pattern with the stream key is watched in Chromium; a wrong key is refused', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const creator = await loginToken(request, 'creator1');
  await endAnyLive(request, creator.token);
  const headers = { a1sledom: creator.token };
  const { key } = (await (await request.post('/api/v1/lives/key', { headers })).json()) as { key: string };
  const start = await request.post('/api/v1/lives', {
    data: { title: 'OBS show', audience: 'everyone', source: 'rtmp' },
    headers,
  });
  const { live } = (await start.json()) as { live: { _id: string } };
  const push = (streamKey: string, seconds: number) => {
    const p = pushTestPattern(`rtmp://127.0.0.1:${RTMP_PORT}/live/${streamKey}`, seconds);
    return {
      done: new Promise<number>((resolve) => p.on('close', (code) => resolve(code ?? 1))),
      kill: () => p.kill(),
    };
  };
  expect(await push('fv_wrong-key', 5).done).not.toBe(0);
  const obs = push(key, 40);
  try {
    const fan = await fanPage(browser, request, 'liveobs');
    await fan.page.goto(`/live/${live._id}`);
    await expectPlaying(fan.page);
    await shot(fan.page, test.info(), 'live-obs-desktop-en');
    await fan.context.close();
  } finally {
    obs.kill();
    await request.post(`/api/v1/lives/${live._id}/end`, { headers });
  }
});
