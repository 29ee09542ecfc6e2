import type { Role } from '@fanverse/contract';
import type { RealtimePublisher } from '../../realtime/publisher.ts';
import type { CountersService } from '../users/counters.service.ts';

/** Who a user is, as counter sources need it (roles decide the admin counters). */
export type IdentityLookup = (
  userId: string,
) => Promise<{ username: string; roles: Role[]; verified: boolean } | undefined>;

/**
 * Pushes the `counter` event to every device of a user whose counters changed because of
 * someone else's action (a message, a notification). Counters stay live queries.
 */
export class CounterPublisher {
  constructor(
    private readonly counters: CountersService,
    private readonly identity: IdentityLookup,
    private readonly publisher: RealtimePublisher,
  ) {}

  async push(userId: string): Promise<void> {
    const who = await this.identity(userId);
    if (!who) return;
    const counters = await this.counters.forUser({
      userId,
      sessionId: '',
      username: who.username,
      roles: who.roles,
      verified: who.verified,
    });
    this.publisher.toUser(userId, 'counter', counters);
  }
}
