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
  private readonly sources: { names: readonly (keyof Counters)[]; source: CounterSource }[] = [];

  /** `names`: the counters `source` answers (a source whose counters are all `known` is not asked). */
  register<K extends keyof Counters>(
    names: readonly K[],
    source: (auth: AuthInfo) => Promise<Partial<Pick<Counters, K>>>,
  ): void {
    this.sources.push({ names, source });
  }

  /**
   * The caller's counters. `known`: counters the caller has just read itself (in the statement
   * that changed them), used as they are instead of being read again.
   */
  async forUser(auth: AuthInfo, known: Partial<Counters> = {}): Promise<Counters> {
    const counters = Object.fromEntries(COUNTER_NAMES.map((n) => [n, 0])) as Counters;
    const asked = this.sources.filter((s) => s.names.some((n) => known[n] === undefined));
    const parts = await Promise.all(asked.map((s) => s.source(auth)));
    for (const part of [...parts, known]) {
      for (const [name, n] of Object.entries(part)) if (n !== undefined) counters[name as keyof Counters] = n;
    }
    return counters;
  }
}
