import type { RouteDeps } from '../http/route-deps.ts';

export function leakRoutes({ route, services }: RouteDeps): void {
  route('leaks.trace', ({ auth, files }) => services.leaks.start(auth, files));
  route('leaks.list', async ({ auth }) => ({ traces: await services.leaks.recent(auth) }));
  route('leaks.get', ({ auth, params }) => services.leaks.get(auth, params.id));
  route('leaks.complain', async ({ auth, params }) => ({
    success: true,
    complaintId: await services.leaks.complain(auth, params.id),
  }));
}
