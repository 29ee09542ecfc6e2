import type { RouteDeps } from '../http/route-deps.ts';

export function leakRoutes({ route, services }: RouteDeps): void {
  route('leaks.trace', ({ auth, files }) => services.leaks.trace(auth, files));
  route('leaks.complain', async ({ auth, params }) => ({
    success: true,
    complaintId: await services.leaks.complain(auth, params.id),
  }));
}
