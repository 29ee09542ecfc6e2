import { type Browser, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { DESKTOP, loginByApi, PHONE, settledShot } from './helpers.ts';

/** A page of its own browser context (its own localStorage and socket), logged in by API. */
async function openAs(
  browser: Browser,
  username: string,
  pathname: string,
  viewport = DESKTOP,
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await loginByApi(page, page.request, username, pathname);
  return page;
}

function redJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 189, g: 9, b: 9 } } })
    .jpeg()
    .toBuffer();
}

test.describe('messages and notifications', () => {
  test('fan and creator chat live with an image; a closed chat raises a pop-up and badges that clear', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(150_000);
    const run = Date.now().toString(36);
    const fan = await openAs(browser, 'fanuser1', '/?messages=creator1');
    const creator = await openAs(browser, 'creator1', '/?messages=fanuser1');
    await expect(fan.getByTestId('chat-header')).toContainText(/creator/i);
    await expect(creator.getByTestId('chat-header')).toContainText(/fan/i);

    // Spec §5: an empty message is refused before sending.
    await fan.getByTestId('chat-send').click();
    await expect(fan.getByTestId('chat-error')).toHaveText('Message empty');

    // Text: the fan's preview is replaced by the stored message (never two), the creator sees it live.
    const hello = `Hello from the fan ${run}`;
    await fan.getByTestId('chat-input').fill(hello);
    await fan.getByTestId('chat-send').click();
    await expect(fan.getByTestId('chat-error')).toHaveCount(0);
    const fanHello = fan.getByTestId('chat-message').filter({ hasText: hello });
    await expect(fanHello).toHaveAttribute('data-mine', 'true');
    await expect(fanHello).toHaveAttribute('data-processing', 'false');
    const creatorHello = creator.getByTestId('chat-message').filter({ hasText: hello });
    await expect(creatorHello).toHaveAttribute('data-mine', 'false');
    await expect(fanHello).toHaveCount(1);

    // Image: a processing preview at once, then the processed image on both sides.
    const caption = `A photo ${run}`;
    await fan
      .getByTestId('chat-attach')
      .setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await redJpeg() });
    await fan.getByTestId('chat-input').fill(caption);
    await fan.getByTestId('chat-send').click();
    const fanPhoto = fan.getByTestId('chat-message').filter({ hasText: caption });
    await expect(fanPhoto).toHaveCount(1);
    const creatorPhoto = creator.getByTestId('chat-message').filter({ hasText: caption });
    await expect(creatorPhoto).toHaveAttribute('data-processing', 'false', { timeout: 45_000 });
    await expect(creatorPhoto.locator('img')).toBeVisible();
    await expect(fanPhoto).toHaveAttribute('data-processing', 'false', { timeout: 45_000 });
    await expect(fanPhoto).toHaveCount(1);

    // The creator replies; the fan sees it live in the open chat.
    const reply = `Thanks, fan! ${run}`;
    await creator.getByTestId('chat-input').fill(reply);
    await creator.getByTestId('chat-send').click();
    await expect(fan.getByTestId('chat-message').filter({ hasText: reply })).toHaveAttribute(
      'data-mine',
      'false',
    );
    await settledShot(fan, testInfo, 'messages-chat-desktop');

    // A 504 answer is ignored: the server stored the message and the socket delivers it (once).
    const slow = `Slow gateway ${run}`;
    await fan.route('**/api/v1/message/send', async (route) => {
      await route.fetch();
      await route.fulfill({ status: 504, contentType: 'application/json', body: '{}' });
    });
    await fan.getByTestId('chat-input').fill(slow);
    await fan.getByTestId('chat-send').click();
    const fanSlow = fan.getByTestId('chat-message').filter({ hasText: slow });
    await expect(fanSlow).toHaveAttribute('data-processing', 'false');
    await expect(fanSlow).toHaveCount(1);
    await expect(fanSlow.getByTestId('chat-retry')).toHaveCount(0);
    await fan.unroute('**/api/v1/message/send');

    // Another failure marks the preview failed; Retry sends the same messageUUID and it arrives once.
    const flaky = `Flaky network ${run}`;
    await fan.route('**/api/v1/message/send', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
    await fan.getByTestId('chat-input').fill(flaky);
    await fan.getByTestId('chat-send').click();
    const fanFlaky = fan.getByTestId('chat-message').filter({ hasText: flaky });
    await expect(fanFlaky.getByTestId('chat-retry')).toBeVisible();
    await fan.unroute('**/api/v1/message/send');
    await fanFlaky.getByTestId('chat-retry').click();
    await expect(fanFlaky).toHaveAttribute('data-processing', 'false');
    await expect(creator.getByTestId('chat-message').filter({ hasText: flaky })).toHaveCount(1);
    await expect(fanFlaky).toHaveCount(1);

    // With the chat closed, a new message raises the pop-up and the unread badge.
    await fan.goto('/');
    await expect(fan.getByTestId('header')).toBeVisible();
    await expect(fan.getByTestId('messages-badge')).toHaveCount(0);
    const ping = `Are you there? ${run}`;
    await creator.getByTestId('chat-input').fill(ping);
    await creator.getByTestId('chat-send').click();
    const popup = fan.getByTestId('notification-popup').filter({ hasText: ping });
    await expect(popup).toBeVisible();
    await expect(popup.getByRole('link')).toHaveAttribute('href', '/?messages=creator1');
    await expect(fan.getByTestId('messages-badge')).toBeVisible();
    await expect(fan.getByTestId('notifications-badge')).toBeVisible();

    // Contacts: the conversation is on top with its unread count; opening it clears the badge.
    await fan.getByTestId('notification-close').first().click();
    await fan.getByTestId('messages-button').click();
    const contact = fan.getByTestId('contact-item').filter({ hasText: ping });
    await expect(contact).toHaveAttribute('data-contact', 'creator1');
    await expect(contact).not.toHaveAttribute('data-unread', '0');
    await settledShot(fan, testInfo, 'messages-contacts-desktop');
    await contact.click();
    await expect(fan.getByTestId('chat-message').filter({ hasText: ping })).toBeVisible();
    await expect(fan.getByTestId('messages-badge')).toHaveCount(0);
    await fan.goBack();

    // Notifications: the bell opens the list; 1 s after it is seen the badge clears.
    await fan.getByTestId('notifications-button').click();
    const item = fan.getByTestId('notification-item').filter({ hasText: ping });
    await expect(item).toBeVisible();
    await expect(item.getByRole('link')).toHaveAttribute('href', '/?messages=creator1');
    await settledShot(fan, testInfo, 'notifications-desktop');
    await expect(fan.getByTestId('notifications-badge')).toHaveCount(0, { timeout: 5_000 });

    await fan.context().close();
    await creator.context().close();
  });

  test('phone: contacts and chat are two screens', async ({ browser }, testInfo) => {
    const fan = await openAs(browser, 'fanuser1', '/?messages=wall', PHONE);
    await expect(fan.getByTestId('contacts-list')).toBeVisible();
    await expect(fan.getByTestId('chat')).toHaveCount(0);
    await expect(fan.locator('[data-testid="contact-item"][data-contact="creator1"]')).toBeVisible();
    await settledShot(fan, testInfo, 'messages-contacts-phone');
    await fan.locator('[data-testid="contact-item"][data-contact="creator1"]').click();
    await expect(fan.getByTestId('chat')).toBeVisible();
    await expect(fan.getByTestId('contacts-list')).toHaveCount(0);
    await expect(fan.getByTestId('chat-message').first()).toBeVisible();
    await settledShot(fan, testInfo, 'messages-chat-phone');
    // Too long (spec §5): the counter and the error show; nothing is sent.
    await fan.getByTestId('chat-input').fill('x'.repeat(1025));
    await fan.getByTestId('chat-send').click();
    await expect(fan.getByTestId('chat-error')).toContainText('1024');
    await fan.keyboard.press('Escape');
    await expect(fan.getByTestId('chat')).toHaveCount(0);
    await fan.getByTestId('notifications-button').click();
    await expect(fan.getByTestId('notifications-list')).toBeVisible();
    await settledShot(fan, testInfo, 'notifications-phone');
    await fan.context().close();
  });
});
