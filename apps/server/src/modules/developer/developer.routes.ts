import { requireRoles } from '../../http/guards.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

/**
 * Personal API tokens (`?feed=developer`). Creating one needs the developer role; listing and
 * revoking one's own tokens does not (a former developer can still clean up). None of these is
 * reachable with an API token itself (absent from TOKEN_SCOPES).
 */
export function developerRoutes({ route, services }: RouteDeps): void {
  route('developer.tokens', ({ auth }) => services.apiTokens.list(auth));
  route('developer.createToken', ({ auth, input }) => services.apiTokens.create(auth, input), {
    guard: requireRoles('developer'),
  });
  route('developer.revokeToken', ({ auth, params }) => services.apiTokens.revoke(auth, params.id));
}
