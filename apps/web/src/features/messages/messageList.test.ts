import type { Message } from '@fanverse/contract';
import { describe, expect, it } from 'vitest';
import { belongsToChat, messageProblem, prependPage, previewMessage, upsertMessage } from './messageList.ts';

function stored(uuid: string, date: string, patch: Partial<Message> = {}): Message {
  return {
    ...previewMessage({
      messageUUID: uuid,
      from: 'fanuser1',
      to: 'creator1',
      message: 'hi',
      price: 0,
      previews: [],
    }),
    _id: `id-${uuid}`,
    date,
    processing: false,
    ...patch,
  };
}

describe('chat message list', () => {
  it('replaces the preview by the stored message with the same messageUUID, once', () => {
    const preview = previewMessage({
      messageUUID: 'u1',
      from: 'a',
      to: 'b',
      message: 'x',
      price: 0,
      previews: [],
    });
    let list = upsertMessage([], preview);
    list = upsertMessage(list, stored('u1', preview.date, { processing: true }));
    list = upsertMessage(list, stored('u1', preview.date));
    expect(list).toHaveLength(1);
    expect(list[0]?.message._id).toBe('id-u1');
    expect(list[0]?.message.processing).toBe(false);
  });

  it('keeps the processed copy when a still-processing answer arrives later', () => {
    let list = upsertMessage([], stored('u1', '2026-01-01T00:00:00Z'));
    list = upsertMessage(list, stored('u1', '2026-01-01T00:00:00Z', { processing: true }));
    expect(list[0]?.message.processing).toBe(false);
  });

  it('inserts new messages in date order and prepends older pages without duplicates', () => {
    let list = upsertMessage([], stored('b', '2026-01-01T00:02:00Z'));
    list = upsertMessage(list, stored('a', '2026-01-01T00:01:00Z'));
    list = prependPage(list, [stored('z', '2025-12-31T00:00:00Z'), stored('a', '2026-01-01T00:01:00Z')]);
    expect(list.map((entry) => entry.message.messageUUID)).toEqual(['z', 'a', 'b']);
  });

  it('tells which chat a message belongs to for sender and receiver', () => {
    expect(belongsToChat(stored('u', '2026-01-01T00:00:00Z', { isMe: true }), 'Creator1')).toBe(true);
    expect(belongsToChat(stored('u', '2026-01-01T00:00:00Z', { isMe: false }), 'fanuser1')).toBe(true);
    expect(belongsToChat(stored('u', '2026-01-01T00:00:00Z', { isMe: false }), 'creator1')).toBe(false);
  });

  it('rejects an empty message without files and one over the maximum', () => {
    expect(messageProblem('  ', 0, 1024)).toBe('empty');
    expect(messageProblem('', 1, 1024)).toBeNull();
    expect(messageProblem('x'.repeat(1025), 0, 1024)).toBe('tooLong');
    expect(messageProblem('x'.repeat(1024), 0, 1024)).toBeNull();
  });
});
