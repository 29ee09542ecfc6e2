import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { LRUCache } from 'lru-cache';
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
  /**
   * Announcements (PostgreSQL NOTIFY) on one of LISTENED_CHANNELS. Each arrives after the writing
   * transaction commits, and on the connection that wrote it before its statement answers (so a
   * change made by this copy is known here before the request that made it goes on). `lost` runs
   * when no connection is left listening (the database restarted, or every idle connection closed):
   * whatever was announced meanwhile was missed.
   */
  onNotify(channel: ListenedChannel, listener: NotifyListener): void;
  /** Whether a connection is listening now (announcements cannot be missed). */
  listening(): boolean;
  close(): Promise<void>;
}

/**
 * The channels every connection listens to: sessions' answers on `fv_auth` (migration 0034),
 * follows and blocks on `fv_relations` (migration 0035).
 */
export const LISTENED_CHANNELS = ['fv_auth', 'fv_relations'] as const;
export type ListenedChannel = (typeof LISTENED_CHANNELS)[number];
export interface NotifyListener {
  message(payload: string): void;
  lost(): void;
}

/**
 * Where announcements go, per channel, and the `lost` signal to all. A payload is '<user id>
 * <transaction id>' (migrations 0034, 0035): each listening connection receives every announcement,
 * so the ones heard lately are remembered and a repeat is dropped; listeners get the user id.
 */
class Announcements {
  private readonly listeners = new Map<string, NotifyListener[]>();
  private readonly heard = new LRUCache<string, true>({ max: 10_000 });
  add(channel: ListenedChannel, listener: NotifyListener): void {
    this.listeners.set(channel, [...(this.listeners.get(channel) ?? []), listener]);
  }
  message(channel: string, payload: string | undefined): void {
    const key = `${channel} ${payload ?? ''}`;
    if (this.heard.has(key)) return;
    this.heard.set(key, true);
    const userId = (payload ?? '').split(' ')[0] ?? '';
    for (const l of this.listeners.get(channel) ?? []) l.message(userId);
  }
  lost(): void {
    for (const list of this.listeners.values()) for (const l of list) l.lost();
  }
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
  const announcements = new Announcements();
  // One in-process connection: it listens from here on and never goes away while open.
  const listened = Promise.all(
    LISTENED_CHANNELS.map((channel) =>
      client.listen(channel, (payload) => announcements.message(channel, payload)),
    ),
  );
  // Listening once LISTEN has run (announcements before it would be missed), until closed.
  let open = false;
  listened.then(
    () => {
      open = true;
    },
    (err: unknown) => console.warn(`LISTEN failed: ${String(err)}`),
  );
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
    onNotify: (channel, listener) => announcements.add(channel, listener),
    listening: () => open,
    close: async () => {
      open = false;
      announcements.lost();
      await listened.catch(() => undefined);
      await client.close();
    },
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
  // Every pooled connection listens before the pool hands it out (pg-pool's onConnect hook), so a
  // change this copy writes is announced on the very connection that wrote it. The count of
  // listening connections tells whether announcements can have been missed (none listening: lost).
  const announcements = new Announcements();
  let listeningConnections = 0;
  const options = pool.options as pg.PoolConfig & {
    onConnect?: (client: pg.PoolClient) => Promise<void> | void;
  };
  const given = options.onConnect;
  options.onConnect = async (client) => {
    await given?.(client);
    client.on('notification', (msg) => announcements.message(msg.channel, msg.payload));
    await client.query(LISTENED_CHANNELS.map((c) => `LISTEN ${c}`).join('; '));
    listeningConnections++;
    client.once('end', () => {
      listeningConnections--;
      if (listeningConnections === 0) announcements.lost();
    });
  };
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
    onNotify: (channel, listener) => announcements.add(channel, listener),
    listening: () => listeningConnections > 0,
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
