import type { RouteDeps } from '../../http/route-deps.ts';

export function userRoutes({ route, services }: RouteDeps): void {
  route('user.profile', ({ auth }) => services.user.profile(auth));

  route('user.updateProfile', ({ auth, input }) => services.user.updateProfile(auth, input));

  route('user.profileImage', ({ auth, input, files }) => services.user.setImage(auth, input, files));

  route('user.delete', async ({ auth, input, lang }) => {
    await services.accountDeletion.deleteAccount(auth, input, lang);
    return { success: true };
  });

  route('report.connection', ({ auth }) => services.user.reportConnection(auth));
}
