import type { RouteDeps } from '../../http/route-deps.ts';

export function creatorRoutes({ route, services }: RouteDeps): void {
  route('creator.search', ({ auth, input }) =>
    services.creators.search(input.q, input.page, input.limit, auth?.userId),
  );
  route('creator.profile', ({ auth, params }) => services.creators.profile(auth, params.id));
  route('user.follow', async ({ auth, input }) => ({
    success: true,
    following: await services.creators.follow(auth, input.creator),
  }));
  route('user.following', async ({ auth }) => ({ users: await services.creators.following(auth) }));
}
