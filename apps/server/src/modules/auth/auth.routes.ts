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

  route('auth.signup', async ({ input, ip, lang, req }) =>
    withUser(await services.auth.signup(input, { ip, lang, userAgent: req.headers['user-agent'] })),
  );

  route('auth.login', async ({ input, ip, lang, req }) => {
    const result = await services.auth.login(input, { ip, lang, userAgent: req.headers['user-agent'] });
    if ('challenge' in result) {
      return { twoFactor: { challenge: result.challenge, methods: ['totp' as const, 'recovery' as const] } };
    }
    return withUser(result);
  });

  route('auth.twoFactor', async ({ input }) =>
    withUser(await services.auth.completeTwoFactor(input.challenge, input)),
  );

  route('auth.twoFactorStatus', ({ auth }) => services.twoFactor.status(auth));

  route('auth.totpSetup', ({ auth }) => services.twoFactor.setup(auth));

  route('auth.totpEnable', ({ auth, input }) => services.twoFactor.enable(auth, input.code));

  route('auth.twoFactorDisable', async ({ auth, input }) => {
    await services.twoFactor.disable(auth, input);
    return { success: true };
  });

  route('auth.recoveryCodesRegenerate', ({ auth, input }) =>
    services.twoFactor.regenerateRecoveryCodes(auth, input),
  );

  route('auth.passkeys', ({ auth }) => services.passkeys.list(auth));

  route('auth.passkeyRegisterOptions', ({ auth }) => services.passkeys.registrationOptions(auth));

  route('auth.passkeyRegister', ({ auth, input, req }) =>
    services.passkeys.register(auth, input, req.headers['user-agent']),
  );

  route('auth.passkeyRemove', async ({ auth, params }) => {
    await services.passkeys.remove(auth, params.id);
    return { success: true };
  });

  route('auth.passkeyLoginOptions', () => services.passkeys.loginOptions());

  route('auth.passkeyLogin', async ({ input, ip, lang, req }) =>
    withUser(
      await services.auth.passkeySignIn(await services.passkeys.verifyLogin(input), {
        ip,
        lang,
        userAgent: req.headers['user-agent'],
      }),
    ),
  );

  route('auth.oidcProviders', async () => services.oidc.providers());

  route('auth.oidcStart', ({ auth, input }) => services.oidc.start(input, auth ?? null));

  route('auth.oidcCallback', async ({ auth, input, ip, lang, req }) => {
    const result = await services.oidc.callback(input, auth ?? null, {
      ip,
      lang,
      userAgent: req.headers['user-agent'],
    });
    return 'session' in result ? withUser(result.session) : result;
  });

  route('auth.oidcSignup', async ({ input, ip, lang, req }) =>
    withUser(await services.oidc.signup(input, { ip, lang, userAgent: req.headers['user-agent'] })),
  );

  route('auth.identities', ({ auth }) => services.oidc.identities(auth));

  route('auth.identityUnlink', async ({ auth, params }) => {
    await services.oidc.unlink(auth, params.provider);
    return { success: true };
  });

  route('auth.sessions', ({ auth }) => services.devices.list(auth));

  route('auth.revokeSession', async ({ auth, params }) => {
    await services.devices.revoke(auth, params.id);
    return { success: true };
  });

  route('auth.revokeOtherSessions', async ({ auth }) => ({
    revoked: await services.devices.revokeOthers(auth),
  }));

  route('auth.logout', async ({ auth }) => {
    await services.auth.logout(auth);
    return { success: true };
  });

  route('auth.code', async ({ input, ip, lang }) => {
    await services.auth.requestResetCode(input.email, { ip, lang });
    return { success: true };
  });

  route('auth.confirmEmail', ({ input, auth, ip }) => services.emailConfirmation.confirm(input, auth, ip));

  route('auth.resendConfirmation', async ({ auth }) => {
    await services.emailConfirmation.resend(auth);
    return { success: true };
  });

  route('auth.pass', async ({ input, ip, lang }) => {
    await services.auth.resetPassword(input, { ip, lang });
    return { success: true };
  });
}
