import { requireRoles } from '../../http/guards.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

export function subscriptionRoutes({ route, services }: RouteDeps): void {
  const subs = services.subscriptions;
  const creator = { guard: requireRoles('creator') };
  route('subscriptions.mine', ({ auth }) => subs.mine(auth));
  route('subscriptions.cancel', ({ auth, params }) => subs.cancel(auth, params.creator));
  // The renewal mail's one-click cancel: the signed single-purpose token is the proof, no session.
  route('subscriptions.cancelLink', ({ input }) => subs.cancelLink(input.token));
  route('subscriptions.cancelByLink', ({ input }) => subs.cancelByLink(input.token));
  route('subscriptions.renew', ({ auth, params }) => subs.renew(auth, params.creator));
  // Spec S6.13: a fan's call answers an empty list (nobody subscribes to a fan), not an error.
  route('creator.subscribers', ({ auth, input }) => subs.subscribers(auth, input.page, input.limit));
  route('creator.pricing', ({ auth, input }) => subs.setPricing(auth, input), creator);
  // Offers (issue 19): a creator's own bundles, links and welcome message; fans read bundles and links.
  const offers = services.offers;
  route('creator.offers', ({ auth }) => offers.mine(auth), creator);
  route('creator.saveBundles', ({ auth, input }) => offers.saveBundles(auth, input.bundles), creator);
  route('creator.createOfferLink', ({ auth, input }) => offers.createLink(auth, input), creator);
  route('creator.saveWelcome', ({ auth, input }) => offers.saveWelcome(auth, input), creator);
  route('offers.bundles', ({ params }) => offers.bundlesOf(params.creator));
  route('offers.view', ({ params }) => offers.view(params.code));
}
