import type { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type { Database, Db } from '../db/client.ts';
import type { JobTransaction } from './job.ts';

/**
 * pg-boss's `db` option over the client the app already opened: on PGlite (one in-process
 * connection) through `query`/`exec` on the same client, on PostgreSQL through the app's pool.
 * Every job queue of the app (media processing, subscription expiry, payouts) runs on it.
 */
export function pgBossDb(database: Database): TrackedDb {
  return tracked(rawDb(database));
}

/** A pg-boss `db` that knows which of its statements are still running. */
export interface TrackedDb extends PgBoss.Db {
  /**
   * Resolves once no statement is running. pg-boss records a finished job (`complete`/`fail`)
   * without awaiting it and its `stop()` does not wait for those, so closing the pool right after
   * `stop()` would fail them; the queue's own stop waits here first.
   */
  settled(): Promise<void>;
  /** Whether a statement is running. */
  busy(): boolean;
}

function tracked(db: PgBoss.Db): TrackedDb {
  const running = new Set<Promise<unknown>>();
  return {
    executeSql(text, values) {
      const run = db.executeSql(text, values);
      running.add(run);
      const forget = () => running.delete(run);
      run.then(forget, forget);
      return run;
    },
    busy: () => running.size > 0,
    async settled() {
      // A statement that finishes may be followed at once by another (complete, then the next fetch).
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}

function rawDb(database: Database): PgBoss.Db {
  const client = (database.db as unknown as { $client: PGlite | pg.Pool }).$client;
  if (database.kind === 'pglite') {
    const lite = client as PGlite;
    return {
      async executeSql(text, values) {
        if (values?.length) {
          const res = await lite.query(text, values);
          return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
        }
        // Without parameters pg-boss may send several statements (its migrations): exec runs them all.
        const results = await lite.exec(text);
        const last = results.at(-1);
        return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0 };
      },
    };
  }
  const pool = client as pg.Pool;
  return {
    async executeSql(text, values) {
      return values?.length ? pool.query(text, values) : pool.query(text);
    },
  };
}

/**
 * pg-boss's statements on a drizzle transaction (`db.transaction(async (tx) => …)`), for
 * `send(job, data, { within })`: the job row is written by the transaction's connection, so it is
 * committed or rolled back with the rows that need it. pg-boss numbers its parameters ($1 … $n);
 * each becomes a bound parameter of the query builder at its place.
 */
export function jobTransaction(tx: Pick<Db, 'execute'>): JobTransaction {
  return {
    async executeSql(text, values = []) {
      const chunks: SQL[] = [];
      let from = 0;
      for (const m of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(from, m.index)), sql`${sql.param(values[Number(m[1]) - 1])}`);
        from = m.index + m[0].length;
      }
      chunks.push(sql.raw(text.slice(from)));
      const result = (await tx.execute(sql.join(chunks))) as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}
