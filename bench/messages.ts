/**
 * Messages per second from send to delivery at SOCKETS connected sockets on one server:
 * SOCKETS/2 sender→receiver pairs, each receiver with that chat open; senders post
 * /api/v1/message/send (JSON) with IN_FLIGHT requests at once, and the latency of a message is
 * the time from the start of its request to its `message` event on the receiver's socket.
 * Loopback only, bounded by BENCH_MESSAGES and a time limit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClientToServerEvents, ServerToClientEvents } from '@fanverse/contract';
import { SOCKET_PATH } from '@fanverse/contract';
import { io, type Socket } from 'socket.io-client';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { hashPassword, newToken, sha256 } from '../apps/server/src/lib/crypto.ts';
import { SessionRepository } from '../apps/server/src/modules/auth/session.repository.ts';
import { percentile } from './percentile.ts';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1500);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 50);
const TIME_LIMIT_MS = 180_000;

export interface MessageBenchRow {
  sockets: number;
  /** Sends in flight at once. */
  inFlight: number;
  messages: number;
  perSecond: number;
  p50: number;
  p99: number;
}

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

export async function benchMessages(): Promise<MessageBenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-bench-msg-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' });
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  await migrate(database);
  const built = await buildApp({ config, database, logger: false });
  const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const sessions = new SessionRepository(database.db);
  const clients: Client[] = [];
  const guard = setTimeout(() => {
    console.error('messages bench: time limit reached');
    process.exit(1);
  }, TIME_LIMIT_MS);
  try {
    const passwordHash = await hashPassword(newToken());
    const expires = new Date(Date.now() + 86_400_000);
    const users: { id: string; username: string; token: string }[] = [];
    for (let i = 0; i < SOCKETS; i++) {
      const username = `bench${String(i).padStart(6, '0')}`;
      const row = await built.services.users.create({
        username,
        email: `${username}@bench.local`,
        name: username,
        passwordHash,
        birthdate: '1990-01-01',
        roles: ['user', 'fan'],
        verified: false,
        language: 'en',
        referralCode: `bench${i}`,
        referredBy: null,
      });
      const token = newToken();
      await sessions.create(row.id, sha256(token), expires);
      users.push({ id: row.id, username, token });
    }

    const pending = new Map<string, { start: number; resolve: () => void }>();
    const latencies: number[] = [];
    const connect = (token: string) =>
      new Promise<Client>((resolve, reject) => {
        const s: Client = io(base, {
          path: SOCKET_PATH,
          transports: ['websocket'],
          auth: { token },
          reconnection: false,
          forceNew: true,
        });
        s.once('connect', () => resolve(s));
        s.once('connect_error', reject);
      });
    const pairs = Math.floor(SOCKETS / 2);
    for (let i = 0; i < SOCKETS; i += 50) {
      clients.push(...(await Promise.all(users.slice(i, i + 50).map((u) => connect(u.token)))));
    }
    for (let p = 0; p < pairs; p++) {
      const receiver = clients[2 * p + 1]!;
      receiver.on('message', ({ message }) => {
        const waiting = pending.get(message.messageUUID);
        if (!waiting || message.isMe) return;
        pending.delete(message.messageUUID);
        latencies.push(performance.now() - waiting.start);
        waiting.resolve();
      });
      await new Promise((r) => receiver.emit('openChat', users[2 * p]!.username, r));
    }

    const sendOne = async (n: number) => {
      const pair = n % pairs;
      const from = users[2 * pair]!;
      const to = users[2 * pair + 1]!;
      const messageUUID = `bench-${n}`;
      const start = performance.now();
      const delivered = new Promise<void>((resolve) => pending.set(messageUUID, { start, resolve }));
      const res = await fetch(`${base}/api/v1/message/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', a1sledom: from.token },
        body: JSON.stringify({ to: to.username, message: `hello ${n}`, messageUUID }),
      });
      if (res.status !== 200) throw new Error(`send ${n}: ${res.status} ${await res.text()}`);
      await delivered;
    };
    // Warm-up on a few messages, then measure one sender at a time (latency) and many (throughput).
    let seq = 0;
    for (let n = 0; n < 20; n++) await sendOne(seq++);
    const phase = async (count: number, inFlight: number): Promise<MessageBenchRow> => {
      latencies.length = 0;
      let left = count;
      const began = performance.now();
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (left > 0) {
            left -= 1;
            await sendOne(seq++);
          }
        }),
      );
      const seconds = (performance.now() - began) / 1000;
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        sockets: clients.length,
        inFlight,
        messages: latencies.length,
        perSecond: latencies.length / seconds,
        p50: Math.round(percentile(sorted, 50) * 10) / 10,
        p99: Math.round(percentile(sorted, 99) * 10) / 10,
      };
    };
    return [await phase(Math.min(300, MESSAGES), 1), await phase(MESSAGES, IN_FLIGHT)];
  } finally {
    clearTimeout(guard);
    for (const c of clients) c.disconnect();
    await built.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatMessageRow(r: MessageBenchRow): string {
  return `| messages send→delivery, ${r.sockets} sockets, ${r.inFlight} in flight | ${r.messages} msgs | ${r.perSecond.toFixed(0)} msg/s | p50 ${r.p50} ms | p99 ${r.p99} ms |`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchMessages()
    .then((rows) => {
      for (const r of rows) console.info(formatMessageRow(r));
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
