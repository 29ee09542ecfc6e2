import type { RouteDeps } from '../../http/route-deps.ts';

export function commentRoutes({ route, services }: RouteDeps): void {
  route('comments.list', ({ auth, input }) =>
    services.comments.list(auth, input.post, input.page, input.limit),
  );
  route('comments.create', async ({ auth, input }) => ({
    success: true,
    comment: await services.comments.create(auth, input),
  }));
}
