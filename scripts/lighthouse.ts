/**
 * npm run lighthouse — Lighthouse (mobile, the default simulated throttling) on the production
 * build with demo data, in Debian's Chromium, headless. Writes docs/lighthouse.md (scores, the
 * main metrics and every audit that did not pass in each category) and the raw reports under
 * e2e/artifacts/lighthouse/.
 *
 *   npm run lighthouse                       build, then audit every page
 *   npm run lighthouse -- --no-build         reuse apps/server/dist and apps/web/dist
 *   npm run lighthouse -- --pages home,post  only some pages (home, home-fan, creator, post, messages)
 *   npm run lighthouse -- --out path.md      another report file
 *
 * Pages: the home page for a visitor (cold cache, storage cleared, as Lighthouse does by default);
 * then, signed in as the demo fan (token put in localStorage and the fv_session cookie set as the
 * app does at sign-in, ADR 0048; HTTP cache cleared before each run):
 * the fan's home, a creator page (it needs a session, spec §2), a post and the messages wall.
 * The server is a fresh `node apps/server/dist/main.js` on a free port and a throw-away data
 * directory (PGlite, demo data seeded on start).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import { chromium as playwright } from 'playwright-core';
import { chromium } from '../e2e/chromium.ts';
import { SERVER_NODE_FLAGS } from './server-node-flags.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = chromium.executablePath;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;

const { values: args } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    pages: { type: 'string' },
    out: { type: 'string', default: 'docs/lighthouse.md' },
  },
});

interface PageSpec {
  key: string;
  title: string;
  /** Path, or a function of the seeded data. */
  path: (d: Demo) => string;
  signedIn: boolean;
}
interface Demo {
  creator: string;
  postId: string;
}

const PAGES: PageSpec[] = [
  { key: 'home', title: 'Home, visitor', path: () => '/', signedIn: false },
  { key: 'home-fan', title: 'Home, fan', path: () => '/', signedIn: true },
  { key: 'creator', title: 'Creator page, fan', path: (d) => `/${d.creator}`, signedIn: true },
  { key: 'post', title: 'Post, fan', path: (d) => `/post/${d.postId}`, signedIn: true },
  { key: 'messages', title: 'Messages wall, fan', path: () => '/?messages=wall', signedIn: true },
];

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

async function waitFor(url: string, server: ChildProcess, timeoutMs = 180_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer in ${timeoutMs / 1000} s`);
}

async function api<T>(base: string, p: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${base}/api/v1${p}`, {
    ...init,
    headers: { 'content-type': 'application/json', ilang: 'en', ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

type LhResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

function score(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : String(Math.round(n * 100));
}

function metric(lhr: LhResult, id: string): string {
  return lhr.audits[id]?.displayValue?.replace(/\u00a0/g, ' ') ?? '—';
}

/** Audits of a category that did not pass (score < 1 and not informative/not applicable). */
function failing(lhr: LhResult, category: string): string[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  const out: string[] = [];
  for (const ref of refs) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 1) continue;
    if (audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'informative') continue;
    if (audit.scoreDisplayMode === 'manual') continue;
    const items = (audit.details as { items?: unknown[] } | undefined)?.items?.length;
    const value = audit.displayValue ? ` — ${audit.displayValue.replace(/\u00a0/g, ' ')}` : '';
    out.push(`\`${audit.id}\` ${audit.title}${value}${items ? ` (${items} items)` : ''}`);
  }
  return out;
}

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) {
    console.error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  const wanted = args.pages ? new Set(args.pages.split(',')) : null;
  const pages = PAGES.filter((p) => !wanted || wanted.has(p.key));
  if (!args['no-build']) {
    const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-lh-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'apps/server/dist/main.js'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Production needs a mail server; none is reached during the audit (the check only warns).
      SMTP_URL: 'smtp://127.0.0.1:9',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
    },
  });
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-lh-chrome-'));
  const debugPort = await freePort();
  let context: Awaited<ReturnType<typeof playwright.launchPersistentContext>> | undefined;
  try {
    await waitFor(`${base}/healthz`, server);
    const password = process.env.SEED_PASSWORD ?? 'fanverse-demo';
    const auth = await api<{ token: string; user: unknown }>(base, '/auth/login', {
      method: 'POST',
      body: JSON.stringify({ login: 'fanuser1', password }),
    });
    const feed = await api<{ posts: { _id: string; user: { user: string } }[] }>(base, '/posts', {
      headers: { authorization: `Bearer ${auth.token}` },
    });
    const first = feed.posts[0];
    if (!first) throw new Error('the demo data has no post in the fan feed');
    const demo: Demo = { creator: first.user.user, postId: first._id };

    context = await playwright.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [`--remote-debugging-port=${debugPort}`, ...chromium.args],
    });
    const tab = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(tab);
    const results: { page: PageSpec; url: string; lhr: LhResult }[] = [];
    let signedIn = false;
    for (const page of pages) {
      if (page.signedIn && !signedIn) {
        await tab.goto(`${base}/healthz`);
        await tab.evaluate(
          ([token, user]) => {
            localStorage.setItem('token', token);
            localStorage.setItem('user', user);
          },
          [auth.token, JSON.stringify(auth.user)] as const,
        );
        // As the app has it after sign-in: the fv_session cookie the server sets (ADR 0048).
        const set = await fetch(`${base}/web/session`, { method: 'POST', headers: { a1sledom: auth.token } });
        const value = /fv_session=([^;]*)/.exec(set.headers.get('set-cookie') ?? '')?.[1];
        if (!set.ok || !value) throw new Error(`POST /web/session: ${set.status}`);
        await context.addCookies([{ name: 'fv_session', value, url: base, httpOnly: true, sameSite: 'Lax' }]);
        signedIn = true;
      }
      if (!page.signedIn && signedIn) {
        await tab.goto(`${base}/healthz`);
        await tab.evaluate(() => localStorage.clear());
        await context.clearCookies();
        signedIn = false;
      }
      // A cold HTTP cache for every run, also when the storage (the session) is kept.
      await cdp.send('Network.clearBrowserCache');
      const url = `${base}${page.path(demo)}`;
      console.info(`lighthouse: ${page.title} (${url})`);
      const run = await lighthouse(url, {
        port: debugPort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        disableStorageReset: page.signedIn,
      });
      if (!run) throw new Error(`no Lighthouse result for ${url}`);
      results.push({ page, url, lhr: run.lhr });
      const artifacts = path.join(ROOT, 'e2e/artifacts/lighthouse');
      fs.mkdirSync(artifacts, { recursive: true });
      fs.writeFileSync(path.join(artifacts, `${page.key}.json`), JSON.stringify(run.lhr));
    }
    writeReport(results);
  } finally {
    await context?.close().catch(() => undefined);
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(profileDir, { recursive: true, force: true });
  }
}

function writeReport(results: { page: PageSpec; url: string; lhr: LhResult }[]): void {
  const version = results[0]?.lhr.lighthouseVersion ?? '?';
  const chrome = results[0]?.lhr.environment?.hostUserAgent?.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium';
  const lines = [
    '# Lighthouse',
    '',
    'Written by `npm run lighthouse` (scripts/lighthouse.ts); do not edit by hand. Lighthouse',
    `${version} (mobile form factor, simulated throttling, the defaults) in Debian's ${chrome},`,
    'headless, against the production build (`apps/server/dist/main.js`) on a fresh PGlite store',
    'with the demo data. The visitor page runs with a cleared storage and cache; signed-in pages keep',
    "the demo fan's session (localStorage and its fv_session cookie, ADR 0048) and start with a cleared",
    'HTTP cache. The machine is shared:',
    'performance scores move with its load (simulated throttling scales from the observed trace).',
    '',
    `- Run: ${new Date().toISOString()}`,
    `- Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
    '',
    `| page | ${CATEGORIES.join(' | ')} | ${METRICS.map(([, short]) => short).join(' | ')} |`,
    `|---|${CATEGORIES.map(() => '---:').join('|')}|${METRICS.map(() => '---:').join('|')}|`,
  ];
  for (const { page, lhr } of results) {
    lines.push(
      `| ${page.title} | ${CATEGORIES.map((c) => score(lhr.categories[c]?.score)).join(' | ')} | ${METRICS.map(
        ([id]) => metric(lhr, id),
      ).join(' | ')} |`,
    );
  }
  lines.push('', '## Audits not passed', '');
  for (const { page, url, lhr } of results) {
    lines.push(`### ${page.title}`, '', `\`${new URL(url).pathname}${new URL(url).search}\``, '');
    for (const c of CATEGORIES) {
      const list = failing(lhr, c);
      lines.push(
        `- **${lhr.categories[c]?.title ?? c}** ${score(lhr.categories[c]?.score)}${list.length ? ':' : ': all passed'}`,
      );
      for (const item of list) lines.push(`  - ${item}`);
    }
    lines.push('');
  }
  const out = path.resolve(ROOT, args.out ?? 'docs/lighthouse.md');
  fs.writeFileSync(out, `${lines.join('\n')}\n`);
  console.info(`wrote ${path.relative(ROOT, out)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
