import type { RouteDeps } from '../../http/route-deps.ts';

export function homeRoutes({ route, services }: RouteDeps): void {
  route('home.get', ({ lang }) => services.home.startup(lang));
}
