import type { RouteDeps } from '../../http/route-deps.ts';

export function galleryRoutes({ route, services }: RouteDeps): void {
  route('gallery.get', ({ auth, input }) => services.gallery.gallery(auth, input.creator));
  route('gallery.saveCategory', async ({ auth, input }) => ({
    success: true,
    category: await services.gallery.saveCategory(auth, input),
  }));
  route('gallery.deleteCategory', async ({ auth, params }) => {
    await services.gallery.deleteCategory(auth, params.id);
    return { success: true };
  });
}
