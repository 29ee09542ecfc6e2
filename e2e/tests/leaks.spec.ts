import { type APIRequestContext, expect, test } from '@playwright/test';
import { DEMO_PASSWORD, DESKTOP, openWithToken, PHONE, shot } from './helpers.ts';

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

test('a creator traces a leaked copy to the fan it was served to and files the complaint', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const copy = await leakedCopy(request);
  const creator = await session(request, 'creator3');
  await page.setViewportSize(DESKTOP);
  await openWithToken(page, creator.token, creator.user, '/leaks');
  const tracer = page.getByTestId('leak-tracer');
  await tracer
    .getByTestId('leak-file')
    .setInputFiles({ name: 'found.webp', mimeType: 'image/webp', buffer: copy });
  await tracer.getByTestId('leak-trace').click();
  await expect(tracer.getByTestId('leak-fan')).toContainText('@fanuser1', { timeout: 60_000 });
  await expect(tracer.getByTestId('leak-confidence')).toContainText('%');
  await tracer.getByTestId('leak-complain').click();
  await expect(tracer.getByTestId('leak-complaint-filed')).toBeVisible();
  await shot(page, test.info(), 'leaks-traced-desktop');
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
