/**
 * Server processes and CPU accounting shared by the benchmarks (bench/run.ts, bench/realtime.ts):
 * the server (bench/server.ts, bundled as production bundles the server) runs as a child process
 * pinned to core 0 and the load generator on core 1 when the machine has two cores and `taskset`;
 * CPU is read from /proc in clock ticks.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.ts';

const root = path.resolve(import.meta.dirname, '..');

/** Cores: the server gets core 0, this process (the load generator) core 1, when there are two. */
export const PINNED = os.availableParallelism() >= 2 && hasTaskset();
function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Moves this process (the load generator) to core 1 when pinning. */
export function pinLoadGenerator(): void {
  if (PINNED) execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
}

export function cpuTicks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0;
  }
}

/** CPU ticks of the server process and its threads' children. */
export function treeTicks(pid: number): number {
  let total = cpuTicks(pid);
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
    for (const c of children) if (c) total += treeTicks(Number(c));
  } catch {
    // no children
  }
  return total;
}

/** CPU ticks of every `postgres` process of the machine. */
export function postgresTicks(): number {
  return commandTicks('postgres');
}

/** CPU ticks of every process of the machine running `command` (its /proc comm). */
export function commandTicks(command: string): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === command) total += cpuTicks(Number(entry));
    } catch {
      // gone
    }
  }
  return total;
}

export const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim() || 100);

export interface Child {
  proc: ChildProcess;
  address: string;
  pid: number;
}

/**
 * bench/server.ts bundled the way `npm run build` bundles the server (scripts/bundle-server.mjs),
 * once per benchmark run, into apps/server/.dist-bench (git-ignored; the same depth as
 * apps/server/dist, so paths the server finds from its own file hold). The benchmarks measure that
 * code, not the sources through tsx, whose run-time transform adds work production does not do.
 */
let bundled: Promise<string> | undefined;
function serverBundle(): Promise<string> {
  bundled ??= (async () => {
    const out = path.join(root, 'apps/server/.dist-bench');
    fs.rmSync(out, { recursive: true, force: true });
    const { bundleServer } = (await import(path.join(root, 'scripts/bundle-server.mjs'))) as {
      bundleServer(entries: Record<string, string>, out: string): Promise<void>;
    };
    await bundleServer({ server: 'bench/server.ts' }, out);
    return path.join(out, 'server.js');
  })();
  return bundled;
}

/** Starts bench/server.ts (bundled) with `env` on top of this process's environment, pinned to `core`. */
export async function startChild(env: Record<string, string>, core = 0): Promise<Child> {
  const node = process.execPath;
  // BENCH_PROF=dir: each server child writes a V8 CPU profile there when it stops (SIGTERM).
  const prof = process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
  const argv = [...SERVER_NODE_FLAGS, ...prof, await serverBundle()];
  const cmd = PINNED ? 'taskset' : node;
  const cmdArgs = PINNED ? ['-c', String(core), node, ...argv] : argv;
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  // The PGlite run must not fall back on the PostgreSQL URL of the calling shell.
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const proc = spawn(cmd, cmdArgs, {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    proc.once('message', (m: { address: string }) => resolve(m.address));
    proc.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { proc, address, pid: proc.pid ?? 0 };
}

export async function stopChild(child: Child): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  const exited = new Promise((resolve) => child.proc.once('exit', resolve));
  child.proc.kill('SIGTERM');
  await exited;
}
