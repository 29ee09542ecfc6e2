import { expect, test } from '@playwright/test';
import { DESKTOP, loginByApi, PHONE, shot } from './helpers.ts';

// Issue 12: the creator schedules a post in the editor (in their own time zone) and finds it in
// the queue of scheduled posts, in English and Spanish, at phone and desktop width.
const LANGUAGES = ['en', 'es'] as const;
const TITLE = { en: 'Scheduled posts', es: 'Publicaciones programadas' };

for (const language of LANGUAGES) {
  test(`creator schedules a post and sees it in the queue (${language})`, async ({ page, request }, info) => {
    await page.addInitScript((l) => window.localStorage.setItem('language', l), language);
    await page.setViewportSize(DESKTOP);
    await loginByApi(page, request, 'creator2', '/post/create');
    const message = `Scheduled ${language} ${Date.now()}`;
    await page.getByTestId('editor-message').fill(message);
    await page.getByTestId('editor-schedule-toggle').check();
    // Tomorrow at 10:30 in the browser's (the creator's) time zone.
    const at = new Date(Date.now() + 24 * 3600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T10:30`;
    await page.getByTestId('field-publishAt').fill(local);
    await page.getByTestId('editor-cert-adults').check();
    await page.getByTestId('editor-cert-consent').check();
    await page.getByTestId('editor-cert-terms').check();
    await shot(page, info, `scheduled-editor-desktop-${language}`);
    await page.getByTestId('editor-submit').click();
    await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/, { timeout: 30_000 });

    await page.goto('/post/scheduled');
    await expect(page.getByRole('heading', { name: TITLE[language] })).toBeVisible();
    const item = page.getByTestId('scheduled-item').filter({ hasText: message });
    await expect(item).toBeVisible();
    await expect(item.getByTestId('scheduled-when')).toContainText('10:30');
    await shot(page, info, `scheduled-queue-desktop-${language}`);
    await page.setViewportSize(PHONE);
    await expect(item).toBeVisible();
    await shot(page, info, `scheduled-queue-phone-${language}`);

    // Change the time from the queue: it stays in the queue at the new time.
    await item.getByTestId('scheduled-change').click();
    await item.getByTestId('field-publishAt').fill(local.replace('T10:30', 'T18:45'));
    await item.locator('button[type="submit"]').click();
    await expect(item.getByTestId('scheduled-when')).toContainText(/18:45|6:45/);
  });
}
