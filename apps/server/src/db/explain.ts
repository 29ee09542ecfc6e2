/**
 * EXPLAIN of a captured statement as PostgreSQL runs it: with its values (the custom plan), and as
 * the prepared statement it is once reused (the generic plan). Both stores prepare the app's
 * statements (node-postgres by name, PGlite through `withPreparedStatements`), and after five runs
 * PostgreSQL keeps a generic plan, which does not know the values, when it costs no more than the
 * custom ones: a plan that is fine with values can read a whole table without them (the viewer's
 * statement did, session 20: `id = ANY($1)` with an array of unknown length). Tests and the
 * benchmark look at both.
 */
import { createRequire } from 'node:module';
import pg from 'pg';
import type { CapturedStatement, Database } from './client.ts';

/** node-postgres's conversion of a parameter to the text it sends (not in its typings). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(value: unknown): unknown;
};

/**
 * A parameter as the SQL literal of the text the driver sends for it (node-postgres's own
 * conversion: arrays as array literals, dates as timestamps, objects as JSON), untyped, so that
 * EXECUTE casts it to the type the statement inferred, as the driver's untyped parameter is.
 */
function sqlLiteral(value: unknown): string {
  const text = prepareValue(value);
  if (text === null || text === undefined) return 'NULL';
  if (Buffer.isBuffer(text)) return `'\\x${text.toString('hex')}'`;
  return pg.escapeLiteral(String(text));
}

/** The plan (FORMAT JSON) of one EXPLAIN answer row, on either store. */
function jsonPlan(rows: Record<string, unknown>[]): unknown {
  const plan = rows[0]?.['QUERY PLAN'];
  return typeof plan === 'string' ? JSON.parse(plan) : plan;
}

/**
 * EXPLAIN (not run) of `statement`'s generic plan: prepared on a connection of its own with
 * `plan_cache_mode = force_generic_plan`, executed with its values written as literals.
 * (`EXPLAIN (GENERIC_PLAN)` would do it with no values, but only from PostgreSQL 16.)
 */
function explainGenericRows(
  database: Database,
  statement: CapturedStatement,
  options: string,
): Promise<Record<string, unknown>[]> {
  return database.session(async (exec) => {
    await exec('SET plan_cache_mode = force_generic_plan');
    try {
      await exec(`PREPARE fv_explain_generic AS ${statement.sql}`);
      try {
        const values = statement.params.map(sqlLiteral);
        const args = values.length ? `(${values.join(', ')})` : '';
        return await exec(`EXPLAIN (${options}) EXECUTE fv_explain_generic${args}`);
      } finally {
        await exec('DEALLOCATE fv_explain_generic');
      }
    } finally {
      await exec('RESET plan_cache_mode');
    }
  });
}

/** The generic plan of `statement`, as EXPLAIN (FORMAT JSON) gives it. */
export async function explainGeneric(database: Database, statement: CapturedStatement): Promise<unknown> {
  return jsonPlan(await explainGenericRows(database, statement, 'FORMAT JSON'));
}

/** The generic plan of `statement` as EXPLAIN's text (for reports). */
export async function explainGenericText(database: Database, statement: CapturedStatement): Promise<string> {
  const rows = await explainGenericRows(database, statement, 'FORMAT TEXT');
  return rows.map((r) => String(r['QUERY PLAN'])).join('\n');
}

interface RawClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** EXPLAIN `options` of `statement` with its values, through the app's own client (the custom plan). */
function explainWithValues(database: Database, statement: CapturedStatement, options: string) {
  const client = (database.db as unknown as { $client: RawClient }).$client;
  return client.query(`EXPLAIN (${options}) ${statement.sql}`, statement.params);
}

/** The custom plan of `statement` (EXPLAIN (FORMAT JSON) with its values, not run). */
export async function explainCustom(database: Database, statement: CapturedStatement): Promise<unknown> {
  return jsonPlan((await explainWithValues(database, statement, 'FORMAT JSON')).rows);
}

/** EXPLAIN (ANALYZE, BUFFERS) of `statement` with its values, as text: it runs (reads only, for reports). */
export async function explainAnalyzeText(database: Database, statement: CapturedStatement): Promise<string> {
  const { rows } = await explainWithValues(database, statement, 'ANALYZE, BUFFERS');
  return rows.map((r) => String(r['QUERY PLAN'])).join('\n');
}
