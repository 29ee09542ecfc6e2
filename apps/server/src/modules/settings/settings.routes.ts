import { requireSomeRoles } from '../../http/guards.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

export function settingsRoutes({ route, services }: RouteDeps): void {
  const superOnly = { guard: requireSomeRoles('super') };
  route('admin.settings', () => services.settings.current(), superOnly);
  route('admin.updateSettings', ({ auth, input }) => services.settings.update(auth, input), superOnly);
  // The mark backfill's progress (ADR 0041): videos it has yet to re-encode.
  route('admin.videoMark', async () => ({ remaining: await services.markBackfill.remaining() }), superOnly);
}
