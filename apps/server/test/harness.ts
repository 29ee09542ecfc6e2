import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AuthResponse, EndpointName, EndpointOutput } from '@fanverse/contract';
import { endpoints } from '@fanverse/contract';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { createPglite, type Database, wrapPglite, wrapPostgres } from '../src/db/client.ts';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from '../src/lib/rate-limiter.ts';
import { templateCopyName, withDatabase } from './global-setup.ts';

/** A fresh copy of the migrated template database for one test file (`url` set on PostgreSQL). */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  const pgTemplate = inject('pgTemplate');
  const url = process.env.DATABASE_URL;
  if (pgTemplate && url) {
    const name = templateCopyName(pgTemplate);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${pgTemplate}`);
    await admin.end();
    const dbUrl = withDatabase(url, name);
    return { ...wrapPostgres(new pg.Pool({ connectionString: dbUrl, max: 5 })), url: dbUrl };
  }
  const file = inject('pgliteTemplate');
  const client = await createPglite({ loadDataDir: new Blob([fs.readFileSync(file)]) });
  return wrapPglite(client);
}

export interface TestApp extends BuiltApp {
  config: Config;
  database: Database;
  /** The PostgreSQL URL of this app's database (unset on PGlite), for a second app on the same data. */
  databaseUrl?: string;
  /** Calls an endpoint of the contract through the real HTTP pipeline. */
  call<N extends EndpointName>(
    name: N,
    input?: unknown,
    opts?: CallOptions,
  ): Promise<{ status: number; body: TestOutput<N> & ErrorShape; headers: Record<string, unknown> }>;
  stop(): Promise<void>;
}

/**
 * What a call answers. A login answers a session, or (two-step sign-in on) a challenge: tests read
 * the session's fields directly, and a test that gets a challenge instead fails on them.
 */
type TestOutput<N extends EndpointName> = N extends 'auth.login'
  ? AuthResponse & Partial<Extract<EndpointOutput<'auth.login'>, { twoFactor: unknown }>>
  : N extends 'auth.oidcCallback'
    ? AuthResponse &
        Partial<
          Extract<EndpointOutput<N>, { twoFactor: unknown }> &
            Extract<EndpointOutput<N>, { signup: unknown }> &
            Extract<EndpointOutput<N>, { linked: unknown }>
        >
    : EndpointOutput<N>;

export interface CallOptions {
  token?: string;
  /** Send the token as Authorization: Bearer instead of the a1sledom header. */
  bearer?: boolean;
  lang?: 'en' | 'es';
  ip?: string;
  params?: Record<string, string>;
  /** Extra request headers (e.g. proxy headers). */
  headers?: Record<string, string>;
}

interface ErrorShape {
  code?: string;
  message?: string;
  fields?: Record<string, string>;
}

/** Builds the real app on a fresh database copy. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    now?: () => Date;
    /** Share another app's PostgreSQL database instead of a fresh copy (two servers, one database). */
    databaseUrl?: string;
    /** Instead of the one REDIS_URL implies. */
    limiter?: RateLimiter;
    /** An already opened and migrated database (e.g. PGlite files a server process opens later). */
    database?: Database;
    /** Log lines to this instead of nothing (with LOG_LEVEL set in `env`). */
    logTo?: { write(line: string): void };
    /** Serve this folder as the built web app instead of apps/web/dist. */
    webDistDir?: string;
  } = {},
): Promise<TestApp> {
  const database: Database & { url?: string } = options.database
    ? options.database
    : options.databaseUrl
      ? {
          ...wrapPostgres(new pg.Pool({ connectionString: options.databaseUrl, max: 5 })),
          url: options.databaseUrl,
        }
      : await createTestDatabase();
  const loaded = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: path.join(os.tmpdir(), `fanverse-test-${process.pid}`),
    LOG_LEVEL: 'silent',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const config = options.webDistDir ? { ...loaded, webDistDir: options.webDistDir } : loaded;
  const limiter =
    options.limiter ??
    (config.redisUrl
      ? RedisRateLimiter.connect(config.redisUrl, { prefix: `fv:test:${randomBytes(6).toString('hex')}:` })
      : new MemoryRateLimiter());
  if (limiter instanceof RedisRateLimiter) await limiter.connected();
  const built = await buildApp({
    config,
    database,
    limiter,
    logger: !!options.logTo,
    logTo: options.logTo,
    now: options.now,
  });
  await built.app.ready();
  return {
    ...built,
    config,
    database,
    databaseUrl: database.url,
    async call(name, input, opts = {}) {
      const def = endpoints[name];
      let url = `/api/v1${def.path}`;
      for (const [k, v] of Object.entries(opts.params ?? {}))
        url = url.replace(`:${k}`, encodeURIComponent(v));
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.lang) headers.ilang = opts.lang;
      if (opts.token) {
        if (opts.bearer) headers.authorization = `Bearer ${opts.token}`;
        else headers.a1sledom = opts.token;
      }
      const isQuery = (def.method as string) === 'GET';
      const res = await built.app.inject({
        method: def.method,
        url,
        headers,
        query: isQuery && input ? (input as Record<string, string>) : undefined,
        payload: !isQuery ? ((input ?? {}) as object) : undefined,
        remoteAddress: opts.ip ?? '127.0.0.1',
      });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    },
    async stop() {
      await built.close();
      await limiter.close();
      await database.close();
    },
  };
}

/**
 * Two server copies on one PostgreSQL database for the tests of a `describe` (built before them,
 * stopped after them): `copies.one` and `copies.two`.
 */
export function twoCopies(): { one: TestApp; two: TestApp } {
  const copies = {} as { one: TestApp; two: TestApp };
  beforeAll(async () => {
    copies.one = await createTestApp();
    copies.two = await createTestApp({}, { databaseUrl: copies.one.databaseUrl });
  });
  afterAll(async () => {
    await copies.two?.stop();
    await copies.one?.stop();
  });
  return copies;
}
