import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectMark, embedMark, MAX_MARK_ID, WatermarkKey } from './mark.ts';

/**
 * The mark on real photographs (public-domain / CC0 pictures of scikit-image, test/fixtures/photos):
 * marked for fan A, then re-encoded, halved, cropped and photographed off a Chromium page, the
 * detector names fan A's mark id every time, and nothing in the unmarked pictures.
 */
const PHOTOS = path.resolve(import.meta.dirname, '../../test/fixtures/photos');
const photos = fs.readdirSync(PHOTOS).filter((f) => f.endsWith('.jpg'));
const key = new WatermarkKey('a-test-secret-of-this-server');
const FAN_A = 1_234_567;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../../../../e2e/artifacts/watermark');

/** The served rendition: the photo as the media pipeline stores it (WebP 82). */
const served = (name: string) => sharp(path.join(PHOTOS, name)).webp({ quality: 82 }).toBuffer();

const ATTACKS: Record<string, (img: Buffer, w: number, h: number) => Promise<Buffer>> = {
  'JPEG quality 70': (img) => sharp(img).jpeg({ quality: 70 }).toBuffer(),
  'WebP quality 75': (img) => sharp(img).webp({ quality: 75 }).toBuffer(),
  'resized to 50%': (img, w) =>
    sharp(img)
      .resize(Math.round(w / 2))
      .png()
      .toBuffer(),
  'cropped by 10%': (img, w, h) =>
    sharp(img)
      .extract({
        left: Math.round(w * 0.07),
        top: Math.round(h * 0.03),
        width: Math.round(w * 0.9),
        height: Math.round(h * 0.9),
      })
      .png()
      .toBuffer(),
  'halved, then JPEG 70': (img, w) =>
    sharp(img)
      .resize(Math.round(w / 2))
      .jpeg({ quality: 70 })
      .toBuffer(),
};

describe.each(photos)('the mark on %s', (name) => {
  let marked: Buffer;
  let width = 0;
  let height = 0;
  beforeAll(async () => {
    marked = await embedMark(await served(name), key, FAN_A);
    ({ width = 0, height = 0 } = await sharp(marked).metadata());
  });

  it('is invisible enough (PSNR above 34 dB) and readable as served', async () => {
    const [a, b] = await Promise.all([await served(name), marked].map((x) => sharp(x).raw().toBuffer()));
    let sq = 0;
    for (let i = 0; i < a!.length; i++) sq += ((a![i] as number) - (b![i] as number)) ** 2;
    const psnr = 10 * Math.log10((255 * 255) / (sq / a!.length));
    expect(psnr).toBeGreaterThan(34);
    const found = await detectMark(marked, key);
    expect(found.markId).toBe(FAN_A);
    expect(found.confidence).toBeGreaterThan(0.99);
  });

  it.each(Object.keys(ATTACKS))('names fan A after: %s', async (attack) => {
    const copy = await ATTACKS[attack]!(marked, width, height);
    const found = await detectMark(copy, key);
    expect(found.markId, `z=${found.z.toFixed(2)} scale=${found.scale.toFixed(3)}`).toBe(FAN_A);
    expect(found.confidence).toBeGreaterThan(0.9);
  });

  it('finds no mark in the unmarked picture, nor in its re-encodings', async () => {
    const plain = await served(name);
    for (const copy of [plain, await ATTACKS['JPEG quality 70']!(plain, width, height)]) {
      expect((await detectMark(copy, key)).markId).toBeNull();
    }
  });
});

describe('a screenshot in Chromium of the displayed picture', () => {
  const run = fs.existsSync(CHROMIUM) ? it : it.skip;
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  afterAll(() => browser?.close());

  run('names fan A from a screenshot of each photo shown at 80% size on a page', async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM });
    const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    for (const name of photos) {
      const marked = await embedMark(await served(name), key, FAN_A);
      const { width = 0 } = await sharp(marked).metadata();
      await page.setContent(
        `<body style="margin:24px;background:#fff"><p>A post</p><img id="p" style="width:${Math.round(width * 0.8)}px" src="data:image/webp;base64,${marked.toString('base64')}"></body>`,
      );
      await page.waitForFunction('document.querySelector("#p").complete');
      const shot = await page
        .locator('#p')
        .screenshot({ path: path.join(ARTIFACTS, `screenshot-${name}.png`) });
      const found = await detectMark(shot, key);
      expect(found.markId, `${name}: z=${found.z.toFixed(2)} scale=${found.scale.toFixed(3)}`).toBe(FAN_A);
    }
  });
});

describe('mark ids', () => {
  it('carries any id up to the 24-bit ceiling, and refuses others', async () => {
    const img = await served(photos[0]!);
    for (const id of [1, MAX_MARK_ID])
      expect((await detectMark(await embedMark(img, key, id), key)).markId).toBe(id);
    await expect(embedMark(img, key, MAX_MARK_ID + 1)).rejects.toThrow();
  });

  it('cannot be read without the server secret', async () => {
    const marked = await embedMark(await served(photos[0]!), key, FAN_A);
    expect((await detectMark(marked, new WatermarkKey('another-secret'))).markId).toBeNull();
  });
});
