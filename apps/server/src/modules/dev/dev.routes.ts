import { AppError } from '../../http/app-error.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The dev outbox: with no SMTP_URL, mail is kept in the database and can be read here, but only
 * from the machine itself, so reset codes never leak to the network.
 */
export function devRoutes({ route, services }: RouteDeps): void {
  route('dev.outbox', async ({ input, req }) => {
    const outbox = services.outbox;
    if (!outbox || !LOOPBACK.has(req.socket.remoteAddress ?? '')) throw new AppError('FEATURE_DISABLED');
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
