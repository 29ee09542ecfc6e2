import { requireRoles } from '../../http/guards.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

export function subscriptionRoutes({ route, services }: RouteDeps): void {
  const subs = services.subscriptions;
  const creator = { guard: requireRoles('creator') };
  route('subscriptions.mine', ({ auth }) => subs.mine(auth));
  route('subscriptions.cancel', ({ auth, params }) => subs.cancel(auth, params.creator));
  route('subscriptions.renew', ({ auth, params }) => subs.renew(auth, params.creator));
  // Spec S6.13: a fan's call answers an empty list (nobody subscribes to a fan), not an error.
  route('creator.subscribers', ({ auth, input }) => subs.subscribers(auth, input.page, input.limit));
  route('creator.pricing', ({ auth, input }) => subs.setPricing(auth, input), creator);
}
