// `npm run build` (and the first step of `npm start`): builds what production runs, each part only
// when its inputs changed since its last build.
//   - the web app: Vite → apps/web/dist
//   - the web app's first view for the server (ADR 0048): Vite SSR → apps/web/dist-ssr/firstView.js
//   - the server: esbuild bundles apps/server/src (and the contract) into apps/server/dist/main.js;
//     every npm package stays external and is loaded from node_modules, so native and WASM packages
//     (sharp, argon2, PGlite, the ffmpeg installers…) work as installed. The SQL migrations are
//     copied next to the bundle, where `migrate.ts` looks for them (`import.meta.dirname`).
// A part is up to date when the hash of its inputs (sources, package files, lockfile, this script)
// equals the one stored in `<out>/.build-hash`. Each part is built into a temporary folder and
// swapped in by rename, so a server never sees half a build. `--force` rebuilds everything.
// Runs with dependencies only (`npm ci --omit=dev`): esbuild, Vite and its React plugin are
// dependencies for this reason.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

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

/** npm packages the server may load at run time: its dependencies and the contract's. */
function runtimePackages() {
  const deps = (p) => Object.keys(JSON.parse(fs.readFileSync(rel(p), 'utf8')).dependencies ?? {});
  return new Set([...deps('apps/server/package.json'), ...deps('packages/contract/package.json')]);
}

const packageName = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

async function buildServer(out) {
  const esbuild = await import('esbuild');
  const allowed = runtimePackages();
  const builtins = new Set(builtinModules);
  const missing = new Set();
  await esbuild.build({
    // The watermark pool's thread (watermark/mark.worker.ts) is loaded by file next to main.js.
    entryPoints: {
      main: rel('apps/server/src/main.ts'),
      'mark.worker': rel('apps/server/src/watermark/mark.worker.ts'),
    },
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [
      {
        // Our own code (and the workspace contract, which ships TypeScript) is bundled; every
        // npm package stays an import resolved from node_modules at run time.
        name: 'external-packages',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith('@fanverse/')) return undefined;
            const name = packageName(args.path.replace(/^node:/, ''));
            if (!args.path.startsWith('node:') && !builtins.has(name) && !allowed.has(name)) {
              missing.add(name);
            }
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  if (missing.size) {
    throw new Error(
      `the server imports ${[...missing].join(', ')} but apps/server/package.json does not list ${
        missing.size > 1 ? 'them' : 'it'
      } in "dependencies": production installs (npm ci --omit=dev) would lack ${missing.size > 1 ? 'them' : 'it'}`,
    );
  }
  const migrations = rel('apps/server/src/db/migrations');
  fs.mkdirSync(path.join(out, 'migrations'));
  for (const f of fs.readdirSync(migrations).filter((f) => f.endsWith('.sql'))) {
    fs.copyFileSync(path.join(migrations, f), path.join(out, 'migrations', f));
  }
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
