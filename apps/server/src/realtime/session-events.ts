import { EventEmitter } from 'node:events';

/**
 * Session lifecycle events that the realtime layer listens to (a logout disconnects the sockets of
 * that session). Services call this instead of knowing about sockets.
 */
export class SessionEvents {
  private readonly emitter = new EventEmitter();

  revoked(sessionIds: string[]): void {
    if (sessionIds.length) this.emitter.emit('revoked', sessionIds);
  }

  onRevoked(listener: (sessionIds: string[]) => void): () => void {
    this.emitter.on('revoked', listener);
    return () => this.emitter.off('revoked', listener);
  }
}
