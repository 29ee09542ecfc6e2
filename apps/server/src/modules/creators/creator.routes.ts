import type { RouteDeps } from '../../http/route-deps.ts';

export function creatorRoutes({ route, services }: RouteDeps): void {
  route('creator.search', ({ auth, input }) =>
    services.creators.search(input.q, input.page, input.limit, auth?.userId),
  );
  route('search.suggest', ({ auth, input }) => services.creators.suggest(input.q, auth?.userId));
  route('search.posts', ({ auth, input }) => services.posts.search(auth, input.q, input.page, input.limit));
  route('explore.sections', ({ auth, input }) => services.creators.explore(auth, input.tag));
  route('directory.creators', ({ auth, input }) =>
    services.creators.directory(auth, { people: 'creators', tag: input.tag, online: input.online }, input),
  );
  route('directory.users', ({ auth, input }) =>
    services.creators.directory(auth, { people: input.role, online: input.online }, input),
  );
  route('creator.tags', ({ auth }) => services.creators.tags(auth));
  route('creator.setTags', ({ auth, input }) => services.creators.setTags(auth, input.tags));
  route('creator.profile', ({ auth, params }) => services.creators.profile(auth, params.id));
  route('user.follow', async ({ auth, input }) => ({
    success: true,
    following: await services.creators.follow(auth, input.creator),
  }));
  route('user.preview', ({ auth, params }) =>
    services.creators.preview(auth, params.handle, (a, b) => services.blocks.between(a, b)),
  );
  route('user.following', async ({ auth }) => ({ users: await services.creators.following(auth) }));
}
