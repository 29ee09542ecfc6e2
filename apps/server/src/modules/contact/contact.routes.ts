import type { RouteDeps } from '../../http/route-deps.ts';

export function contactRoutes({ route, services }: RouteDeps): void {
  route('contact.send', async ({ input, auth, ip }) => ({
    success: true,
    id: await services.contact.submit(input, auth, ip),
  }));
}
