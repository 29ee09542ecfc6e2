import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect, test } from '@playwright/test';
import {
  approveByApi,
  DESKTOP,
  openWithToken,
  PHONE,
  playsInPage,
  publishClipWithMedia,
  sessionOf,
  shot,
} from './helpers.ts';

/**
 * ADR 0043: stories and messages play videos through the same protected HLS player as posts (the
 * fan's own marked segments; the file itself is never sent). A fan plays a story video and, after
 * unlocking it, a paid message's video, at 1280 px in English and 390 px in Spanish.
 */
function clip(seconds: number): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-e2e-mark-'));
  const out = path.join(dir, 'clip.mp4');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', String(seconds)],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', out],
  ]);
  const data = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return data;
}

/** A story of creator1 with a video, processed and approved; answers its id and its file's id. */
async function videoStory(request: APIRequestContext, token: string, adminToken: string) {
  const { postId: storyId, mediaId } = await publishClipWithMedia(
    request,
    token,
    'clip.mp4',
    clip(12),
    'free',
    {
      kind: 'story',
      message: 'Story clip',
    },
  );
  await approveByApi(request, adminToken, storyId);
  return { storyId, mediaId };
}

test('a fan plays a story video and a paid message video through the marked player, en 1280 and es 390', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const creator = await sessionOf(request, 'creator1');
  const admin = await sessionOf(request, 'superadmin');
  const fan = await sessionOf(request, 'fanuser1');
  const { storyId, mediaId } = await videoStory(request, creator.token, admin.token);

  for (const [viewport, lang] of [
    [DESKTOP, 'en'],
    [PHONE, 'es'],
  ] as const) {
    const text = `Paid clip ${lang} ${Date.now().toString(36)}`;
    const sent = await request.post('/api/v1/message/send', {
      headers: { a1sledom: creator.token },
      data: {
        to: 'fanuser1',
        message: text,
        messageUUID: crypto.randomUUID(),
        price: 5,
        vaultMedia: [mediaId],
      },
    });
    expect(sent.ok(), await sent.text()).toBe(true);

    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.addInitScript((l) => window.localStorage.setItem('language', l), lang);
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
