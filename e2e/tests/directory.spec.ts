import { expect, test } from '@playwright/test';
import { acceptAge, DESKTOP, expectAccessible, openWithToken, shot, signUpFan } from './helpers.ts';

const PHONE_390 = { width: 390, height: 844 };

test.describe('people directories', () => {
  test('desktop, English: the creators directory searches despite typos, filters and opens a creator', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    const fan = await signUpFan(request, 'dird');
    await openWithToken(page, fan.token, fan.user, '/?explore=1');
    await page.getByTestId('explore-all-creators').click();
    await expect(page).toHaveURL(/view=creator/);
    const list = page.getByTestId('directory-list');
    await expect(list.getByTestId('directory-person').filter({ hasText: 'Luna Rivera' })).toBeVisible();
    await expect(list.getByTestId('directory-person').filter({ hasText: 'Alex Fan' })).toHaveCount(0);

    await page.getByTestId('directory-sort').selectOption('name');
    await expect(page).toHaveURL(/sort=name/);
    // Other journeys add creators (accepted applicants) in any order: the list is in username order.
    await expect(async () => {
      const users = await list
        .getByTestId('directory-person')
        .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-user') ?? ''));
      expect(users).toContain('creator1');
      expect(users).toEqual([...users].sort());
    }).toPass();
    await page.getByTestId('directory-search').fill('mteo');
    await expect(page).toHaveURL(/q=mteo/);
    await expect(list.getByTestId('directory-person').first()).toContainText('Mateo Silva');
    await shot(page, info, 'directory-creator-en-1280');
    await page.getByTestId('directory-online').check();
    await expect(page).toHaveURL(/online=1/);
    await page.getByTestId('directory-online').uncheck();
    await list.getByTestId('directory-person').first().click();
    await expect(page).toHaveURL(/\/creator2$/);
  });

  test('phone, Spanish: the people directory lists fans and creators, by kind, for members only', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(PHONE_390);
    // A visitor is sent to log in first.
    await page.goto('/?view=user');
    await acceptAge(page).catch(() => undefined);
    await expect(page).toHaveURL(/\/login$/);

    const fan = await signUpFan(request, 'dirp');
    await openWithToken(page, fan.token, fan.user, '/?view=user');
    await page.getByTestId('language-selector').selectOption('es');
    await expect(page.getByRole('heading', { name: 'Personas' })).toBeVisible();
    const list = page.getByTestId('directory-list');
    await page.getByTestId('directory-role').selectOption('fans');
    await expect(page).toHaveURL(/role=fans/);
    await expect(list.getByTestId('directory-person').filter({ hasText: 'Alex Fan' })).toBeVisible();
    await expect(list.getByTestId('directory-person').filter({ hasText: 'Luna Rivera' })).toHaveCount(0);
    await expect(page.getByTestId('directory-total')).toContainText('personas');
    await shot(page, info, 'directory-user-es-390');
    await page.getByTestId('directory-role').selectOption('creators');
    await page.getByTestId('directory-search').fill('rivra');
    await expect(list.getByTestId('directory-person').first()).toContainText('Luna Rivera');
    await expect(list.getByTestId('directory-person').first()).toContainText('Creador');
  });

  test('phone, English and desktop, Spanish screenshots of both directories', async ({
    page,
    request,
  }, info) => {
    const fan = await signUpFan(request, 'dirs');
    await page.setViewportSize(PHONE_390);
    await openWithToken(page, fan.token, fan.user, '/?view=creator');
    await expect(page.getByTestId('directory-person').first()).toBeVisible();
    await shot(page, info, 'directory-creator-en-390');
    await expectAccessible(page);
    await page.goto('/?view=user');
    await expect(page.getByTestId('directory-person').first()).toBeVisible();
    await shot(page, info, 'directory-user-en-390');
    await page.setViewportSize(DESKTOP);
    await page.getByTestId('language-selector').selectOption('es');
    await expect(page.getByRole('heading', { name: 'Personas' })).toBeVisible();
    await shot(page, info, 'directory-user-es-1280');
    await expectAccessible(page);
    await page.goto('/?view=creator&tag=fitness');
    await expect(page.getByRole('heading', { name: 'Creadores' })).toBeVisible();
    await shot(page, info, 'directory-creator-es-1280');
  });
});
