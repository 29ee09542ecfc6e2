import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createPglite, type Database, openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { resolveFfmpeg } from '../src/media/ffmpeg.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * Real server processes (apps/server/src/main.ts) for tests that kill them with SIGKILL, on the
 * store the tests run on: PostgreSQL when DATABASE_URL is set, otherwise PGlite files in a data
 * directory of their own (which only one process can open at a time).
 */
const root = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:port */
  base: string;
  /** Kills with SIGKILL and waits for the exit. */
  kill(): Promise<void>;
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Waits until the check passes (polling); fails after the time limit. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what = 'condition') {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not met in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface Store {
  kind: 'postgres' | 'pglite';
  /** Where the server process keeps its files (and, on PGlite, its database). */
  dataDir: string;
  /** An app with no job workers on this store, to prepare data; stop it before starting a server. */
  prepare(env?: Record<string, string>): Promise<TestApp>;
  /** A query on the store; on PGlite only while no server process has it open. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Starts main.ts on this store and waits until it answers. */
  start(env?: Record<string, string>): Promise<ServerProcess>;
  /** Kills every server process still running and closes connections. */
  close(): Promise<void>;
}

export function createStore(): Store {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-kill-'));
  const children: ChildProcess[] = [];
  let databaseUrl: string | undefined;
  let pool: pg.Pool | undefined;
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';

  return {
    kind,
    dataDir,
    async prepare(env = {}) {
      let database: Database | undefined;
      if (kind === 'pglite') {
        database = await openDatabase({ dataDir });
        await migrate(database);
      }
      const t = await createTestApp(
        { JOBS_WORKERS: 'false', DATA_DIR: dataDir, ...env },
        database ? { database } : {},
      );
      databaseUrl = t.databaseUrl;
      return t;
    },
    async query<T>(sql: string, params: unknown[] = []) {
      if (kind === 'postgres') {
        pool ??= new pg.Pool({ connectionString: databaseUrl, max: 1 });
        return (await pool.query(sql, params)).rows as T[];
      }
      const db = await createPglite({ dataDir: path.join(dataDir, 'pglite') });
      try {
        return (await db.query<T>(sql, params)).rows;
      } finally {
        await db.close();
      }
    },
    async start(env = {}) {
      const port = await freePort();
      const childEnv: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        SEED_DEMO: 'false',
        DEV_OUTBOX: 'true',
        LOG_LEVEL: 'silent',
        ...env,
      };
      if (!databaseUrl) delete childEnv.DATABASE_URL;
      const child = spawn(
        path.join(root, 'node_modules/.bin/node'),
        ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')],
        {
          cwd: root,
          env: childEnv,
          stdio: 'ignore',
        },
      );
      children.push(child);
      const exited = new Promise<void>((r) => {
        if (child.exitCode !== null || child.signalCode !== null) r();
        else child.once('exit', () => r());
      });
      const base = `http://127.0.0.1:${port}`;
      await until(
        async () => {
          if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
          return fetch(`${base}/healthz`).then(
            (r) => r.ok,
            () => false,
          );
        },
        120_000,
        'server start',
      );
      return {
        child,
        base,
        async kill() {
          child.kill('SIGKILL');
          await exited;
        },
      };
    },
    async close() {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await Promise.all(
        children.map((c) =>
          c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined,
        ),
      );
      await pool?.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * An ffmpeg (FFMPEG_PATH) that holds each conversion until a gate file exists, so a test can kill
 * the server while a video's processing is surely active: it touches `started` on the first
 * conversion, waits for `gate` (giving up when the server that ran it is gone), then runs ffmpeg.
 */
export function gatedFfmpeg(dir: string): { path: string; started: string; gate: string } {
  const started = path.join(dir, 'ffmpeg-started');
  const gate = path.join(dir, 'ffmpeg-gate');
  const script = path.join(dir, 'ffmpeg-gated.sh');
  const real = resolveFfmpeg({}).ffmpeg;
  fs.writeFileSync(
    script,
    `#!/bin/sh
case " $* " in *" -i "*) ;; *) exec "${real}" "$@" ;; esac
touch "${started}"
while [ ! -e "${gate}" ]; do
  kill -0 "$PPID" 2>/dev/null || exit 1
  sleep 0.1
done
exec "${real}" "$@"
`,
    { mode: 0o755 },
  );
  return { path: script, started, gate };
}
