import { expect, test } from '@playwright/test';
import { firstViewPages } from '../first-view-pages.ts';
import { appTookOver, DESKTOP, PHONE, sessionOf } from './helpers.ts';

/**
 * The server's first view is hydrated, not replaced (ADR 0048): on the four first-view pages
 * (visitor home; a fan's home, a creator page, a post), in both languages, at phone and desktop
 * widths, the app attaches to the server's markup (the server's nodes are still in the page after
 * the app took over) and React reports no hydration error (a mismatch is a recoverable error,
 * which main.tsx logs, or an uncaught one). The app takes over (un-inerts #root, gives back its test
 * ids) only once every part is hydrated: a click on a part still dehydrated would be lost.
 */
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

test('the first view is hydrated without a mismatch on every first-view page', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const { token, user } = await sessionOf(request, 'fanuser1');
  const feed = await request.get('/api/v1/posts', { headers: { a1sledom: token } });
  expect(feed.ok()).toBe(true);
  const first = ((await feed.json()) as { posts: { _id: string; user: { user: string } }[] }).posts[0];
  if (!first) throw new Error('the demo fan sees no post');
  const pages = firstViewPages(first);
  const host = new URL(baseURL ?? '').hostname;
  const problems: string[] = [];
  for (const language of ['en', 'es'] as const) {
    for (const size of [PHONE, DESKTOP]) {
      const phone = size.width < 768;
      const context = await browser.newContext({
        viewport: size,
        isMobile: phone,
        hasTouch: phone,
        ...(phone ? { userAgent: PHONE_UA } : {}),
      });
      for (const page of pages) {
        await context.clearCookies();
        await context.addCookies([
          { name: 'fv_lang', value: language, domain: host, path: '/' },
          ...(page.fan ? [{ name: 'fv_session', value: token, domain: host, path: '/' }] : []),
        ]);
        const tab = await context.newPage();
        const where = `${page.name}, ${language}, ${size.width} px`;
        tab.on('console', (message) => {
          if (message.type() === 'error' || message.text().includes('not hydrated'))
            problems.push(`${where}: console: ${message.text()}`);
        });
        tab.on('pageerror', (error) => problems.push(`${where}: page error: ${error.message}`));
        await tab.addInitScript(
          ([t, u, lang, fan]) => {
            localStorage.clear();
            localStorage.setItem('language', lang);
            if (fan === '1') {
              localStorage.setItem('token', t);
              localStorage.setItem('user', u);
            }
            // The first element the server rendered in #root, kept to see whether it survives.
            const observer = new MutationObserver(() => {
              const root = document.querySelector('#root[data-first-view]');
              if (root?.firstElementChild) {
                (window as unknown as { fvFirst: Element }).fvFirst = root.firstElementChild;
                observer.disconnect();
              }
            });
            observer.observe(document, { childList: true, subtree: true });
            // At the moment the app takes over (#root loses data-first-view, its test ids become
            // usable), the elements React has not hydrated yet: a click there would be lost. React
            // keeps its fiber on each element it hydrated (a private key, read only here).
            const takeover = new MutationObserver(() => {
              const root = document.getElementById('root');
              if (!root || root.hasAttribute('data-first-view')) return;
              takeover.disconnect();
              const live = (e: Element) => Object.keys(e).some((k) => k.startsWith('__reactFiber$'));
              (window as unknown as { fvNotLive: string[] }).fvNotLive = Array.from(
                root.querySelectorAll('[data-testid]'),
              )
                .filter((e) => !live(e))
                .map((e) => e.getAttribute('data-testid') ?? '');
            });
            document.addEventListener('DOMContentLoaded', () => {
              const root = document.getElementById('root');
              if (root) takeover.observe(root, { attributes: true, attributeFilter: ['data-first-view'] });
            });
          },
          [token, JSON.stringify(user), language, page.fan ? '1' : '0'] as const,
        );
        const response = await tab.goto(page.path);
        expect(response?.ok(), where).toBe(true);
        // The server rendered a first view for this page…
        expect(await tab.evaluate(() => !!(window as unknown as { fvFirst?: Element }).fvFirst), where).toBe(
          true,
        );
        // …the app took over…
        await appTookOver(tab, where);
        await tab.waitForLoadState('networkidle');
        await tab.waitForTimeout(500);
        // …by hydrating it: the server's nodes are the app's.
        expect(
          await tab.evaluate(() => (window as unknown as { fvFirst: Element }).fvFirst.isConnected),
          `${where}: the server's markup was replaced instead of hydrated`,
        ).toBe(true);
        expect(await tab.locator('#root [data-fv-testid]').count(), where).toBe(0);
        // …once every part of it was live.
        const notLive = await tab.evaluate(() => (window as unknown as { fvNotLive?: string[] }).fvNotLive);
        expect(notLive, `${where}: took over before hydrating ${notLive?.join(', ')}`).toEqual([]);
        expect(await tab.locator('html').getAttribute('lang'), where).toBe(language);
        await tab.close();
      }
      await context.close();
    }
  }
  expect(problems).toEqual([]);
});
