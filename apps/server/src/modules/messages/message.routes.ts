import type { RouteDeps } from '../../http/route-deps.ts';

export function messageRoutes({ route, services }: RouteDeps): void {
  route('message.contacts', ({ auth, input }) =>
    services.messages.contacts(auth, input.q, input.page, input.limit),
  );
  route('message.conversation', ({ auth, input }) =>
    services.messages.conversation(auth, input.user, input.page, input.limit),
  );
  route('message.send', async ({ auth, input, files }) => ({
    success: true,
    message: await services.messages.send(auth, input, files),
  }));
  route('message.mass', async ({ auth, input, files }) => ({
    success: true,
    sent: await services.messages.sendMass(auth, input, files),
  }));
}
