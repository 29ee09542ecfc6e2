import type { RouteDeps } from '../../http/route-deps.ts';

export function blockRoutes({ route, services }: RouteDeps): void {
  route('user.block', async ({ auth, input }) => ({
    success: true,
    blocked: await services.blocks.toggle(auth, input.user),
  }));
  route('user.blocks', async ({ auth }) => ({ users: await services.blocks.list(auth) }));
}
