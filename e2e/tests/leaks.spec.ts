import { execFileSync } from 'node:child_process';
import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  approveByApi,
  DEMO_PASSWORD,
  DESKTOP,
  expectAccessible,
  openWithToken,
  PHONE,
  publishClipWithMedia,
  sessionOf,
  shot,
  testClip,
} from './helpers.ts';

test.describe.configure({ mode: 'serial' });

async function session(request: APIRequestContext, login: string) {
  const res = await request.post('/api/v1/auth/login', { data: { login, password: DEMO_PASSWORD } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as { token: string; user: unknown };
}

/** A picture of creator3's that fanuser1 can see, as fanuser1's marked copy. */
async function leakedCopy(request: APIRequestContext): Promise<Buffer> {
  const fan = await session(request, 'fanuser1');
  const res = await request.get('/api/v1/posts?creator=creator3', { headers: { a1sledom: fan.token } });
  const { posts } = (await res.json()) as { posts: { media: { type: string; src: string | null }[] }[] };
  const src = posts.flatMap((p) => p.media).find((m) => m.type === 'image' && m.src)?.src;
  expect(src, 'a picture of creator3 visible to fanuser1').toBeTruthy();
  const copy = await request.get(src!);
  expect(copy.ok()).toBe(true);
  return Buffer.from(await copy.body());
}

/** Holds the page's polls of a trace (GET /api/v1/leaks/<id>) until the answered function is called. */
async function holdPolls(page: Page): Promise<() => void> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/api\/v1\/leaks\/[0-9a-f-]{36}$/, async (route) => {
    if (route.request().method() === 'GET') await gate;
    await route.continue();
  });
  return release;
}

const TRACING = { en: 'Tracing…', es: 'Rastreando…' } as const;

test('a creator traces a leaked copy: "Tracing…", then the fan when the poll says done (socket down); en and es, phone and desktop; it survives a reload', async ({
  context,
  request,
}) => {
  test.setTimeout(180_000);
  const copy = await leakedCopy(request);
  const creator = await session(request, 'creator3');
  const runs = [
    [DESKTOP, 'en', 'desktop'],
    [PHONE, 'es', 'phone'],
    [PHONE, 'en', 'phone'],
    [DESKTOP, 'es', 'desktop'],
  ] as const;
  for (const [size, language, device] of runs) {
    const page = await context.newPage();
    await page.setViewportSize(size);
    // The English phone run in the dark scheme: the card and the list read in both.
    await page.emulateMedia({ colorScheme: language === 'en' && device === 'phone' ? 'dark' : 'light' });
    await page.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
    // No socket: the page must learn the result from its polls alone.
    await page.routeWebSocket(/\/api\/v1\/socket\//, () => {});
    const release = await holdPolls(page);
    await openWithToken(page, creator.token, creator.user, '/leaks');
    const tracer = page.getByTestId('leak-tracer');
    await tracer
      .getByTestId('leak-file')
      .setInputFiles({ name: 'found.webp', mimeType: 'image/webp', buffer: copy });
    await tracer.getByTestId('leak-trace').click();
    const tracing = tracer.getByTestId('leak-tracing');
    await expect(tracing).toContainText(TRACING[language]);
    await expect(tracing.locator('.spinner')).toBeVisible();
    await expect(page).toHaveURL(/[?&]trace=[0-9a-f-]{36}/);
    await tracing.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, test.info(), `leaks-tracing-${language}-${device}`);
    await expectAccessible(page);
    release();
    await expect(tracer.getByTestId('leak-fan')).toContainText('@fanuser1', { timeout: 60_000 });
    await expect(tracer.getByTestId('leak-confidence')).toContainText(language === 'es' ? ' %' : '%');
    await tracer.getByTestId('leak-result').scrollIntoViewIfNeeded();
    await shot(page, test.info(), `leaks-traced-${language}-${device}`);
    await expectAccessible(page);
    if (device === 'desktop' && language === 'en') {
      await tracer.getByTestId('leak-complain').click();
      await expect(tracer.getByTestId('leak-complaint-filed')).toBeVisible();
      // A reload shows the same trace (it is in the address) and lists it among the recent ones.
      await page.reload();
      await expect(tracer.getByTestId('leak-fan')).toContainText('@fanuser1');
      await expect(tracer.getByTestId('leak-complaint-filed')).toBeVisible();
      await expect(tracer.getByTestId('leak-recent-item').first()).toContainText('found.webp');
      await expect(tracer.locator('[data-testid="leak-recent-item"][aria-current="true"]')).toHaveCount(1);
    }
    await page.close();
  }
});

test('in Spanish on a phone: a copy without a mark names nobody; the visible-mark switch', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const creator = await session(request, 'creator3');
  await page.setViewportSize(PHONE);
  await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
  await openWithToken(page, creator.token, creator.user, '/leaks');
  const tracer = page.getByTestId('leak-tracer');
  await expect(tracer.getByRole('heading', { name: 'Rastreo de filtraciones' })).toBeVisible();
  // An unmarked picture: a plain PNG drawn here.
  const unmarked = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 400;
    canvas.height = 300;
    const ctx = canvas.getContext('2d')!;
    const g = ctx.createLinearGradient(0, 0, 400, 300);
    g.addColorStop(0, '#336699');
    g.addColorStop(1, '#cc9933');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, 400, 300);
    const blob = await new Promise<Blob>((r) => canvas.toBlob((b) => r(b!), 'image/png'));
    return Array.from(new Uint8Array(await blob.arrayBuffer()));
  });
  await tracer
    .getByTestId('leak-file')
    .setInputFiles({ name: 'otra.png', mimeType: 'image/png', buffer: Buffer.from(unmarked) });
  await tracer.getByTestId('leak-trace').click();
  await expect(tracer.getByTestId('leak-result')).toContainText('No se ha encontrado', { timeout: 60_000 });
  await tracer.getByTestId('leak-result').scrollIntoViewIfNeeded();
  await shot(page, test.info(), 'leaks-none-es-phone');

  // The visible mark, switched on and off again in the creator's profile.
  await page.goto('/?feed=my-profile');
  const mark = page.getByTestId('visible-mark');
  await mark.scrollIntoViewIfNeeded();
  await mark.getByTestId('visible-mark-switch').check();
  await expect(mark.getByTestId('visible-mark-saved')).toHaveText('La marca visible está activada.');
  await shot(page, test.info(), 'visible-mark-es-phone');
  await mark.getByTestId('visible-mark-switch').uncheck();
  await expect(mark.getByTestId('visible-mark-saved')).toHaveText('La marca visible está desactivada.');
});

/**
 * A video of creator3's (ADR 0041), played by fanuser1 as a player does (playlist, key, segments),
 * decrypted, re-encoded at half size: the copy a fan would leak.
 */
async function leakedVideo(request: APIRequestContext, dir: string): Promise<Buffer> {
  const creator = await session(request, 'creator3');
  const admin = await sessionOf(request, 'superadmin');
  const { postId, mediaId } = await publishClipWithMedia(
    request,
    creator.token,
    'clip.mp4',
    testClip({ seconds: 20, audio: false }),
    'free',
    { message: 'A marked clip' },
  );
  await approveByApi(request, admin.token, postId);
  const fan = await session(request, 'fanuser1');
  const headers = { a1sledom: fan.token };
  const play = (await (await request.get(`/api/v1/media/${mediaId}/play`, { headers })).json()) as {
    hls: string;
    mp4: string | null;
  };
  expect(play.mp4, 'a fan never gets the unmarked MP4').toBeNull();
  const master = await (await request.get(play.hls, { headers })).text();
  const variant = master.split('\n').find((l) => l && !l.startsWith('#')) as string;
  const playlist = await (await request.get(variant, { headers })).text();
  const key = await (await request.get(/URI="([^"]+)"/.exec(playlist)?.[1] as string, { headers })).body();
  const iv = Buffer.from(/IV=0x([0-9a-f]+)/i.exec(playlist)?.[1] as string, 'hex');
  const parts: Buffer[] = [];
  for (const url of playlist.split('\n').filter((l) => l && !l.startsWith('#'))) {
    const d = createDecipheriv('aes-128-cbc', key, iv);
    parts.push(d.update(await (await request.get(url)).body()), d.final());
  }
  const stream = path.join(dir, 'stream.ts');
  fs.writeFileSync(stream, Buffer.concat(parts));
  const copy = path.join(dir, 'copy.mp4');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-i', stream, '-vf', 'scale=trunc(iw/4)*2:trunc(ih/4)*2'],
    ...['-c:v', 'libx264', '-b:v', '120k', copy],
  ]);
  return fs.readFileSync(copy);
}

test('a leaked video: "Tracing…" while the job reads it, then the fan from the socket event alone; en on desktop and es on a phone', async ({
  context,
  request,
}) => {
  test.setTimeout(300_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-e2e-leak-video-'));
  const copy = await leakedVideo(request, dir);
  fs.rmSync(dir, { recursive: true, force: true });
  const creator = await session(request, 'creator3');
  for (const [size, language, name] of [
    [DESKTOP, 'en', 'leaks-video-desktop'],
    [PHONE, 'es', 'leaks-video-es-phone'],
  ] as const) {
    const page = await context.newPage();
    await page.setViewportSize(size);
    await page.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
    // Polls never answer: the result can only come from the worker's socket event.
    await holdPolls(page);
    await openWithToken(page, creator.token, creator.user, '/leaks');
    const tracer = page.getByTestId('leak-tracer');
    await tracer
      .getByTestId('leak-file')
      .setInputFiles({ name: 'found.mp4', mimeType: 'video/mp4', buffer: copy });
    await expect(tracer.getByTestId('leak-preview-video')).toBeVisible();
    await tracer.getByTestId('leak-trace').click();
    await expect(tracer.getByTestId('leak-fan').or(tracer.getByTestId('leak-tracing'))).toBeVisible();
    await expect(tracer.getByTestId('leak-fan')).toContainText('@fanuser1', { timeout: 90_000 });
    await expect(tracer.getByTestId('leak-confidence')).toContainText(language === 'es' ? ' %' : '%');
    await tracer.getByTestId('leak-result').scrollIntoViewIfNeeded();
    await shot(page, test.info(), name);
    await page.close();
  }
});
