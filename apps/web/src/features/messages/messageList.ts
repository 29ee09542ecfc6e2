import type { Message } from '@fanverse/contract';

/** A message in the chat: the stored one, or the sender's preview while it is sent. */
export interface ChatEntry {
  message: Message;
  /** Set when the send failed: the error text; the preview stays with a retry. */
  error?: string;
}

function sameHandle(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Does this message belong to the chat with `contact` (as seen by the current user)? */
export function belongsToChat(message: Message, contact: string): boolean {
  return message.isMe ? sameHandle(message.to, contact) : sameHandle(message.from, contact);
}

/**
 * Puts a message in the list, matched by messageUUID: a preview or an earlier copy is replaced
 * (never duplicated), except that a processed copy is not replaced by a still-processing one
 * (the send answer can arrive after the socket's processed event). New ones go in date order.
 */
export function upsertMessage(list: readonly ChatEntry[], message: Message): ChatEntry[] {
  const index = list.findIndex((entry) => entry.message.messageUUID === message.messageUUID);
  if (index >= 0) {
    const current = list[index]?.message;
    if (current && !current.processing && message.processing && !current._id.startsWith('local-')) {
      return list as ChatEntry[];
    }
    const next = list.slice();
    next[index] = { message };
    return next;
  }
  const time = Date.parse(message.date);
  let at = list.length;
  while (at > 0 && Date.parse(list[at - 1]?.message.date ?? '') > time) at -= 1;
  return [...list.slice(0, at), { message }, ...list.slice(at)];
}

/** Adds an older page (oldest to newest) before the list, skipping messages already shown. */
export function prependPage(list: readonly ChatEntry[], page: readonly Message[]): ChatEntry[] {
  const known = new Set(list.map((entry) => entry.message.messageUUID));
  return [...page.filter((m) => !known.has(m.messageUUID)).map((message) => ({ message })), ...list];
}

/** Marks the entry of a messageUUID failed (or clears the failure with `undefined`). */
export function markFailed(
  list: readonly ChatEntry[],
  messageUUID: string,
  error: string | undefined,
): ChatEntry[] {
  return list.map((entry) => (entry.message.messageUUID === messageUUID ? { ...entry, error } : entry));
}

/** The preview shown at once while a message is sent (spec §4: processing until answered). */
export function previewMessage(input: {
  messageUUID: string;
  from: string;
  to: string;
  message: string;
  price: number;
  /** Local object URLs of the attached files. */
  previews: string[];
  now?: Date;
}): Message {
  return {
    _id: `local-${input.messageUUID}`,
    messageUUID: input.messageUUID,
    from: input.from,
    to: input.to,
    message: input.message,
    date: (input.now ?? new Date()).toISOString(),
    isMe: true,
    files: [],
    filesDummy: input.previews,
    filesPosters: [],
    processing: true,
    price: input.price,
    locked: false,
    read: false,
  };
}

/** Client-side check of spec §5 before sending: empty (without files) or over the maximum. */
export function messageProblem(text: string, fileCount: number, max: number): 'empty' | 'tooLong' | null {
  if (text.length > max) return 'tooLong';
  if (text.trim() === '' && fileCount === 0) return 'empty';
  return null;
}
