import type { Counters } from '@fanverse/contract';
import { COUNTER_NAMES } from '@fanverse/contract';
import type { AuthInfo } from '../../http/guards.ts';

/** One contributor computes some counters for a caller, from the tables it owns. */
export type CounterSource = (auth: AuthInfo) => Promise<Partial<Counters>>;

/**
 * The user-store counters of spec §3. Each feature module registers a source for the counters it
 * owns (notifications here; messages, review queues and verifications with their modules), so a
 * counter is always a live query, never a number kept on the side that can drift.
 */
export class CountersService {
  private readonly sources: CounterSource[] = [];

  register(source: CounterSource): void {
    this.sources.push(source);
  }

  async forUser(auth: AuthInfo): Promise<Counters> {
    const counters = Object.fromEntries(COUNTER_NAMES.map((n) => [n, 0])) as Counters;
    const parts = await Promise.all(this.sources.map((s) => s(auth)));
    for (const part of parts) Object.assign(counters, part);
    return counters;
  }
}
