import type { PresenceRepository } from './presence.repository.ts';

/**
 * Presence from the realtime connection: a user is online while any of their sockets is
 * connected (on any server); the last disconnect sets online=false and lastConnection.
 */
export class PresenceService {
  constructor(
    private readonly repo: PresenceRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The batch of users connected while the previous write was running (none: written at once). */
  private batch: { ids: Set<string>; at: Date; written: Promise<void> } | undefined;
  private writing: Promise<void> = Promise.resolve();

  /**
   * Online from now on. Connections arriving together (a server copy restarting, thousands of
   * clients reconnecting) share one write: while a write runs, the next users wait for it and then
   * go in one statement; alone, a user is written at once (issue 13, bench:realtime).
   */
  connected(userId: string): Promise<void> {
    if (!this.batch) {
      const batch = { ids: new Set<string>(), at: this.now(), written: Promise.resolve() };
      batch.written = this.writing.then(() => {
        if (this.batch === batch) this.batch = undefined;
        return this.repo.online([...batch.ids], batch.at);
      });
      this.writing = batch.written.catch(() => undefined);
      this.batch = batch;
    }
    this.batch.ids.add(userId);
    return this.batch.written;
  }

  lastDisconnected(userId: string, since: Date): Promise<void> {
    return this.repo.offline(userId, since);
  }
}
