import { expect, type Page, test } from '@playwright/test';
import { PHONE } from './helpers.ts';

/**
 * Nothing on the first view moves when the app takes over it (ADR 0048; Lighthouse's Cumulative
 * Layout Shift, issue 13): the server lays the page out for the browser's screen class and with
 * the same parts the app shows (the visitor's stories row above the feed).
 */
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/** Loads `/` and answers the layout shifts (not caused by input) until a second after the takeover. */
async function shiftsOnLoad(tab: Page): Promise<{ value: number; what: string[] }[]> {
  await tab.addInitScript(() => {
    const shifts: { value: number; what: string[] }[] = [];
    (window as unknown as { fvShifts: typeof shifts }).fvShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        const what = entry.sources.map((s) =>
          s.node instanceof Element ? s.node.className : String(s.node),
        );
        shifts.push({ value: entry.value, what });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await tab.goto('/');
  await expect(tab.locator('#root')).not.toHaveAttribute('data-first-view', /.*/, { timeout: 20_000 });
  await tab.waitForLoadState('networkidle');
  await tab.waitForTimeout(1_000);
  return tab.evaluate(
    () => (window as unknown as { fvShifts: { value: number; what: string[] }[] }).fvShifts,
  );
}

test("a phone's visitor home does not move when the app takes over, its stories row included", async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    userAgent: PHONE_UA,
  });
  const tab = await context.newPage();
  const shifts = await shiftsOnLoad(tab);
  await expect(tab.getByTestId('visitor-stories')).toBeVisible();
  expect(shifts).toEqual([]);
  await context.close();
});

test('a narrow desktop window: its own screen class is remembered, so the next load does not move', async ({
  browser,
}) => {
  // A desktop browser (its user agent and client hint say so) in a window of a phone's width.
  const context = await browser.newContext({ viewport: PHONE, userAgent: DESKTOP_UA });
  const tab = await context.newPage();
  await shiftsOnLoad(tab);
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === 'fv_screen')?.value).toBe('mobile');
  const again = await context.newPage();
  expect(await shiftsOnLoad(again)).toEqual([]);
  expect(await again.locator('html').getAttribute('data-screen')).toBe('mobile');
  // Widened to a desktop's width: the class and its cookie follow.
  await again.setViewportSize({ width: 1280, height: 800 });
  await expect(again.locator('html')).toHaveAttribute('data-screen', 'desktop');
  await expect
    .poll(async () => (await context.cookies()).find((c) => c.name === 'fv_screen')?.value)
    .toBe('desktop');
  await context.close();
});
