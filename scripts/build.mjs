// `npm run build` (and the first step of `npm start`): builds what production runs, each part only
// when its inputs changed since its last build.
//   - the web app: Vite → apps/web/dist
//   - the web app's first view for the server (ADR 0048): Vite SSR → apps/web/dist-ssr/firstView.js
//   - the server: esbuild bundles apps/server/src (and the contract) into apps/server/dist/main.js
//     (scripts/bundle-server.mjs: npm packages stay external, migrations copied beside it).
// A part is up to date when the hash of its inputs (sources, package files, lockfile, this script)
// equals the one stored in `<out>/.build-hash`. Each part is built into a temporary folder and
// swapped in by rename, so a server never sees half a build. `--force` rebuilds everything.
// Runs with dependencies only (`npm ci --omit=dev`): esbuild, Vite and its React plugin are
// dependencies for this reason.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bundleServer } from './bundle-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const force = process.argv.includes('--force');
const rel = (...p) => path.join(root, ...p);

/** Files under `dir` (recursively), minus generated folders and `skip`. */
function files(dir, skip = () => false) {
  const out = [];
  const walk = (d) => {
    if (!fs.existsSync(d)) return;
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        if (
          ['node_modules', 'dist', 'dist-ssr', '.vite'].includes(entry.name) ||
          entry.name.startsWith('.dist-')
        )
          continue;
        walk(full);
      } else if (!skip(full)) out.push(full);
    }
  };
  walk(dir);
  return out;
}

function hashOf(paths) {
  const hash = createHash('sha256');
  for (const file of [...new Set(paths)].sort()) {
    hash.update(path.relative(root, file));
    hash.update('\0');
    hash.update(fs.existsSync(file) ? fs.readFileSync(file) : '');
    hash.update('\0');
  }
  return hash.digest('hex');
}

const isTest = (f) => /\.test\.tsx?$/.test(f);
const shared = [
  rel('package.json'),
  rel('package-lock.json'),
  rel('scripts/build.mjs'),
  rel('scripts/bundle-server.mjs'),
  ...files(rel('packages/contract'), isTest),
];

const readHash = (out) => {
  try {
    return fs.readFileSync(path.join(out, '.build-hash'), 'utf8').trim();
  } catch {
    return null;
  }
};

/**
 * Builds one part into a fresh temporary folder, stamps it with its hash and swaps it in place of
 * `out`. Skipped when `out` already carries the hash.
 */
async function part(name, out, inputs, build) {
  const hash = hashOf(inputs);
  if (!force && readHash(out) === hash) {
    console.info(`${name}: up to date`);
    return;
  }
  const started = Date.now();
  const tmp = `${path.dirname(out)}/.dist-${process.pid}-${Date.now()}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  try {
    await build(tmp);
    fs.writeFileSync(path.join(tmp, '.build-hash'), `${hash}\n`);
    const old = `${tmp}-old`;
    if (fs.existsSync(out)) fs.renameSync(out, old);
    fs.renameSync(tmp, out);
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.info(`${name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The server: scripts/bundle-server.mjs (the benchmarks bundle their server the same way). */
function buildServer(out) {
  return bundleServer({ main: 'apps/server/src/main.ts' }, out);
}

/** Vite through the web workspace's own script, which finds Vite wherever npm installed it. */
async function buildWeb(out) {
  const r = spawnSync(
    'npm',
    ['run', 'build', '-w', 'apps/web', '--', '--outDir', out, '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) throw new Error(`vite build exited with ${r.status ?? r.signal}`);
}

/** The server's first view (ADR 0048): the web app's SSR entry, which the server imports. */
async function buildFirstView(out) {
  const r = spawnSync(
    'npm',
    [
      'run',
      'build',
      '-w',
      'apps/web',
      '--',
      '--ssr',
      'src/ssr/firstView.tsx',
      '--outDir',
      out,
      '--logLevel',
      'warn',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`vite build --ssr exited with ${r.status ?? r.signal}`);
}

try {
  await part('web', rel('apps/web/dist'), [...shared, ...files(rel('apps/web'), isTest)], buildWeb);
  await part(
    'web first view',
    rel('apps/web/dist-ssr'),
    [...shared, ...files(rel('apps/web'), isTest)],
    buildFirstView,
  );
  await part(
    'server',
    rel('apps/server/dist'),
    [...shared, rel('apps/server/package.json'), ...files(rel('apps/server/src'), isTest)],
    buildServer,
  );
} catch (err) {
  console.error(`Build failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
