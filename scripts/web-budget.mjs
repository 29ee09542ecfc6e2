// npm run web:budget — the JavaScript the home page loads at start-up, from the production build's
// manifest (apps/web/dist/.vite/manifest.json), gzip-compressed (level 9, as the .gz twins the
// server sends). Two figures, each with its budget; exit 1 when either is exceeded:
//   - initial: what index.html loads, the entry and every chunk it imports (Vite modulepreloads
//     them). Issue 13's target: ≤ 170 KB gzip.
//   - start-up: the initial JS plus what the home page fetches before it shows its content: the
//     `/` route's page chunk (router.tsx: home/HomePage) with its imports and the catalogues
//     loaded before the first render (app/startupNamespaces.json, in English). A guard against
//     regressions: ≤ 190 KB gzip.
// `npm test` runs it after the build (e2e/run.mjs); `--json` prints the figures.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1024;
export const BUDGETS = { initial: 170 * KB, startup: 190 * KB };

const { startup } = JSON.parse(
  fs.readFileSync(new URL('../apps/web/src/app/startupNamespaces.json', import.meta.url), 'utf8'),
);
/** Chunks the home page loads at start-up besides index.html's (manifest keys). */
export const HOME_CHUNKS = [
  'src/features/home/HomePage.tsx',
  ...startup.map((namespace) => `src/locales/en/${namespace}.json`),
];

/**
 * JavaScript files of the entry of index.html, of the chunks `extra`, and of every chunk they
 * import statically (transitively), each once. Dynamic imports are left out.
 */
export function initialFiles(manifest, extra = []) {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('the manifest has no entry chunk');
  const seen = new Set();
  const files = [];
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const child of chunk.imports ?? []) visit(child);
  };
  visit(entry[0]);
  for (const key of extra) visit(key);
  return files;
}

/** Gzip sizes of the initial and start-up files of the build in `dist`. */
export function measure(dist) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const sizeOf = (file) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  const figure = (files) => {
    const sized = files.map((file) => ({ file, gzip: sizeOf(file) }));
    return { files: sized, total: sized.reduce((sum, f) => sum + f.gzip, 0) };
  };
  return {
    initial: figure(initialFiles(manifest)),
    startup: figure(initialFiles(manifest, HOME_CHUNKS)),
    budgets: BUDGETS,
  };
}

/** Names of the figures over their budget. */
export function overBudget(result) {
  return Object.keys(BUDGETS).filter((name) => result[name].total > BUDGETS[name]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const result = measure(path.resolve(import.meta.dirname, '../apps/web/dist'));
  const kb = (n) => `${(n / KB).toFixed(1)} KB`;
  if (process.argv.includes('--json')) console.info(JSON.stringify(result));
  else {
    for (const name of ['initial', 'startup']) {
      const { files, total } = result[name];
      console.info(
        `home page ${name} JS: ${kb(total)} gzip in ${files.length} files (budget ${kb(BUDGETS[name])})`,
      );
    }
    for (const f of result.startup.files.sort((a, b) => b.gzip - a.gzip).slice(0, 12)) {
      const initial = result.initial.files.some((i) => i.file === f.file) ? 'initial' : 'start-up';
      console.info(`  ${kb(f.gzip).padStart(9)}  ${initial.padEnd(8)}  ${f.file}`);
    }
  }
  const over = overBudget(result);
  if (over.length > 0) {
    console.error(`web budget exceeded: ${over.map((n) => `${n} ${kb(result[n].total)}`).join(', ')}`);
    process.exit(1);
  }
}
