import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** Runs one or more SQL statements; answers the rows of the last one. */
export type SqlExec = (sqlText: string) => Promise<Record<string, unknown>[]>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs `fn` on one dedicated connection (session-level locks, multi-statement scripts). */
  session<T>(fn: (exec: SqlExec) => Promise<T>): Promise<T>;
  /** Cheap liveness query for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function wrapPglite(client: PGlite): Database {
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    kind: 'pglite',
    session: (fn) =>
      fn(async (sqlText) => {
        const results = await client.exec(sqlText);
        return (results.at(-1)?.rows ?? []) as Record<string, unknown>[];
      }),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

export function wrapPostgres(pool: pg.Pool): Database {
  return {
    db: drizzlePg(pool, { schema }) as unknown as Db,
    kind: 'postgres',
    session: async (fn) => {
      const conn = await pool.connect();
      try {
        return await fn(async (sqlText) => {
          const result = (await conn.query(sqlText)) as pg.QueryResult | pg.QueryResult[];
          const last = Array.isArray(result) ? result.at(-1) : result;
          return (last?.rows ?? []) as Record<string, unknown>[];
        });
      } finally {
        conn.release();
      }
    },
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
  };
}

/** A PGlite with the extensions the migrations use (pg_trgm for typo-tolerant search). */
export function createPglite(options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, extensions: { pg_trgm } });
}

/** PostgreSQL when a URL is given, otherwise PGlite files under dataDir. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    return wrapPostgres(pool);
  }
  const dir = path.join(opts.dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const client = await createPglite({ dataDir: dir });
  return wrapPglite(client);
}
