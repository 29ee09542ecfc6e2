import { AppError } from '../../http/app-error.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { presentSessionUser } from '../users/user.presenter.ts';

export function authRoutes({ route, services }: RouteDeps): void {
  const withUser = async (session: { token: string; userId: string }) => {
    const user = await services.users.findById(session.userId);
    if (!user) throw new AppError('INTERNAL');
    return {
      token: session.token,
      user: presentSessionUser(user, await services.subscriptions.forSession(user.id)),
    };
  };

  route('auth.signup', async ({ input, ip, lang }) =>
    withUser(await services.auth.signup(input, { ip, lang })),
  );

  route('auth.login', async ({ input, ip, lang }) =>
    withUser(await services.auth.login(input, { ip, lang })),
  );

  route('auth.logout', async ({ auth }) => {
    await services.auth.logout(auth);
    return { success: true };
  });

  route('auth.code', async ({ input, ip, lang }) => {
    await services.auth.requestResetCode(input.email, { ip, lang });
    return { success: true };
  });

  route('auth.pass', async ({ input, ip, lang }) => {
    await services.auth.resetPassword(input, { ip, lang });
    return { success: true };
  });
}
