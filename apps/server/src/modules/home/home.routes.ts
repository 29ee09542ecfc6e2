import type { RouteDeps } from '../../http/route-deps.ts';

export function homeRoutes({ route, services }: RouteDeps): void {
  // The same answer object for a language within a second: its JSON and tag are kept (`shared`).
  route('home.get', ({ lang }) => services.home.startup(lang), { shared: true });
}
