import type { RouteDeps } from '../../http/route-deps.ts';

export function vaultRoutes({ route, services }: RouteDeps): void {
  route('vault.list', ({ auth, input }) => services.vault.list(auth, input));
  route('vault.remove', async ({ auth, params }) => {
    await services.vault.remove(auth, params.id);
    return { success: true };
  });
}
