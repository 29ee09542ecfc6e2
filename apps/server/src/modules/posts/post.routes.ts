import { pageStatistics } from '@fanverse/contract';
import { requireSomeRoles, requireStaff } from '../../http/guards.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';

export function postRoutes({ route, services }: RouteDeps): void {
  // Visitors share one answer object per query for a few seconds (PostService.feed): its JSON and
  // tag are made once (`shared`); a signed-in viewer's answer is their own, made per request.
  route('posts.list', ({ auth, input }) => services.posts.feed(auth, input), { shared: true });

  route(
    'posts.create',
    async ({ auth, input, files }) => ({
      success: true,
      post: await services.posts.create(auth, input, files),
    }),
    { guard: requireSomeRoles('creator') },
  );

  route(
    'posts.update',
    async ({ auth, params, input, files }) => ({
      success: true,
      post: await services.posts.update(auth, params.id, input, files),
    }),
    { guard: requireSomeRoles('creator') },
  );

  route('posts.delete', async ({ auth, params }) => {
    await services.posts.remove(auth, params.id);
    return { success: true };
  });

  route('posts.statistics', ({ auth, params }) => services.posts.statistics(auth, params.id));

  route('posts.scheduled', ({ auth }) => services.posts.scheduled(auth), {
    guard: requireSomeRoles('creator'),
  });

  route(
    'posts.schedule',
    async ({ auth, input }) => ({ success: true, post: await services.posts.reschedule(auth, input) }),
    { guard: requireSomeRoles('creator') },
  );

  route(
    'admin.postReview',
    async ({ auth, input }) => ({
      success: true,
      post: await services.posts.review(auth, input),
    }),
    { guard: requireStaff },
  );

  route('posts.like', async ({ auth, input }) => ({
    success: true,
    ...(await services.posts.like(auth, input.id)),
  }));

  route('posts.save', async ({ auth, input }) => ({
    success: true,
    saved: await services.posts.save(auth, input.id),
  }));

  route('likes.list', async ({ auth, input }) => {
    const { rows, total } = await services.posts.likers(auth, input.post, input.page, input.limit);
    return {
      users: rows.map(presentPublicUser),
      statistics: pageStatistics(input.page, input.limit, total),
    };
  });

  route('stories.list', ({ auth, input }) => services.posts.stories(auth, input.creator));
}
