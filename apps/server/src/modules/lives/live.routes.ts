import { timingSafeEqual } from 'node:crypto';
import type { RouteDeps } from '../../http/route-deps.ts';

const sameSecret = (given: string, secret: string) =>
  given.length === secret.length && timingSafeEqual(Buffer.from(given), Buffer.from(secret));

export function liveRoutes({ app, config, route, services }: RouteDeps): void {
  const lives = services.lives;
  route('lives.start', ({ auth, input }) => lives.start(auth, input));
  route('lives.now', ({ auth }) => lives.list(auth));
  route('lives.get', ({ auth, params }) => lives.get(auth, params.id));
  route('lives.end', ({ auth, params }) => lives.end(auth, params.id));
  route('lives.ticket', ({ auth, params }) => lives.buyTicket(auth, params.id));
  route('lives.chat', ({ auth, params, input }) => lives.chat(auth, params.id, input.text));
  route('lives.removeChat', ({ auth, params }) => lives.removeChat(auth, params.id, params.message));
  route('lives.moderate', ({ auth, params, input }) => lives.moderate(auth, params.id, input));
  route('lives.replay', ({ auth, params, input }) => lives.replay(auth, params.id, input.text));
  route('lives.streamKey', ({ auth }) => lives.streamKeyState(auth));
  route('lives.createStreamKey', ({ auth }) => lives.createStreamKey(auth));
  route('lives.revokeStreamKey', ({ auth }) => lives.revokeStreamKey(auth));

  // The external engine's publish check (LIVE_ENGINE=nginx-rtmp, ADR 0040): nginx's on_publish posts
  // a form (name = the stream key) to the URL with the engine secret. 302 to the relay under the
  // live's id, or 403 (nginx drops the encoder). Not a contract endpoint: nginx's format.
  const engine = config.live.engine;
  if (engine) {
    app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      scope.post<{ Querystring: { secret?: string }; Body: Record<string, string> | undefined }>(
        '/api/v1/lives/engine/publish',
        async (req, reply) => {
          const secret = typeof req.query.secret === 'string' ? req.query.secret : '';
          if (!sameSecret(secret, engine.secret))
            return reply.status(403).type('text/plain').send('forbidden');
          const key = typeof req.body?.name === 'string' && req.body.app === 'live' ? req.body.name : '';
          const target = await lives.enginePublish(key, engine.relayUrl);
          if (!target) return reply.status(403).type('text/plain').send('refused');
          return reply.status(302).header('location', target).type('text/plain').send('');
        },
      );
    });
  }

  // The live's playlist, key and segments are served by the protected HLS delivery (media/hls),
  // source `live` (LivePlayback.source): entitlement on every playlist and key request.
}
