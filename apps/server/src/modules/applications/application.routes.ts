import { DOCUMENT_SIDES } from '@fanverse/contract';
import { AppError } from '../../http/app-error.ts';
import { requireAdministrator } from '../../http/guards.ts';
import type { RouteDeps } from '../../http/route-deps.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function applicationRoutes({ app, route, services, authenticate }: RouteDeps): void {
  route('creator.applyState', ({ auth }) => services.applications.state(auth));
  route('creator.apply', ({ auth, input, files }) => services.applications.submit(auth, input, files));

  const verifiers = { guard: requireAdministrator };
  route('admin.verifications', ({ auth, input }) => services.applications.list(auth, input), verifiers);
  route(
    'admin.verificationDecide',
    ({ auth, params, input }) => services.applications.decide(auth, params.id, input.decision, input.reason),
    verifiers,
  );

  // Identity photos: streamed to verifiers only, never through a media or signed URL.
  app.get<{ Params: { id: string; side: string } }>(
    '/api/v1/admin/verifications/:id/documents/:side',
    async (req, reply) => {
      const auth = await authenticate(req);
      if (!auth) throw new AppError('UNAUTHENTICATED');
      const { id, side } = req.params;
      if (!UUID.test(id) || !(DOCUMENT_SIDES as readonly string[]).includes(side))
        throw new AppError('NOT_FOUND');
      const file = await services.applications.document(auth, id, side);
      reply
        .header('content-type', file.mime)
        .header('content-length', String(file.size))
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex');
      return reply.send(await file.open());
    },
  );
}
