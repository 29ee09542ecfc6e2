import { type APIRequestContext, type Browser, expect, type Locator, test } from '@playwright/test';
import {
  approveByApi,
  DESKTOP,
  openWithToken,
  PHONE,
  playsInPage,
  publishClipWithMedia,
  sessionOf,
  shot,
  testClip,
} from './helpers.ts';

/**
 * ADR 0043: stories and messages play videos through the same protected HLS player as posts (the
 * fan's own marked segments; the file itself is never sent). A fan plays a story video and, after
 * unlocking it, a paid message's video, at 1280 px in English and 390 px in Spanish.
 */
/** A story of creator1 with a video, processed and approved; answers its id and its file's id. */
async function videoStory(request: APIRequestContext, token: string, adminToken: string) {
  const { postId: storyId, mediaId } = await publishClipWithMedia(
    request,
    token,
    'clip.mp4',
    testClip({ seconds: 12 }),
    'free',
    {
      kind: 'story',
      message: 'Story clip',
    },
  );
  await approveByApi(request, adminToken, storyId);
  return { storyId, mediaId };
}

/** The creator, an administrator and the fan of these journeys, signed in by API. */
async function people(request: APIRequestContext) {
  return {
    creator: await sessionOf(request, 'creator1'),
    admin: await sessionOf(request, 'superadmin'),
    fan: await sessionOf(request, 'fanuser1'),
  };
}

/** creator1 sends fanuser1 `text` with the vault file `mediaId` (`price` 0: free). */
async function sendClip(
  request: APIRequestContext,
  token: string,
  mediaId: string,
  text: string,
  price: number,
) {
  const sent = await request.post('/api/v1/message/send', {
    headers: { a1sledom: token },
    data: { to: 'fanuser1', message: text, messageUUID: crypto.randomUUID(), price, vaultMedia: [mediaId] },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
}

/** A page in a context of its own at `viewport`, the app in `lang` (open it with openWithToken). */
async function pageAt(browser: Browser, viewport: typeof DESKTOP, lang: 'en' | 'es') {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.addInitScript((l) => window.localStorage.setItem('language', l), lang);
  return { context, page };
}

test('a fan plays a story video and a paid message video through the marked player, en 1280 and es 390', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const { creator, admin, fan } = await people(request);
  const { storyId, mediaId } = await videoStory(request, creator.token, admin.token);

  for (const [viewport, lang] of [
    [DESKTOP, 'en'],
    [PHONE, 'es'],
  ] as const) {
    const text = `Paid clip ${lang} ${Date.now().toString(36)}`;
    await sendClip(request, creator.token, mediaId, text, 5);
    const { context, page } = await pageAt(browser, viewport, lang);
    // Every media file the page asks for: none may be the video's MP4.
    const files: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes(`/media/${mediaId}/`)) files.push(r.url());
    });

    // The story: autoplays muted in the story viewer, through the player.
    await openWithToken(page, fan.token, fan.user, `/?story_view=creator1:${storyId}`);
    const viewer = page.getByTestId('story-viewer');
    await expect(viewer).toBeVisible();
    const storyVideo = viewer.getByTestId('video-player').locator('video');
    await expect(storyVideo).toBeAttached({ timeout: 30_000 });
    await expect
      .poll(() => storyVideo.evaluate((v: HTMLVideoElement) => v.currentTime > 0.3 && v.videoWidth > 0), {
        timeout: 30_000,
      })
      .toBe(true);
    await playsInPage(storyVideo, 30_000);
    await shot(page, test.info(), `story-video-${viewport.width}-${lang}`);

    // The paid message: locked, unlocked with credits, then it plays in the bubble.
    await page.goto('/?messages=creator1');
    const bubble = page.getByTestId('chat-message').filter({ hasText: text });
    await expect(bubble.getByTestId('chat-unlock')).toBeVisible({ timeout: 30_000 });
    await expect(bubble.getByTestId('video-player')).toHaveCount(0);
    await bubble.getByTestId('chat-unlock').click();
    const messageVideo = bubble.getByTestId('video-player').locator('video');
    await playsInPage(messageVideo, 30_000);
    await messageVideo.evaluate((v: HTMLVideoElement) => v.pause());
    await shot(page, test.info(), `message-video-${viewport.width}-${lang}`);
    expect(files.filter((u) => /\/(web|original)\?/.test(u))).toEqual([]);
    await context.close();
  }
});

/**
 * Every scrubber a viewer sees in `scope`: a `<video>` showing its native controls counts one (its
 * timeline), and so does each visible range, progress bar or slider drawn by the page.
 */
function visibleScrubbers(scope: Locator): Promise<number> {
  return scope.evaluate((root) => {
    const shown = (el: Element) => {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    const native = Array.from(root.querySelectorAll('video')).filter((v) => v.controls && shown(v)).length;
    const drawn = Array.from(
      root.querySelectorAll('input[type="range"], progress, [role="slider"], [role="progressbar"]'),
    ).filter(shown).length;
    return native + drawn;
  });
}

test('a message bubble with a video shows one scrubber, at 1280 and 390 px in en and es', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const { creator, admin, fan } = await people(request);
  // A clip long enough to have a seek sprite (the player's seek strip needs one).
  const { mediaId } = await videoStory(request, creator.token, admin.token);
  const text = `One scrubber ${Date.now().toString(36)}`;
  await sendClip(request, creator.token, mediaId, text, 0);

  for (const viewport of [DESKTOP, PHONE]) {
    for (const lang of ['en', 'es'] as const) {
      const { context, page } = await pageAt(browser, viewport, lang);
      await openWithToken(page, fan.token, fan.user, '/?messages=creator1');
      const bubble = page.getByTestId('chat-message').filter({ hasText: text });
      const video = bubble.getByTestId('video-player').locator('video');
      // Played, and the page's lazy parts loaded: whatever the player draws once the stream is
      // known (a seek strip) is there.
      await playsInPage(video, 30_000);
      await video.evaluate((v: HTMLVideoElement) => v.pause());
      await page.waitForLoadState('networkidle');
      expect(await visibleScrubbers(bubble)).toBe(1);
      await bubble.scrollIntoViewIfNeeded();
      await shot(page, test.info(), `message-bubble-video-${viewport.width}-${lang}`);
      await context.close();
    }
  }
});

test('the story viewer has a sound button: unmutes, is remembered from story to story, hold still pauses', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const { creator, admin, fan } = await people(request);
  // Two video stories: the viewer opens the newer one, whose next is the older.
  const older = await videoStory(request, creator.token, admin.token);
  const newer = await videoStory(request, creator.token, admin.token);
  const label = { en: 'Sound', es: 'Sonido' } as const;

  for (const viewport of [DESKTOP, PHONE]) {
    for (const lang of ['en', 'es'] as const) {
      const { context, page } = await pageAt(browser, viewport, lang);
      await openWithToken(page, fan.token, fan.user, `/?story_view=creator1:${newer.storyId}`);
      const viewer = page.getByTestId('story-viewer');
      const frame = viewer.locator('.story-viewer__frame');
      const video = viewer.getByTestId('video-player').locator('video');
      await expect(video).toHaveAttribute('data-media-id', newer.mediaId);
      const sound = viewer.getByTestId('story-sound');
      await expect(sound).toBeVisible();
      await expect(sound).toHaveAccessibleName(label[lang]);
      await expect(sound).toHaveAttribute('aria-pressed', 'false');
      expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);

      // Top right of the picture, above the tap zones (what is under its centre is the button).
      const box = await sound.boundingBox();
      const area = await frame.boundingBox();
      if (!box || !area) throw new Error('no sound button or frame');
      expect(box.x + box.width / 2).toBeGreaterThan(area.x + area.width / 2);
      expect(box.y + box.height / 2).toBeLessThan(area.y + area.height / 4);
      expect(
        await sound.evaluate((button) => {
          const r = button.getBoundingClientRect();
          const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return !!hit && button.contains(hit);
        }),
      ).toBe(true);
      const index = await viewer.getAttribute('data-index');
      await shot(page, test.info(), `story-sound-off-${viewport.width}-${lang}`);

      // A press unmutes, without moving to another story or pausing.
      await sound.click();
      await expect(sound).toHaveAttribute('aria-pressed', 'true');
      expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);
      await expect(viewer).toHaveAttribute('data-index', index ?? '');
      await expect(viewer.locator('.story-viewer__fill.is-paused')).toHaveCount(0);
      await shot(page, test.info(), `story-sound-on-${viewport.width}-${lang}`);

      // The next story plays with sound too: the choice holds for this viewing.
      await viewer.getByTestId('story-next').click();
      await expect(video).toHaveAttribute('data-media-id', older.mediaId);
      await expect(sound).toHaveAttribute('aria-pressed', 'true');
      expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);

      // Holding the picture pauses the story and its video; letting go plays them again.
      const fills = viewer.locator('.story-viewer__fill.is-paused');
      const playing = () => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0);
      await expect.poll(playing, { timeout: 30_000 }).toBe(true);
      await frame.dispatchEvent('pointerdown', { pointerId: 1, clientX: area.x + 10, clientY: area.y + 200 });
      await expect(fills.first()).toBeAttached();
      await expect.poll(playing).toBe(false);
      const heldAt = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
      await page.waitForTimeout(500);
      expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBe(heldAt);
      await frame.dispatchEvent('pointerup', { pointerId: 1, clientX: area.x + 10, clientY: area.y + 200 });
      await expect(fills).toHaveCount(0);
      await expect.poll(playing).toBe(true);

      // Pressed again: muted.
      await sound.click();
      await expect(sound).toHaveAttribute('aria-pressed', 'false');
      expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
      await context.close();
    }
  }
});
