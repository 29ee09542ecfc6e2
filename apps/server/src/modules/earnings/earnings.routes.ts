import { requireAdministrator, requireRoles } from '../../http/guards.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

export function earningsRoutes({ route, services }: RouteDeps): void {
  const earnings = services.earnings;
  const creator = { guard: requireRoles('creator') };
  const admin = { guard: requireAdministrator };
  route('creator.earnings', ({ auth, input }) => earnings.earnings(auth, input.period), creator);
  route('creator.payoutMethod', ({ auth }) => earnings.method(auth), creator);
  route('creator.setPayoutMethod', ({ auth, input }) => earnings.setMethod(auth, input), creator);
  route('admin.payouts', ({ input }) => earnings.list(input.status, input.page, input.limit), admin);
  route('admin.payoutDecision', ({ params, input }) => earnings.decide(params.id, input.status), admin);
  route('admin.commission', () => services.moneyTerms.describe(), admin);
  route(
    'admin.setCommission',
    ({ auth, input }) => services.settings.setCommission(auth, input.percent),
    admin,
  );
}
