/**
 * The load side of bench/realtime.ts in a process of its own (forked; commands over IPC, one
 * answer each), so that 10,000 client sockets are not counted against the server's event loop,
 * memory or file descriptors:
 * - `connect`: opens authenticated Socket.IO connections (websocket), `concurrency` at a time;
 *   answers how long each took. Every socket records the latency of the bench messages it receives
 *   (the text carries the sender's clock, `rt <epoch ms>`; one machine, one clock).
 * - `send`: posts /api/v1/message/send at a fixed rate (open loop: a slow server does not slow
 *   the sender down), each message from a sender to its receiver; answers the HTTP statuses
 *   (`unanswered`: no answer 30 s after the last send was due).
 * - `report`: the latencies recorded since the last report. `disconnect`: closes every socket.
 */
import type { ClientToServerEvents, ServerToClientEvents } from '@fanverse/contract';
import { SOCKET_PATH } from '@fanverse/contract';
import { io, type Socket } from 'socket.io-client';
import { Pool } from 'undici';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

export type ClientCommand =
  | { cmd: 'connect'; base: string; tokens: string[]; concurrency: number }
  | { cmd: 'send'; base: string; pairs: { token: string; to: string }[]; rate: number; seconds: number }
  | { cmd: 'report' }
  | { cmd: 'disconnect' };

export interface ConnectAnswer {
  connected: number;
  failed: Record<string, number>;
  /** Milliseconds from opening to `connect`, one per connected socket. */
  times: number[];
}

export interface SendAnswer {
  sent: number;
  statuses: Record<string, number>;
  /** Milliseconds of each HTTP send request (answer received). */
  times: number[];
  seconds: number;
}

export interface ReportAnswer {
  latencies: number[];
}

const now = () => performance.timeOrigin + performance.now();
/** How long after the last scheduled send the answers are still waited for. */
const GRACE_MS = 30_000;
let sockets: Client[] = [];
let latencies: number[] = [];

function connectOne(base: string, token: string, out: ConnectAnswer): Promise<void> {
  return new Promise((resolve) => {
    const started = now();
    const s: Client = io(base, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      auth: { token },
      reconnection: false,
      forceNew: true,
      timeout: 60_000,
    });
    s.once('connect', () => {
      out.times.push(now() - started);
      sockets.push(s);
      resolve();
    });
    s.once('connect_error', (err) => {
      out.failed[err.message] = (out.failed[err.message] ?? 0) + 1;
      s.close();
      resolve();
    });
    s.on('message', ({ message }) => {
      const sent = /^rt (\d+(?:\.\d+)?)$/.exec(message.message)?.[1];
      if (sent && !message.isMe) latencies.push(now() - Number(sent));
    });
  });
}

async function connect(base: string, tokens: string[], concurrency: number): Promise<ConnectAnswer> {
  const out: ConnectAnswer = { connected: 0, failed: {}, times: [] };
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tokens.length) await connectOne(base, tokens[next++]!, out);
    }),
  );
  out.connected = out.times.length;
  return out;
}

async function send(
  base: string,
  pairs: { token: string; to: string }[],
  rate: number,
  seconds: number,
): Promise<SendAnswer> {
  // undici's pool: a lighter load generator than node:http's client (issue 13: on a two-core
  // machine the senders share the cores with the server copies), keep-alive, up to 256 sockets.
  const pool = new Pool(base, { connections: 256, pipelining: 1 });
  const out: SendAnswer = { sent: 0, statuses: {}, times: [], seconds: 0 };
  let answering = true;
  const post = async (n: number): Promise<void> => {
    const pair = pairs[n % pairs.length]!;
    const started = now();
    const body = JSON.stringify({
      to: pair.to,
      message: `rt ${started.toFixed(3)}`,
      messageUUID: `rt-${process.pid}-${Date.now()}-${n}`,
    });
    let status: string;
    try {
      const res = await pool.request({
        path: '/api/v1/message/send',
        method: 'POST',
        headers: { 'content-type': 'application/json', a1sledom: pair.token },
        body,
      });
      await res.body.dump();
      status = String(res.statusCode);
    } catch (err) {
      status = (err as Error).message;
    }
    if (!answering) return;
    out.statuses[status] = (out.statuses[status] ?? 0) + 1;
    out.times.push(now() - started);
  };
  const total = Math.round(rate * seconds);
  const inFlight: Promise<void>[] = [];
  const started = now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((now() - started) / 1000) * rate));
      while (out.sent < due) inFlight.push(post(out.sent++));
      if (out.sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
  out.seconds = (now() - started) / 1000;
  // A server that cannot keep up would make the run last as long as its backlog: after a grace
  // period the requests still waiting count as unanswered.
  const all = Promise.all(inFlight);
  const grace = new Promise<'late'>((resolve) => setTimeout(resolve, GRACE_MS, 'late').unref());
  if ((await Promise.race([all, grace])) === 'late') {
    const answered = Object.values(out.statuses).reduce((a, b) => a + b, 0);
    out.statuses.unanswered = out.sent - answered;
    answering = false;
  }
  await pool.destroy();
  return out;
}

process.on('message', async (m: ClientCommand) => {
  let answer: unknown;
  if (m.cmd === 'connect') answer = await connect(m.base, m.tokens, m.concurrency);
  else if (m.cmd === 'send') answer = await send(m.base, m.pairs, m.rate, m.seconds);
  else if (m.cmd === 'report') {
    answer = { latencies } satisfies ReportAnswer;
    latencies = [];
  } else {
    for (const s of sockets) s.disconnect();
    sockets = [];
    answer = {};
  }
  process.send?.(answer);
});
process.send?.({ ready: true });
