import type { ServerEventName, ServerToClientEvents } from '@fanverse/contract';

/** What services use to reach people live; only realtime/ knows about sockets and rooms. */
export interface RealtimePublisher {
  toUser<E extends ServerEventName>(
    userId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /** Everyone watching a post (its open comments), each socket once even if also in a user room. */
  toPost<E extends ServerEventName>(
    postId: string,
    alsoUsers: string[],
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /** Whether any device of `userId` (on any server) has the chat with `withUserId` open. */
  hasOpenChat(userId: string, withUserId: string): Promise<boolean>;
  /** Everyone in a live's room (its viewers and its creator). */
  toLive<E extends ServerEventName>(
    liveId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /** How many people are in a live's room (on every server copy), not counting `except` (its creator). */
  liveViewers(liveId: string, except?: string): Promise<number>;
  /** Takes a user's sockets out of a live's room (a ban). */
  leaveLive(liveId: string, userId: string): Promise<void>;
}

/**
 * Services are built before the socket server exists (it needs the HTTP server); they hold this
 * publisher, which forwards to the socket server once attached and drops events before that.
 */
export class DeferredPublisher implements RealtimePublisher {
  private target: RealtimePublisher | undefined;

  attach(target: RealtimePublisher): void {
    this.target = target;
  }

  /** At shutdown: events published later (a job finishing late) go nowhere instead of to a closed Redis. */
  detach(): void {
    this.target = undefined;
  }

  toUser<E extends ServerEventName>(
    userId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void {
    this.target?.toUser(userId, event, ...args);
  }

  toPost<E extends ServerEventName>(
    postId: string,
    alsoUsers: string[],
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void {
    this.target?.toPost(postId, alsoUsers, event, ...args);
  }

  async hasOpenChat(userId: string, withUserId: string): Promise<boolean> {
    return (await this.target?.hasOpenChat(userId, withUserId)) ?? false;
  }

  toLive<E extends ServerEventName>(
    liveId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void {
    this.target?.toLive(liveId, event, ...args);
  }

  async liveViewers(liveId: string, except?: string): Promise<number> {
    return (await this.target?.liveViewers(liveId, except)) ?? 0;
  }

  async leaveLive(liveId: string, userId: string): Promise<void> {
    await this.target?.leaveLive(liveId, userId);
  }
}
