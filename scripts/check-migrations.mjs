// Fails when db/schema.ts has changes that no migration file carries (generated files up to date).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const migrations = path.join(root, 'apps/server/src/db/migrations');
// drizzle-kit wants paths relative to the working directory.
const tmp = fs.mkdtempSync(path.join(root, 'node_modules', '.fv-migrations-'));
const out = path.join(tmp, 'migrations');
fs.cpSync(migrations, out, { recursive: true });
const config = path.join(tmp, 'drizzle.config.mjs');
fs.writeFileSync(
  config,
  `export default ${JSON.stringify({ dialect: 'postgresql', schema: './apps/server/src/db/schema.ts', out: path.relative(root, out) })};\n`,
);
const r = spawnSync('npx', ['drizzle-kit', 'generate', '--config', config], { cwd: root, encoding: 'utf8' });
const before = fs.readdirSync(migrations).filter((f) => f.endsWith('.sql')).length;
const after = fs.readdirSync(out).filter((f) => f.endsWith('.sql')).length;
fs.rmSync(tmp, { recursive: true, force: true });
if (r.status !== 0) {
  console.error(r.stdout, r.stderr);
  process.exit(1);
}
if (after !== before) {
  console.error(
    'db/schema.ts changed without a migration: run `npm run db:generate -- --name <change>` and commit it.',
  );
  process.exit(1);
}
console.info('Migrations are up to date with db/schema.ts.');
