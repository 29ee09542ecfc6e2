import type { RouteDeps } from '../../http/route-deps.ts';

export function vaultRoutes({ route, services }: RouteDeps): void {
  route('vault.list', ({ auth, input }) => services.vault.list(auth, input));
  route('vault.file', ({ auth, params }) => services.vault.file(auth, params.id));
  route('vault.folders', ({ auth }) => services.vault.folders(auth));
  route('vault.createFolder', ({ auth, input }) => services.vault.createFolder(auth, input.name));
  route('vault.renameFolder', ({ auth, params, input }) =>
    services.vault.renameFolder(auth, params.id, input.name),
  );
  route('vault.deleteFolder', async ({ auth, params }) => {
    await services.vault.deleteFolder(auth, params.id);
    return { success: true };
  });
  route('vault.move', async ({ auth, input }) => {
    await services.vault.move(auth, input.ids, input.folder);
    return { success: true };
  });
  route('vault.remove', async ({ auth, params }) => {
    await services.vault.remove(auth, params.id);
    return { success: true };
  });
}
