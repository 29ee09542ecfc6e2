import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { withPreparedStatements } from './pglite-statements.ts';
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
  /**
   * Connections of the pool (PostgreSQL): open, idle, and callers waiting for one. PGlite is one
   * in-process connection: total 1, nobody waits on a pool.
   */
  poolStats(): { total: number; idle: number; waiting: number };
  /**
   * Where lost connections are reported (a PostgreSQL restart ends every open connection). The
   * pool replaces them on the next query; without a listener they go to stderr.
   */
  onConnectionError(listener: (err: Error) => void): void;
  close(): Promise<void>;
}

/** One SQL statement issued through the query builder, with its parameters. */
export interface CapturedStatement {
  sql: string;
  params: unknown[];
}

const captured = new AsyncLocalStorage<CapturedStatement[]>();

/** Records the statements of the current async context while `captureStatements` is running. */
const statementLogger: Logger = {
  logQuery(query, params) {
    captured.getStore()?.push({ sql: query, params });
  },
};

/**
 * Runs `fn` and answers the statements it issued through the query builder (tests and benchmarks
 * count them per request and EXPLAIN them). Outside a capture the logger does nothing.
 */
export async function captureStatements<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; statements: CapturedStatement[] }> {
  const statements: CapturedStatement[] = [];
  // Awaited inside the context: query builders and inject chains only start when awaited.
  const result = await captured.run(statements, async () => await fn());
  return { result, statements };
}

export function wrapPglite(client: PGlite): Database {
  return {
    db: drizzlePglite(withPreparedStatements(client), { schema, logger: statementLogger }) as unknown as Db,
    kind: 'pglite',
    session: (fn) =>
      fn(async (sqlText) => {
        const results = await client.exec(sqlText);
        return (results.at(-1)?.rows ?? []) as Record<string, unknown>[];
      }),
    ping: async () => {
      await client.query('select 1');
    },
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    onConnectionError: () => {},
    close: () => client.close(),
  };
}

/**
 * A pool that survives the database going away: node-postgres emits 'error' on the pool for an
 * idle connection and on a checked-out client between queries (a transaction waiting on other
 * work), and an 'error' event without a listener ends the process. Both are listened to here, for
 * every pool the app opens; the failed query itself rejects and the error handler answers 503.
 */
export function wrapPostgres(pool: pg.Pool): Database {
  const listeners: ((err: Error) => void)[] = [];
  const report = (err: Error) => {
    if (!listeners.length) console.warn(`database connection lost: ${err.message}`);
    for (const listener of listeners) listener(err);
  };
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  return {
    db: drizzlePg(pool, { schema, logger: statementLogger }) as unknown as Db,
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
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    onConnectionError: (listener) => {
      listeners.push(listener);
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
    // A connection attempt to a database that is away fails within 5 s instead of holding the request.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, connectionTimeoutMillis: 5_000 });
    return wrapPostgres(pool);
  }
  const dir = path.join(opts.dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const client = await createPglite({ dataDir: dir });
  return wrapPglite(client);
}
