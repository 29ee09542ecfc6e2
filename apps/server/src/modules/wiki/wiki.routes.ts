import type { RouteDeps } from '../../http/route-deps.ts';

export function wikiRoutes({ route, services }: RouteDeps): void {
  route('wiki.list', ({ input, lang }) => services.wiki.list(input, lang));
  route('wiki.article', ({ input, params, lang }) => services.wiki.article(params.slug, input.lang ?? lang));
  route('wiki.save', ({ auth, input }) => services.wiki.save(auth, input));
  route('wiki.delete', ({ auth, params }) => services.wiki.delete(auth, params.id));
}
