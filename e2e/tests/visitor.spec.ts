import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import {
  acceptAge,
  approveByApi,
  DESKTOP,
  PHONE,
  playsInPage,
  publishClipWithMedia,
  sessionOf,
  shot,
  testClip,
} from './helpers.ts';

/** The viewer of visitors' signed picture URLs (ADR 0038; `EVERYONE` in access/media.ts). */
const EVERYONE = '00000000-0000-0000-0000-000000000000';
const run = Date.now().toString(36);

test('a visitor sees free stories on the home page, opens them, and never gets locked media', async ({
  page,
  request,
}, info) => {
  test.setTimeout(180_000);
  // A subscribers-only story of creator2, approved: it must never reach a visitor.
  const creator = await sessionOf(request, 'creator2');
  const c = Date.now() % 200;
  const created = await request.post('/api/v1/posts', {
    headers: { a1sledom: creator.token },
    multipart: {
      message: `For subscribers ${run}`,
      kind: 'story',
      visibility: 'subscribers',
      certifyAdults: 'true',
      certifyConsent: 'true',
      certifyTerms: 'true',
      files: {
        name: `locked-${run}.jpg`,
        mimeType: 'image/jpeg',
        buffer: await sharp({
          create: { width: 360, height: 640, channels: 3, background: { r: c, g: 40, b: 200 - c } },
        })
          .jpeg()
          .toBuffer(),
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const lockedId = ((await created.json()) as { post: { _id: string } }).post._id;
  const admin = await sessionOf(request, 'superadmin');
  // Reviewed once its picture is processed (a post still processing cannot be approved yet).
  await expect
    .poll(
      async () =>
        (
          await request.post('/api/v1/admin/post-review', {
            headers: { a1sledom: admin.token },
            data: { id: lockedId, adminStatus: 'approved' },
          })
        ).status(),
      { timeout: 60_000 },
    )
    .toBe(200);

  // The API, as a visitor: free stories only, every creator's and creator2's.
  for (const query of ['', '?creator=creator2']) {
    const res = await request.get(`/api/v1/stories${query}`);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { stories: { _id: string; visibility: string }[] };
    expect(body.stories.length).toBeGreaterThan(0);
    expect(body.stories.every((s) => s.visibility === 'free')).toBe(true);
    expect(JSON.stringify(body)).not.toContain(lockedId);
  }

  // Every media file the visitor's browser asks for is a blurred preview or a visitors' copy.
  // `/media/:id/play` is the player asking which files it may load (free videos of other tests
  // can be on the home page): not a file itself; the files it names are checked like the rest.
  const media: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (url.includes('/api/v1/media/') && !/\/api\/v1\/media\/[^/?]+\/play(\?|$)/.test(url)) {
      media.push(url);
    }
  });
  await acceptAge(page);
  for (const lang of ['en', 'es'] as const) {
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.addInitScript((l) => window.localStorage.setItem('language', l), lang);
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      const row = page.getByTestId('visitor-stories');
      await expect(row).toBeVisible();
      await expect(row).toHaveAttribute('aria-label', lang === 'en' ? 'Stories' : 'Historias');
      await expect(row.locator('img').first()).toHaveJSProperty('complete', true);
      const card = page.getByTestId('visitor-feed').getByTestId('post-card').first();
      await expect(card).toBeVisible();
      // A post reads as in every feed, not centred like the landing's copy around it.
      await expect(card).toHaveCSS('text-align', 'start');
      await shot(page, info, `visitor-home-${lang}-${size}`);

      await row.getByTestId('story-bubble').first().click();
      const viewer = page.getByTestId('story-viewer');
      await expect(viewer).toBeVisible();
      // The first story is a picture or a video (other tests publish free story clips): either
      // shows real pixels to the visitor.
      const frame = viewer.locator('.story-viewer__frame > img, .story-viewer__frame video').first();
      await expect(frame).toBeVisible();
      await expect
        .poll(() =>
          frame.evaluate((el: HTMLImageElement | HTMLVideoElement) =>
            el instanceof HTMLVideoElement ? el.videoWidth : el.naturalWidth,
          ),
        )
        .toBeGreaterThan(0);
      await expect(viewer.locator('.story-viewer__locked')).toHaveCount(0);
      await shot(page, info, `visitor-story-${lang}-${size}`);
      await page.keyboard.press('Escape');
      await expect(viewer).toBeHidden();
    }
  }
  expect(media.length).toBeGreaterThan(0);
  const private_ = media.filter(
    (u) => !/\/blur\?/.test(u) && !u.includes(`fan=${EVERYONE}`) && !/\/web\?/.test(u),
  );
  expect(private_).toEqual([]);
});

test('a visitor plays a long free video (longer than the MP4 fallback) through the HLS player', async ({
  page,
  request,
}, info) => {
  test.setTimeout(300_000);
  // 66 s: past the 60 s MP4 fallback limit (ADR 0021), so only HLS can play it.
  const creator = await sessionOf(request, 'creator2');
  const { postId, mediaId } = await publishClipWithMedia(
    request,
    creator.token,
    'long.mp4',
    testClip({ seconds: 66, rate: 10, audio: false }),
  );
  const admin = await sessionOf(request, 'superadmin');
  await approveByApi(request, admin.token, postId);

  // As a visitor: no MP4 for a long video, an HLS master signed for everyone.
  const play = (await (await request.get(`/api/v1/media/${mediaId}/play`)).json()) as {
    hls: string | null;
    mp4: string | null;
    duration: number;
  };
  expect(play.mp4).toBeNull();
  expect(play.duration).toBeGreaterThan(60);
  expect(play.hls).toContain(`sid=${EVERYONE}`);

  const hlsRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/hls/')) hlsRequests.push(r.url());
  });
  await acceptAge(page);
  for (const [lang, viewport, size] of [
    ['en', DESKTOP, 1280],
    ['es', PHONE, 390],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.addInitScript((l) => window.localStorage.setItem('language', l), lang);
    await page.goto(`/post/${postId}`);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    // Plays through HLS (a MediaSource blob), and past the first minute: the long part plays too.
    await playsInPage(page);
    const video = page.getByTestId('video-player').locator('video').first();
    await video.evaluate((v: HTMLVideoElement) => {
      v.currentTime = 61;
    });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
      .toBeGreaterThan(61.5);
    await video.evaluate((v: HTMLVideoElement) => v.pause());
    await shot(page, info, `visitor-long-video-${lang}-${size}`);
  }
  // Playlists and keys were asked with the visitors' signature only (no session exists).
  const signed = hlsRequests.filter((u) => /\/(master|index)\.m3u8|\/key\?/.test(u));
  expect(signed.length).toBeGreaterThan(0);
  expect(signed.every((u) => u.includes(`sid=${EVERYONE}`))).toBe(true);
});
