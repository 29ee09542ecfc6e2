/** What decides whether one person may open a message's files. */
export type MessageEntitlement = {
  fromId: string;
  toId: string;
  price: number;
  /** The receiver paid for this message. */
  unlocked: boolean;
  /** Either party blocked the other. */
  blocked: boolean;
};

/**
 * Who may open a message's files (spec §3, ADR 0043): its sender always; its receiver when the
 * message is free or they paid for it, and only while neither blocked the other. Staff play them
 * as they play any post's (the media route's own staff rule), never through the chat.
 */
export const canSeeMessageFiles = (viewerId: string, m: MessageEntitlement): boolean =>
  viewerId === m.fromId || (viewerId === m.toId && !m.blocked && (m.price === 0 || m.unlocked));
