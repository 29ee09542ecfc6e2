import { requireSomeRoles, requireStaff } from '../../http/guards.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

export function statisticsRoutes({ route, services }: RouteDeps): void {
  route('admin.statistics', ({ auth, params, input }) => services.statistics.admin(auth, params.id, input), {
    guard: requireStaff,
  });
  route('creator.statistics', ({ auth, input }) => services.statistics.creator(auth, input), {
    guard: requireSomeRoles('creator'),
  });
}
