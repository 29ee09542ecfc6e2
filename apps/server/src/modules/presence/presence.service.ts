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

  connected(userId: string): Promise<void> {
    return this.repo.online(userId, this.now());
  }

  lastDisconnected(userId: string, since: Date): Promise<void> {
    return this.repo.offline(userId, since);
  }
}
