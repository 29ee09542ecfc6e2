import type { Counters, Role } from '@fanverse/contract';
import type { RealtimePublisher } from '../../realtime/publisher.ts';
import type { CountersService } from '../users/counters.service.ts';

/** Who a user is, as counter sources need it (roles decide the admin counters). */
export interface Identity {
  username: string;
  roles: Role[];
  verified: boolean;
}

/** Who a user is; undefined for an account that is gone. */
export type IdentityLookup = (userId: string) => Promise<Identity | undefined>;

/** What the caller of `push` has just read itself, so it is not read again. */
export interface KnownCounts {
  /** The user's identity (undefined: the account is gone, nothing is pushed). */
  identity?: Identity | undefined;
  counters?: Partial<Counters>;
}

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

  async push(userId: string, known: KnownCounts = {}): Promise<void> {
    const who = 'identity' in known ? known.identity : await this.identity(userId);
    if (!who) return;
    const counters = await this.counters.forUser(
      { userId, sessionId: '', username: who.username, roles: who.roles, verified: who.verified },
      known.counters,
    );
    this.publisher.toUser(userId, 'counter', counters);
  }
}
