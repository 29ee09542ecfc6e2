import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Headers a reverse proxy adds: a request carrying any of them came from the network. */
const PROXY_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-server',
  'x-real-ip',
  'x-client-ip',
  'x-original-forwarded-for',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'via',
];

/** Only a caller on this very machine, talking to the server directly (not through a proxy). */
function directLocalCaller(req: FastifyRequest): boolean {
  if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return false;
  return !PROXY_HEADERS.some((h) => req.headers[h] !== undefined);
}

/**
 * The dev outbox: outside production and with no SMTP_URL (or DEV_OUTBOX=true), mail is kept in the
 * database and can be read here, but only by a direct loopback caller: a request relayed by a
 * reverse proxy on the same host carries proxy headers and is refused, so reset codes never leak.
 */
export function devRoutes({ route, services }: RouteDeps): void {
  route('dev.outbox', async ({ input, req }) => {
    const outbox = services.outbox;
    if (!outbox || !directLocalCaller(req)) throw new AppError('FEATURE_DISABLED');
    const mails = await outbox.list(input.to);
    return {
      mails: mails.map((m) => ({
        id: m.id,
        to: m.to,
        subject: m.subject,
        text: m.text,
        createdAt: m.createdAt.toISOString(),
      })),
    };
  });
}
