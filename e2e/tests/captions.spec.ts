import { expect, type Page, test } from '@playwright/test';
import { DESKTOP, loginByApi, PHONE, shot, testClip } from './helpers.ts';

/**
 * Issue 16 / ADR 0037: a creator adds a WebVTT captions track to a video in the post editor; the
 * player shows it as a <track> with a captions menu, and the seek strip previews the frame under
 * the pointer (the thumbnail sprite made at transcode time).
 */
const VTT = 'WEBVTT\n\n00:00.000 --> 00:05.500\nHello from the captions\n';

const video = (page: Page) => page.getByTestId('video-player').locator('video').first();

test.describe('captions and seek preview', () => {
  test.describe.configure({ timeout: 300_000 });

  test('a creator uploads a video with a .vtt; the player shows its cue and the seek preview', async ({
    page,
    request,
  }, info) => {
    const clip = testClip({ seconds: 6 });
    const token = await loginByApi(page, request, 'creator1', '/post/create');
    await expect(page.getByTestId('post-editor')).toBeVisible();
    await page.getByTestId('editor-message').fill(`Captioned clip ${Date.now()}`);
    await page
      .getByTestId('editor-files')
      .setInputFiles({ name: 'captioned.mp4', mimeType: 'video/mp4', buffer: clip });
    const captions = page.getByTestId('editor-captions');
    await expect(captions).toBeVisible();
    // Not WebVTT: refused in the browser with the catalogue's text, naming the file.
    await captions
      .getByTestId('editor-captions-file')
      .setInputFiles({ name: 'notes.vtt', mimeType: 'text/vtt', buffer: Buffer.from('just some notes') });
    await expect(captions.getByTestId('editor-captions-error')).toHaveText(
      'The file notes.vtt is not supported',
    );
    await captions.getByTestId('editor-captions-language').selectOption('en');
    await captions
      .getByTestId('editor-captions-file')
      .setInputFiles({ name: 'captioned.en.vtt', mimeType: 'text/vtt', buffer: Buffer.from(VTT) });
    await expect(captions.getByTestId('editor-captions-chosen')).toContainText('captioned.en.vtt (English)');
    await expect(captions.getByTestId('editor-captions-error')).toHaveCount(0);
    await page.getByTestId('editor-visibility-free').check();
    await page.getByTestId('editor-cert-adults').check();
    await page.getByTestId('editor-cert-consent').check();
    await page.getByTestId('editor-cert-terms').check();
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await captions.scrollIntoViewIfNeeded();
      await shot(page, info, `editor-captions-${viewport.width}-en`);
    }
    await page.getByTestId('editor-submit').click();
    await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    const postId = page.url().split('/').pop() ?? '';
    // The worker transcodes it; the track was stored with the media.
    await expect
      .poll(
        async () => {
          const list = await request.get(`/api/v1/posts?post=${postId}`, { headers: { a1sledom: token } });
          const media = (
            (await list.json()) as { posts: { media: { status: string; captions: string[] }[] }[] }
          ).posts[0]?.media[0];
          return media && `${media.status} ${media.captions.join(',')}`;
        },
        { timeout: 120_000, intervals: [500] },
      )
      .toBe('ready en');

    for (const lang of ['en', 'es'] as const) {
      await page.addInitScript((l) => window.localStorage.setItem('language', l), lang);
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await page.goto(`/post/${postId}`);
        const player = page.getByTestId('video-player');
        const v = video(page);
        await expect(v.locator('track')).toHaveCount(1);
        await player.getByTestId('video-captions').selectOption('en');
        await v.evaluate((el: HTMLVideoElement) => {
          el.muted = true;
          void el.play();
        });
        // The cue of the creator's file is active while the video plays.
        await expect
          .poll(
            () =>
              v.evaluate((el: HTMLVideoElement) => {
                const track = el.textTracks[0];
                const cue = track?.activeCues?.[0] as VTTCue | undefined;
                return { mode: track?.mode, playing: el.currentTime > 0.3, cue: cue?.text ?? null };
              }),
            { timeout: 30_000 },
          )
          .toEqual({ mode: 'showing', playing: true, cue: 'Hello from the captions' });
        await v.evaluate((el: HTMLVideoElement) => el.pause());
        // Hovering the seek strip shows the frame of that moment from the sprite.
        const seek = player.getByTestId('video-seek');
        await expect(seek).toBeVisible();
        const box = await seek.boundingBox();
        if (!box) throw new Error('no seek strip');
        await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
        const preview = player.getByTestId('video-seek-preview');
        await expect(preview).toBeVisible();
        await expect(preview).toHaveAttribute('style', /sprite/);
        await expect(preview).toContainText('0:04');
        // The sprite the preview draws from is served to this entitled viewer.
        const sprite = await preview.evaluate(
          (el) => /url\("([^"]+)"\)/.exec(el.style.backgroundImage)?.[1] ?? '',
        );
        const res = await request.get(sprite);
        expect(res.status()).toBe(200);
        expect(res.headers()['content-type']).toContain('image/jpeg');
        await shot(page, info, `player-captions-${viewport.width}-${lang}`);
        await page.mouse.move(0, 0);
        await expect(preview).toHaveCount(0);
      }
    }
  });
});
