import type { Comment } from './http/content.ts';
import type { LeakTrace } from './http/leaks.ts';
import type { LiveChatMessage } from './http/lives.ts';
import type { Message } from './http/messages.ts';
import type { NotificationPayload } from './http/notifications.ts';
import type { Counters } from './http/user.ts';

/** Socket.IO path (spec §7). */
export const SOCKET_PATH = '/api/v1/socket';

export interface ProgressPayload {
  message: string;
  percent: number;
}

/**
 * Events the server sends to clients (spec §7), typed once for both sides so that a misspelt
 * event name fails to compile. Payloads of events owned by later features are widened there.
 */
export interface ServerToClientEvents {
  postProgress: (payload: ProgressPayload & { postId?: string; uploadId?: string }) => void;
  postProgressEnd: (payload: { postId: string; message: string }) => void;
  postProgressError: (payload: { message: string; postId?: string }) => void;
  /** A new comment and the post's comment count after it (what every open copy of the post shows). */
  comment: (payload: { postId: string; comment: Comment; comments: number }) => void;
  /** The stored message as this receiver sees it (isMe per receiver); sent again when processed. */
  message: (payload: { message: Message }) => void;
  unreadMessages: (payload: { total: number }) => void;
  notification: (payload: {
    notification: { _id: string; kind: string; message: string; payload: NotificationPayload; date: string };
  }) => void;
  user: (payload: { type: string; postId?: string }) => void;
  progress: (payload: { progress?: number; percent?: number; message: string }) => void;
  counter: (payload: Counters) => void;
  /** A leak trace of this user's finished (done or failed): sent once, by the worker that ran it. */
  leakTrace: (payload: { trace: LeakTrace }) => void;
  /** Live streaming (issue 17): everyone watching the live gets these. */
  liveChat: (payload: { liveId: string; message: LiveChatMessage }) => void;
  liveChatRemoved: (payload: { liveId: string; messageId: string }) => void;
  /** A ticket, tip or gift during the live: shown on the stream with the fan's name. */
  liveSupport: (payload: {
    liveId: string;
    kind: 'ticket' | 'tip' | 'flowers' | 'gift';
    fan: string;
    credits: number;
    earnedCredits: number;
  }) => void;
  liveViewers: (payload: { liveId: string; viewers: number }) => void;
  liveEnded: (payload: { liveId: string }) => void;
  /** This viewer was banned from the live (the player stops). */
  liveBanned: (payload: { liveId: string }) => void;
}

export type ServerEventName = keyof ServerToClientEvents;

/** Events clients send: open and close a post's live comment stream, and say which chat is open. */
export interface ClientToServerEvents {
  watchPost: (postId: string, ack?: (ok: boolean) => void) => void;
  unwatchPost: (postId: string) => void;
  /** The chat with this handle is open on this device (no notification for its new messages). */
  openChat: (handle: string, ack?: (ok: boolean) => void) => void;
  closeChat: () => void;
  /** Join a live's room (chat, tips, viewer count); refused when the caller may not watch. */
  watchLive: (liveId: string, ack?: (ok: boolean) => void) => void;
  unwatchLive: (liveId: string) => void;
  /** The creator's camera: a MediaRecorder chunk (WebM) of their live, in order. */
  liveChunk: (liveId: string, chunk: ArrayBuffer, ack?: (ok: boolean) => void) => void;
}
