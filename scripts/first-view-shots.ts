/**
 * Screenshots of the first view (ADR 0048): home (visitor, fan), a creator page and a post at
 * 390 and 1280 px, in English and Spanish, with JavaScript off (the server's markup alone) and on.
 *   node --import tsx scripts/first-view-shots.ts <base-url> <out-dir>
 * Needs a running production server with the demo data (npm start with SEED_DEMO=true).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium as playwright } from 'playwright-core';
import { chromium } from '../e2e/chromium.ts';
import { firstViewPages } from '../e2e/first-view-pages.ts';

const [base = 'http://127.0.0.1:3000', out = 'e2e/artifacts/first-view'] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });

async function api<T>(p: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${base}/api/v1${p}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${p}: ${res.status}`);
  return (await res.json()) as T;
}

const auth = await api<{ token: string; user: unknown }>('/auth/login', {
  method: 'POST',
  body: JSON.stringify({ login: 'fanuser1', password: process.env.SEED_PASSWORD ?? 'fanverse-demo' }),
});
const feed = await api<{ posts: { _id: string; user: { user: string } }[] }>('/posts', {
  headers: { authorization: `Bearer ${auth.token}` },
});
const first = feed.posts[0];
if (!first) throw new Error('no post');
const pages = firstViewPages(first).map((p) => ({ ...p, name: p.slug }));
const browser = await playwright.launch({ executablePath: chromium.executablePath, args: chromium.args });
const host = new URL(base).hostname;
for (const js of [false, true]) {
  for (const language of ['en', 'es']) {
    for (const width of [390, 1280]) {
      const mobile = width < 768;
      const context = await browser.newContext({
        javaScriptEnabled: js,
        viewport: { width, height: mobile ? 844 : 800 },
        isMobile: mobile,
        userAgent: mobile
          ? 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36'
          : undefined,
      });
      for (const page of pages) {
        await context.clearCookies();
        const cookies = [
          { name: 'fv_lang', value: language, domain: host, path: '/' },
          ...(page.fan ? [{ name: 'fv_session', value: auth.token, domain: host, path: '/' }] : []),
        ];
        await context.addCookies(cookies);
        const tab = await context.newPage();
        if (js) {
          await tab.addInitScript(
            ([token, user, lang, fan]) => {
              localStorage.setItem('language', lang);
              if (fan === '1') {
                localStorage.setItem('token', token);
                localStorage.setItem('user', user);
              } else {
                localStorage.removeItem('token');
                localStorage.removeItem('user');
              }
            },
            [auth.token, JSON.stringify(auth.user), language, page.fan ? '1' : '0'] as const,
          );
        }
        await tab.goto(`${base}${page.path}`, { waitUntil: js ? 'networkidle' : 'load' });
        await tab.waitForTimeout(js ? 800 : 200);
        const file = path.join(out, `${page.name}-${language}-${width}-${js ? 'js' : 'nojs'}.png`);
        await tab.screenshot({ path: file });
        console.info(file);
        await tab.close();
      }
      await context.close();
    }
  }
}
await browser.close();
