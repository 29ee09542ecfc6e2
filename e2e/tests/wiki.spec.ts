import { expect, test } from '@playwright/test';
import { acceptAge, DESKTOP, expectAccessible, loginByApi, shot } from './helpers.ts';

const PHONE_390 = { width: 390, height: 844 };

test.describe('help articles (?feed=wiki)', () => {
  test('desktop, English: a visitor reaches the articles from /help, searches and reads one', async ({
    page,
  }, info) => {
    await page.setViewportSize(DESKTOP);
    await acceptAge(page);
    await page.goto('/help');
    await page.getByTestId('help-wiki-link').click();
    await expect(page).toHaveURL(/feed=wiki/);
    await expect(page.getByTestId('wiki-item')).toHaveCount(3);
    await expect(page.getByTestId('wiki-new')).toHaveCount(0);
    await shot(page, info, 'wiki-list-en-1280');
    await expectAccessible(page);
    await page.getByTestId('wiki-search').fill('credit');
    await expect(page).toHaveURL(/q=credit/);
    await expect(page.getByTestId('wiki-item').first()).toContainText('Buying and using credits');
    await page.getByTestId('wiki-item').first().click();
    await expect(page.getByTestId('wiki-body').locator('li')).toHaveCount(3);
    await expect(page.getByTestId('wiki-body')).toContainText('never expire');
    await shot(page, info, 'wiki-article-en-1280');
    await expectAccessible(page);
  });

  test('phone, Spanish: articles in Spanish, searched with Spanish stemming', async ({ page }, info) => {
    await page.setViewportSize(PHONE_390);
    await acceptAge(page);
    await page.goto('/?feed=wiki');
    await page.getByTestId('language-selector').selectOption('es');
    await expect(page.getByRole('heading', { name: 'Artículos de ayuda' })).toBeVisible();
    await expect(page.getByTestId('wiki-item').first()).toBeVisible();
    await shot(page, info, 'wiki-list-es-390');
    await page.getByTestId('wiki-search').fill('documentos');
    await expect(page.getByTestId('wiki-item')).toHaveCount(1);
    await expect(page.getByTestId('wiki-item')).toContainText('Hacerse creador');
    await page.getByTestId('wiki-item').click();
    await expect(page.getByTestId('wiki-body')).toContainText('sosteniéndolo');
    await shot(page, info, 'wiki-article-es-390');
    await expectAccessible(page);
  });

  test('an administrator writes, rewrites and deletes an article, in Spanish at phone width', async ({
    page,
    request,
  }, info) => {
    await page.setViewportSize(PHONE_390);
    await loginByApi(page, request, 'superadmin', '/?feed=wiki');
    await page.getByTestId('language-selector').selectOption('es');
    // The editor takes the reader's language as the article's: open it once Spanish is on.
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await page.getByTestId('wiki-new').click();
    await expect(page.getByTestId('field-language')).toHaveValue('es');
    await page.getByTestId('field-title').fill('Cómo bloquear a alguien');
    await page.getByTestId('field-slug').fill('Bloquear Usuarios');
    await page
      .getByTestId('field-body')
      .fill('Abre su perfil y pulsa **Bloquear**.\n\n<script>alert(1)</script>');
    await page.getByTestId('wiki-save').click();
    await expect(page.getByTestId('wiki-form')).toContainText('minúsculas');
    await page.getByTestId('field-slug').fill('bloquear-usuarios');
    await shot(page, info, 'wiki-editor-es-390');
    await page.getByTestId('wiki-save').click();
    await expect(page).toHaveURL(/article=bloquear-usuarios/);
    await expect(page.getByTestId('wiki-body').locator('strong')).toHaveText('Bloquear');
    await expect(page.getByTestId('wiki-body')).toContainText('<script>alert(1)</script>');
    // Written in Spanish only: an English reader gets it with a note.
    await page.getByTestId('language-selector').selectOption('en');
    await expect(page.getByTestId('wiki-untranslated')).toBeVisible();
    await page.setViewportSize(DESKTOP);
    await shot(page, info, 'wiki-untranslated-en-1280');
    await page.getByTestId('wiki-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect(page).toHaveURL(/feed=wiki$/);
    await expect(page.getByTestId('wiki-item').first()).toBeVisible();
  });
});
