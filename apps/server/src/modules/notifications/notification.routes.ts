import { notificationsReadRequestSchema } from '@fanverse/contract';
import type { RouteDeps } from '../../http/route-deps.ts';

export function notificationRoutes({ route, services }: RouteDeps): void {
  route('notifications.list', ({ auth, input, lang }) =>
    services.notifications.list(auth, input.page, input.limit, lang),
  );
  // The spec sends the timestamp in the query string of this POST; a body works too.
  route('notifications.read', async ({ auth, input, req }) => {
    const timestamp = input.timestamp ?? notificationsReadRequestSchema.parse(req.query ?? {}).timestamp;
    return { success: true, unread: await services.notifications.read(auth, timestamp) };
  });
}
