import { AppError } from '../../http/app-error.ts';
import { requireAdministrator, requireSomeRoles, requireStaff } from '../../http/guards.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

export function adminRoutes({ route, services, config }: RouteDeps): void {
  const moderators = { guard: requireStaff };
  route('admin.complaints', ({ auth, input }) => services.complaints.list(auth, input), moderators);
  route(
    'admin.complaintAct',
    ({ auth, params, input }) => services.complaints.act(auth, params.id, input),
    moderators,
  );
  route('admin.users', ({ auth, input }) => services.adminUsers.list(auth, input), moderators);
  route(
    'admin.userAction',
    async ({ auth, params, input }) => {
      await services.adminUsers.act(auth, params.id, input.action);
      return { success: true };
    },
    { guard: requireAdministrator },
  );
  route(
    'admin.userRole',
    async ({ auth, params, input }) => {
      await services.adminUsers.setRole(auth, params.id, input.role, input.grant);
      return { success: true };
    },
    { guard: requireSomeRoles('super') },
  );
  route(
    'admin.announce',
    async ({ auth, input }) => {
      // The official account is made at start-up (modules/users/admin-creator.ts).
      const official = await services.users.findByLogin(config.appKey);
      if (!official) throw new AppError('NOT_FOUND');
      return { success: true, post: await services.posts.announce(auth, official.id, input.message) };
    },
    { guard: requireAdministrator },
  );
}
