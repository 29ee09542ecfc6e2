import type { RouteDeps } from '../../http/route-deps.ts';

export function liveRoutes({ route, services }: RouteDeps): void {
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

  // The live's playlist, key and segments are served by the protected HLS delivery (media/hls),
  // source `live` (LiveService.hlsSource): entitlement on every playlist and key request.
}
