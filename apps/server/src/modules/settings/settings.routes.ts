import { requireSomeRoles } from '../../http/guards.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

export function settingsRoutes({ route, services }: RouteDeps): void {
  const superOnly = { guard: requireSomeRoles('super') };
  route('admin.settings', () => services.settings.current(), superOnly);
  route('admin.updateSettings', ({ auth, input }) => services.settings.update(auth, input), superOnly);
}
