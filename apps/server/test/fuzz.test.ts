/**
 * A fuzz test of every endpoint of the contract (issue 11). For each endpoint and each role
 * (anonymous, fan, creator, admin, super) it sends inputs generated from the endpoint's own zod
 * schemas (through their JSON Schema): mostly near-valid values, mutated with wrong types, missing
 * and extra fields, huge and unusual Unicode strings, NUL characters and deep nesting; upload
 * endpoints also get malformed multipart bodies. Every answer must be below 500, and every error
 * must be `{ code, message, fields? }` with a code of the catalogue.
 *
 * Reproduce a failure with the seed it prints: FUZZ_SEED=<seed> (FUZZ_RUNS sets runs per role).
 */
import { randomBytes } from 'node:crypto';
import { type EndpointName, ERRORS, endpoints } from '@fanverse/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPost, createUser } from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);

type Json = Record<string, unknown>;
type Role = 'anonymous' | 'fan' | 'creator' | 'admin' | 'super';
const ROLES: Role[] = ['anonymous', 'fan', 'creator', 'admin', 'super'];

let t: TestApp;
const tokens: Partial<Record<Role, string>> = {};
/** Real identifiers, so that some generated inputs reach past "not found". */
const pool = { uuids: [] as string[], handles: [] as string[] };

beforeAll(async () => {
  t = await createTestApp({ RATE_LOGIN_PER_IP: '100000', RATE_SIGNUP_PER_IP: '100000' });
  const fan = await createUser(t, { verified: true });
  const creator = await createUser(t, { roles: ['user', 'fan', 'creator'], verified: true });
  const admin = await createUser(t, { roles: ['user', 'admin'] });
  const sup = await createUser(t, { roles: ['user', 'admin', 'super'] });
  Object.assign(tokens, { fan: fan.token, creator: creator.token, admin: admin.token, super: sup.token });
  // A creator the fuzzed calls may act on (follow, block, suspend…) without touching the callers.
  const victim = await createUser(t, { roles: ['user', 'fan', 'creator'], verified: true });
  const post = await createPost(t, victim);
  pool.uuids.push(victim.id, post);
  pool.handles.push(victim.username);
}, 60_000);
afterAll(() => t?.stop());

// ---------------------------------------------------------------------------------------------
// Arbitraries from JSON Schema (zod's toJSONSchema, input side)

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

const NASTY_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\uD800',
  '\uDFFF\uD800',
  '👩‍👩‍👧‍👦',
  '\u202Eevil',
  'Ω≈ç√∫˜µ≤≥÷',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%00',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'NaN',
  '-1',
  '1e309',
  '9'.repeat(400),
  'x'.repeat(70_000),
  '\u{10FFFF}'.repeat(1000),
];

function deep(levels: number, leaf: unknown, asArray: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = asArray ? [v] : { a: v };
  return v;
}

/** Values of the wrong shape, whatever the schema says. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    0,
    -1,
    1.5,
    Number.MAX_SAFE_INTEGER,
    [],
    {},
    deep(2000, 'x', true),
    deep(2000, 1, false),
  ),
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
);

/** A string of the schema's shape, or a nasty one, or one with a NUL character spliced in. */
function stringArb(s: Schema): fc.Arbitrary<string> {
  const shaped = shapedString(s);
  return fc.oneof(
    { weight: 4, arbitrary: shaped },
    { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 1, arbitrary: shaped.map((v) => `${v.slice(0, 2)}\u0000${v.slice(2)}`) },
  );
}

function shapedString(s: Schema): fc.Arbitrary<string> {
  if (s.format === 'uuid') return fc.oneof(fc.constantFrom(...pool.uuids), fc.uuid());
  if (s.format === 'email') return fc.emailAddress();
  if (s.pattern) {
    try {
      return fc.oneof(
        fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 200)),
        fc.constantFrom(...pool.handles),
      );
    } catch {
      // Patterns fast-check cannot invert fall through to plain strings.
    }
  }
  return fc.oneof(
    fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 60) }),
    fc.constantFrom(...pool.handles, ...pool.uuids, '2000-01-01', '1', 'all', 'true'),
  );
}

function validish(s: Schema, depth: number): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union?.length) return fc.oneof(...union.map((u) => fuzz(u, depth + 1)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return fc.integer({ min: s.minimum ?? -5, max: Math.min(s.maximum ?? 1000, 1_000_000) });
    case 'number':
      return fc.oneof(fc.integer({ min: s.minimum ?? -5, max: s.maximum ?? 1000 }), fc.double());
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(s.items ? fuzz(s.items, depth + 1) : hostile, {
        maxLength: Math.min(s.maxItems ?? 4, 6),
      });
    case 'object': {
      const props = s.properties ?? {};
      const keys = Object.keys(props);
      const shape = Object.fromEntries(keys.map((k) => [k, fuzz(props[k] as Schema, depth + 1)]));
      const required = (s.required ?? []).filter((k) => keys.includes(k));
      return fc
        .tuple(
          fc.record(shape, { requiredKeys: required }),
          // Missing fields: drop some, even required ones.
          fc.subarray(keys, { maxLength: Math.min(2, keys.length) }),
          // Extra fields.
          fc.dictionary(
            fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'prototype')),
            hostile,
            { maxKeys: 2 },
          ),
        )
        .map(([value, drop, extra]) => {
          const out: Json = { ...extra, ...(value as Json) };
          for (const k of drop) delete out[k];
          return out;
        });
    }
    default:
      return hostile;
  }
}

/** Mostly near-valid, sometimes hostile, at every level. */
function fuzz(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return hostile;
  return fc.oneof({ weight: 6, arbitrary: validish(s, depth) }, { weight: 1, arbitrary: hostile });
}

function schemaOf(type: z.ZodType | undefined): Schema {
  if (!type) return { type: 'object', properties: {} };
  return z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' }) as Schema;
}

// ---------------------------------------------------------------------------------------------
// Requests

/** A value as it can travel in a query string or a form field. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  } catch {
    return '[]';
  }
}

function queryString(input: unknown): string {
  const params = new URLSearchParams();
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    for (const [k, v] of Object.entries(input)) {
      for (const item of Array.isArray(v) ? v : [v]) params.append(k, text(item));
    }
  } else if (input !== undefined) {
    params.append(text(input), text(input));
  }
  return params.toString();
}

function pathWith(path: string, params: unknown): string {
  const values = (params && typeof params === 'object' ? params : {}) as Json;
  // A lone surrogate has no UTF-8 form, so no client can put one in a URL: it becomes U+FFFD.
  return path.replace(/:(\w+)/g, (_, k: string) =>
    encodeURIComponent(text(values[k]).replace(/\p{Surrogate}/gu, '\uFFFD') || 'x'),
  );
}

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A multipart/form-data body from fields and files, optionally broken. */
function multipartBody(
  fields: unknown,
  files: Buffer[],
  breakage: 'none' | 'truncate' | 'noBoundary' | 'wrongBoundary' | 'garbage',
): { contentType: string; payload: Buffer } {
  const boundary = `fuzz${randomBytes(6).toString('hex')}`;
  const parts: Buffer[] = [];
  if (fields && typeof fields === 'object' && !Array.isArray(fields)) {
    for (const [k, v] of Object.entries(fields)) {
      for (const item of Array.isArray(v) ? v : [v]) {
        parts.push(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '')}"\r\n\r\n${text(item)}\r\n`,
          ),
        );
      }
    }
  }
  files.forEach((file, i) => {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="f${i}.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  let payload = Buffer.concat(parts);
  let contentType = `multipart/form-data; boundary=${boundary}`;
  if (breakage === 'truncate') payload = payload.subarray(0, Math.floor(payload.length / 2));
  if (breakage === 'noBoundary') contentType = 'multipart/form-data';
  if (breakage === 'wrongBoundary') contentType = 'multipart/form-data; boundary=not-this-one';
  if (breakage === 'garbage') payload = randomBytes(200);
  return { contentType, payload };
}

const KNOWN_CODES = new Set(Object.keys(ERRORS));

function checkAnswer(
  name: EndpointName,
  role: Role,
  sent: unknown,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
): void {
  const where = `${name} as ${role} with ${text(sent).slice(0, 300)}`;
  expect(res.statusCode, `${where} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode < 400) return;
  expect(String(res.headers['content-type']), where).toMatch(/application\/json/);
  const body = JSON.parse(res.body) as Json;
  expect(KNOWN_CODES.has(String(body.code)), `${where}: unknown code ${String(body.code)}`).toBe(true);
  expect(typeof body.message, where).toBe('string');
  expect(
    Object.keys(body).every((k) => ['code', 'message', 'fields'].includes(k)),
    where,
  ).toBe(true);
  if (body.fields !== undefined) {
    expect(typeof body.fields, where).toBe('object');
    expect(
      Object.values(body.fields as Json).every((v) => typeof v === 'string'),
      where,
    ).toBe(true);
  }
}

function headersFor(role: Role, lang: 'en' | 'es'): Record<string, string> {
  const token = tokens[role as Exclude<Role, 'anonymous'>];
  return { ilang: lang, ...(token ? { a1sledom: token } : {}) };
}

const randomIp = fc
  .tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: 1, max: 254 }))
  .map(([a, b]) => `10.200.${a}.${b}`);

// Logout and account deletion last: they may end the caller's session.
const LAST: EndpointName[] = ['auth.logout', 'user.delete'];
const NAMES = (Object.keys(endpoints) as EndpointName[]).sort(
  (a, b) => Number(LAST.includes(a)) - Number(LAST.includes(b)),
);

describe('fuzzing every endpoint of the contract', () => {
  for (const name of NAMES) {
    const def = endpoints[name] as {
      method: string;
      path: string;
      input?: z.ZodType;
      params?: z.ZodType;
      multipart?: boolean;
    };
    it(`${def.method} ${def.path} (${name}) never answers 5xx and errors are in the catalogue`, async () => {
      const input = fuzz(schemaOf(def.input));
      const params = validish(schemaOf(def.params), 0);
      const top = fc.oneof({ weight: 5, arbitrary: input }, { weight: 1, arbitrary: hostile });
      for (const role of ROLES) {
        await fc.assert(
          fc.asyncProperty(
            top,
            params,
            randomIp,
            fc.constantFrom('en' as const, 'es' as const),
            async (value, p, ip, lang) => {
              const query = def.method === 'GET' || def.method === 'DELETE';
              const path = `/api/v1${pathWith(def.path, p)}`;
              const qs = query ? queryString(value) : '';
              const res = await t.app.inject({
                method: def.method as 'GET',
                url: qs ? `${path}?${qs}` : path,
                headers: query
                  ? headersFor(role, lang)
                  : { ...headersFor(role, lang), 'content-type': 'application/json' },
                payload: query ? undefined : JSON.stringify(value ?? null),
                remoteAddress: ip,
              });
              checkAnswer(name, role, value, res);
            },
          ),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
        if (!def.multipart) continue;
        await fc.assert(
          fc.asyncProperty(
            input,
            fc.array(
              fc.oneof(
                fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
                fc.uint8Array({ maxLength: 100 }).map((b) => Buffer.concat([PNG_HEAD, Buffer.from(b)])),
              ),
              { maxLength: 2 },
            ),
            fc.constantFrom('none', 'truncate', 'noBoundary', 'wrongBoundary', 'garbage') as fc.Arbitrary<
              'none' | 'truncate' | 'noBoundary' | 'wrongBoundary' | 'garbage'
            >,
            params,
            randomIp,
            async (fields, files, breakage, p, ip) => {
              const { contentType, payload } = multipartBody(fields, files, breakage);
              const res = await t.app.inject({
                method: def.method as 'POST',
                url: `/api/v1${pathWith(def.path, p)}`,
                headers: { ...headersFor(role, 'en'), 'content-type': contentType },
                payload,
                remoteAddress: ip,
              });
              checkAnswer(name, role, { breakage, fields }, res);
            },
          ),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
      }
    }, 120_000);
  }
});
