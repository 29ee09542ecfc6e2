// The server's production bundle, written once for `npm run build` (scripts/build.mjs) and the
// benchmarks (bench/processes.ts), so a benchmark measures the code `npm start` runs rather than
// the sources through a run-time TypeScript loader (tsx adds a `__name` call to every function it
// creates, and its own hooks).
//   esbuild bundles the given entries (our code and the workspace contract, which ships
//   TypeScript); every npm package stays external and is loaded from node_modules, so native and
//   WASM packages (sharp, argon2, PGlite, the ffmpeg installers…) work as installed. The watermark
//   pool's thread (watermark/mark.worker.ts) is built next to the entries, and the SQL migrations
//   are copied there too, where `migrate.ts` looks for them (`import.meta.dirname`).
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const rel = (...p) => path.join(root, ...p);

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

/**
 * Bundles `entries` (output name → source path relative to the repository) into `out`, with the
 * watermark worker and the migrations beside them. Fails when our code imports a package that
 * apps/server/package.json does not list in "dependencies" (a production install would lack it).
 */
export async function bundleServer(entries, out) {
  const esbuild = await import('esbuild');
  const allowed = runtimePackages();
  const builtins = new Set(builtinModules);
  const missing = new Set();
  const entryPoints = Object.fromEntries(Object.entries(entries).map(([name, src]) => [name, rel(src)]));
  entryPoints['mark.worker'] = rel('apps/server/src/watermark/mark.worker.ts');
  await esbuild.build({
    entryPoints,
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [
      {
        // Our own code (and the workspace contract) is bundled; every npm package stays an import.
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
  fs.mkdirSync(path.join(out, 'migrations'), { recursive: true });
  for (const f of fs.readdirSync(migrations).filter((f) => f.endsWith('.sql'))) {
    fs.copyFileSync(path.join(migrations, f), path.join(out, 'migrations', f));
  }
}
