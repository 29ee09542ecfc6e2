import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPglite } from './client.ts';
import { withPreparedStatements } from './pglite-statements.ts';

type PGlite = Awaited<ReturnType<typeof createPglite>>;
let raw: PGlite;
let prepared: PGlite;

beforeAll(async () => {
  raw = await createPglite();
  prepared = withPreparedStatements(raw, 3);
  await raw.exec(`CREATE TABLE t (id uuid PRIMARY KEY, n int, at timestamptz, tags text[], doc jsonb)`);
  await raw.exec(`INSERT INTO t VALUES
    ('00000000-0000-0000-0000-000000000001', 1, '2026-01-02T03:04:05Z', '{a,b}', '{"k": [1]}'),
    ('00000000-0000-0000-0000-000000000002', NULL, NULL, '{}', NULL)`);
});
afterAll(() => raw.close());

const ids = ['00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002'];

describe('prepared statements on the embedded store', () => {
  it('answers what PGlite.query answers, in both row modes and with overridden parsers', async () => {
    const text = 'SELECT * FROM t WHERE id = ANY($1::uuid[]) AND (n IS NULL OR n >= $2) ORDER BY id';
    for (const options of [
      undefined,
      { rowMode: 'array' as const },
      { parsers: { 1184: (v: string) => `at ${v}` } },
    ]) {
      for (let i = 0; i < 7; i++) {
        // The seventh run uses PostgreSQL's generic plan.
        expect(await prepared.query(text, [ids, 0], options)).toEqual(
          await raw.query(text, [ids, 0], options),
        );
      }
    }
  });

  it('writes, and fails with the database error code (never a wrong answer)', async () => {
    await prepared.query('UPDATE t SET n = $1 WHERE id = $2', [5, ids[1]]);
    expect((await raw.query<{ n: number }>('SELECT n FROM t WHERE id = $1', [ids[1]])).rows[0]?.n).toBe(5);
    await expect(prepared.query('SELECT * FROM t WHERE id = $1', ['not a uuid'])).rejects.toMatchObject({
      code: '22P02',
    });
    await expect(prepared.query('INSERT INTO t (id) VALUES ($1)', [ids[0]])).rejects.toMatchObject({
      code: '23505',
    });
    // The connection is usable after an error.
    expect((await prepared.query('SELECT count(*)::int AS c FROM t')).rows).toEqual([{ c: 2 }]);
  });

  it('keeps only the most recent statements, and prepares again after a table changed shape', async () => {
    for (let i = 0; i < 6; i++) {
      expect((await prepared.query(`SELECT $1::int + ${i} AS v`, [1])).rows).toEqual([{ v: 1 + i }]);
    }
    const open = await raw.query<{ c: number }>(
      `SELECT count(*)::int AS c FROM pg_prepared_statements WHERE name LIKE 'fv_s%'`,
    );
    expect(open.rows[0]?.c).toBeLessThanOrEqual(3);
    const text = 'SELECT * FROM t ORDER BY id';
    await prepared.query(text);
    await raw.exec('ALTER TABLE t ADD COLUMN extra text');
    const after = await prepared.query<Record<string, unknown>>(text);
    expect(after.rows[0]).toHaveProperty('extra', null);
  });
});
