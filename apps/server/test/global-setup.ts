import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPglite, wrapPglite, wrapPostgres } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}

/** What names a test file's copy of the template after it (`templateCopyName`). */
const COPY_INFIX = '_f_';

/**
 * Migrates one database per run and lets every test file copy it, as Immich copies a template
 * database: booting and migrating a fresh PGlite per file would dominate the suite.
 * With DATABASE_URL, the template is a PostgreSQL database each test file clones.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `fv_tpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const tplUrl = withDatabase(url, name);
    const pool = new pg.Pool({ connectionString: tplUrl, max: 2 });
    await migrate(wrapPostgres(pool));
    await pool.end();
    project.provide('pgTemplate', name);
    project.provide('pgliteTemplate', '');
    return async () => {
      // The template and every test file's copy of it (named by `templateCopyName`).
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
        [name, `${name}${COPY_INFIX.replaceAll('_', '\\_')}%`],
      );
      for (const r of rows) await admin.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`);
      await admin.end();
    };
  }
  const client = await createPglite();
  await migrate(wrapPglite(client));
  const dump = await client.dumpDataDir('none');
  const file = path.join(os.tmpdir(), `fanverse-template-${process.pid}.tar`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  project.provide('pgliteTemplate', file);
  project.provide('pgTemplate', '');
  return () => fs.rmSync(file, { force: true });
}

/**
 * The name of a test file's copy of the run's template database: named after the template, so the
 * run's teardown drops it with the template (test files run in worker processes, whose pids the
 * teardown cannot know).
 */
export function templateCopyName(template: string): string {
  return `${template}${COPY_INFIX}${randomBytes(4).toString('hex')}`;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
