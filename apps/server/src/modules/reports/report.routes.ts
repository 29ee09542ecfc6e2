import type { RouteDeps } from '../../http/route-deps.ts';

export function reportRoutes({ route, services }: RouteDeps): void {
  route('report.create', async ({ auth, input }) => ({
    success: true,
    id: await services.reports.report(auth, input),
  }));
}
