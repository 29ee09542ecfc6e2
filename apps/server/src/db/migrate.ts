import fs from 'node:fs';
import path from 'node:path';
import type { Database, SqlExec } from './client.ts';

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
/** Advisory lock key so several server copies starting together migrate once. */
const MIGRATION_LOCK = 727_001;

/** The versioned SQL migrations, in order. */
export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ name: f.replace(/\.sql$/, ''), sql: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

async function applyPending(exec: SqlExec): Promise<string[]> {
  const applied: string[] = [];
  await exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const done = new Set((await exec('SELECT name FROM schema_migrations')).map((r) => String(r.name)));
  for (const m of listMigrations()) {
    if (done.has(m.name)) continue;
    const statements = m.sql
      .split('--> statement-breakpoint')
      .map((s) => s.trim().replace(/;\s*$/, ''))
      .filter(Boolean);
    try {
      await exec(
        `BEGIN;\n${statements.join(';\n')};\nINSERT INTO schema_migrations (name) VALUES ('${m.name}');\nCOMMIT;`,
      );
    } catch (err) {
      await exec('ROLLBACK').catch(() => {});
      throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`);
    }
    applied.push(m.name);
  }
  return applied;
}

/**
 * Applies pending migrations, each in its own transaction, recording them in schema_migrations.
 * The same SQL runs on PGlite and PostgreSQL; on PostgreSQL an advisory lock keeps several
 * server copies starting together from migrating twice.
 */
export function migrate(database: Database): Promise<string[]> {
  return database.session(async (exec) => {
    if (database.kind !== 'postgres') return applyPending(exec);
    await exec(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      return await applyPending(exec);
    } finally {
      await exec(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  });
}
