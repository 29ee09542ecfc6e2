import { type PGlite, parse, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';

/** How many statement texts stay prepared in the embedded store (least recently used closed first). */
const MAX_PREPARED = 256;

interface Prepared {
  name: string;
  paramTypes: number[];
}

/**
 * Named prepared statements on the embedded store (ADR 0017). `PGlite.query` parses, describes
 * and plans its statement on every call (six protocol exchanges with the WASM backend), which was
 * most of a signed-in feed request's CPU; the PostgreSQL pool gets the same saving from
 * `.prepare(name)` and the server's plan cache. Here every statement the query builder issues
 * outside a transaction is parsed once into a named statement (kept for the
 * `MAX_PREPARED` most recent texts), then each call is one Bind/Describe/Execute/Sync exchange.
 * PostgreSQL re-analyses a prepared statement by itself when a table it reads changes, chooses
 * custom or generic plans as for any prepared statement, and results are parsed by PGlite's own
 * parsers, so answers are the same as `query`'s (statements with a blob or inside a transaction
 * keep PGlite's path).
 */
export function withPreparedStatements(client: PGlite, max = MAX_PREPARED): PGlite {
  const prepared = new Map<string, Prepared>();
  let counter = 0;

  const exec = async (message: Uint8Array) =>
    (await client.execProtocol(message, { syncToFs: false })).messages;

  async function prepare(text: string): Promise<Prepared> {
    const known = prepared.get(text);
    if (known) {
      // Most recently used last: the map's order is the eviction order.
      prepared.delete(text);
      prepared.set(text, known);
      return known;
    }
    if (prepared.size >= max) await forget(prepared.keys().next().value as string);
    const name = `fv_s${++counter}`;
    const described = await exec(
      concat([
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
    );
    const entry = { name, paramTypes: parse.parseDescribeStatementResults(described) };
    prepared.set(text, entry);
    return entry;
  }

  /**
   * PGlite's parsers with a caller's overrides. `parseResults` would copy all of PGlite's parsers
   * (hundreds) for every statement that brings its own; the query builder brings the same few
   * (identity functions for dates and intervals) each time, so the merge is kept by their text.
   * PGlite's own parsers are the prototype: types it registers later are still found.
   */
  const merged = new Map<string, Record<string, (value: string, typeId?: number) => unknown>>();
  function mergedParsers(overrides: NonNullable<QueryOptions['parsers']>) {
    const key = Object.entries(overrides)
      .map(([oid, fn]) => `${oid}:${String(fn)}`)
      .join('\n');
    let all = merged.get(key);
    if (!all) {
      all = Object.assign(Object.create(client.parsers) as Record<string, never>, overrides);
      if (merged.size < 100) merged.set(key, all);
    }
    return all;
  }

  async function forget(text: string): Promise<void> {
    const old = prepared.get(text);
    if (!old) return;
    prepared.delete(text);
    await exec(concat([protocol.serialize.close({ type: 'S', name: old.name }), protocol.serialize.sync()]));
  }

  async function run<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const statement = await prepare(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const oid = statement.paramTypes[i] ?? 0;
      const serialize = options?.serializers?.[oid] ?? client.serializers[oid];
      return serialize ? serialize(value) : String(value);
    });
    const messages = await exec(
      concat([
        protocol.serialize.bind({ statement: statement.name, values: values as string[] }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
    );
    await client.syncToFs();
    const { parsers, ...rest } = options ?? {};
    return parse.parseResults(
      messages,
      parsers ? mergedParsers(parsers) : client.parsers,
      rest,
    )[0] as Results<T>;
  }

  const query = async <T>(
    text: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<Results<T>> => {
    if (options?.blob) return client.query<T>(text, params, options);
    // The same locks as `PGlite.query`: never inside another caller's transaction or query.
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        try {
          return await run<T>(text, params, options);
        } catch (err) {
          // A table changed shape under the statement: prepare it again, once.
          if (err instanceof Error && /cached plan must not change result type/.test(err.message)) {
            await forget(text);
            return await run<T>(text, params, options);
          }
          if (err && typeof err === 'object' && 'code' in err) Object.assign(err, { query: text, params });
          throw err;
        }
      }),
    );
  };

  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'query') return query;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
