import { randomUUID } from 'node:crypto';
import type { Contact, Message } from '@fanverse/contract';
import { LIMITS, pageStatistics } from '@fanverse/contract';
import { isCreator } from '../../access/index.ts';
import type { MediaRow, MessageRow } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { RealtimePublisher } from '../../realtime/publisher.ts';
import type { BlockService } from '../blocks/block.service.ts';
import type { CounterPublisher } from '../notifications/counter.publisher.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import type { MediaPort, UploadedFile } from '../posts/media.port.ts';
import type { FeatureGate } from '../settings/platform-settings.ts';
import { type PublicUserRow, presentPublicUser } from '../users/public-user.presenter.ts';
import { presentMessage } from './message.presenter.ts';
import type { MessageRepository } from './message.repository.ts';

export interface MessageDeps {
  messages: MessageRepository;
  media: MediaPort;
  blocks: BlockService;
  notifications: NotificationService;
  counters: CounterPublisher;
  publisher: RealtimePublisher;
  limiter: RateLimiter;
  /** An active user by handle. */
  findByHandle: (handle: string) => Promise<PublicUserRow | undefined>;
  findById: (id: string) => Promise<{ username: string } | undefined>;
  /** Feature switches (paid messages). */
  features: FeatureGate;
  now?: () => Date;
}

export interface MessageInput {
  message: string;
  messageUUID: string;
  price: number;
}

export const MESSAGE_RATE = { perMinute: 60, massPerHour: 5, maxFiles: 10 } as const;
const MAX_LENGTH = LIMITS.messageLength;

type Party = { id: string; username: string };

/** Direct and mass messages: validation, storage, live delivery, read state and notifications. */
export class MessageService {
  private readonly now: () => Date;
  constructor(private readonly deps: MessageDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async send(auth: AuthInfo, input: MessageInput & { to: string }, files: UploadedFile[]): Promise<Message> {
    await this.limit(`message:${auth.userId}`, 60, MESSAGE_RATE.perMinute);
    const text = this.checkContent(auth, input, files);
    if (input.price > 0) await this.deps.features.require('paidMessages');
    const to = await this.deps.findByHandle(input.to.replace(/^@/, ''));
    if (!to) throw new AppError('NOT_FOUND');
    if (to.id === auth.userId) throw new AppError('FORBIDDEN');
    await this.deps.blocks.assertNotBlocked(auth.userId, to.id);
    const me: Party = { id: auth.userId, username: auth.username };
    if (files.length) {
      // A retry of a message with files: answer the stored one without ingesting the files again.
      const existing = await this.deps.messages.findByUuid(auth.userId, input.messageUUID);
      if (existing) return this.viewStored(existing, me, to);
    }

    const mediaRows = await this.ingest(auth.userId, files);
    const row = await this.deps.messages.insert(
      { messageUuid: input.messageUUID, fromId: me.id, toId: to.id, message: text, price: input.price },
      mediaRows.map((m) => m.id),
    );
    if (!row) {
      // A concurrent request with the same messageUUID stored it first: answer that one.
      for (const m of mediaRows) await this.deps.media.remove(m.id);
      const stored = await this.deps.messages.findByUuid(auth.userId, input.messageUUID);
      if (!stored) throw new AppError('INTERNAL');
      return this.viewStored(stored, me, to);
    }
    await this.deliver(row, me, to, text, mediaRows);
    if (mediaRows.length) this.redeliverWhenProcessed([row], me, mediaRows);
    return this.presentNew(row, me, to, mediaRows, auth.userId);
  }

  /** One message to every active subscriber of the creator; answers how many received it. */
  async sendMass(auth: AuthInfo, input: MessageInput, files: UploadedFile[]): Promise<number> {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    await this.limit(`message-mass:${auth.userId}`, 3600, MESSAGE_RATE.massPerHour);
    const text = this.checkContent(auth, input, files);
    if (input.price > 0) await this.deps.features.require('paidMessages');
    const recipients = await this.deps.messages.activeSubscribers(auth.userId);
    if (!recipients.length) return 0;
    const mediaRows = await this.ingest(auth.userId, files);
    const massId = randomUUID();
    const rows = await this.deps.messages.insertMany(
      recipients.map((toId) => ({
        // One row per receiver; a retry of the same mass message stores nothing new.
        messageUuid: `${input.messageUUID}:${toId}`,
        fromId: auth.userId,
        toId,
        message: text,
        price: input.price,
        massId,
      })),
      mediaRows.map((m) => m.id),
    );
    if (!rows.length) for (const m of mediaRows) await this.deps.media.remove(m.id);
    const me: Party = { id: auth.userId, username: auth.username };
    void this.deliverMass(rows, me, text, mediaRows);
    return rows.length;
  }

  async conversation(auth: AuthInfo, handle: string, page: number, limit: number) {
    const other = await this.deps.findByHandle(handle.replace(/^@/, ''));
    if (!other) throw new AppError('NOT_FOUND');
    const { rows, total } = await this.deps.messages.page(auth.userId, other.id, page, limit);
    if (page === 1) {
      const at = this.now();
      const changed = await this.deps.messages.markRead(auth.userId, other.id, at);
      if (changed) {
        for (const r of rows) if (r.toId === auth.userId && !r.readAt) r.readAt = at;
        await this.pushUnread(auth.userId);
      }
    }
    const me: Party = { id: auth.userId, username: auth.username };
    const ordered = [...rows].reverse();
    const messages = await this.view(
      ordered,
      (r) => (r.fromId === me.id ? [me, other] : [other, me]),
      auth.userId,
    );
    return { user: presentPublicUser(other), messages, statistics: pageStatistics(page, limit, total) };
  }

  async contacts(auth: AuthInfo, q: string, page: number, limit: number) {
    const { rows, total } = await this.deps.messages.contacts(auth.userId, q, page, limit);
    const users: Contact[] = rows.map((r) => ({
      user: presentPublicUser(r.user),
      lastMessage: r.lastMessage,
      lastMessageIsMe: r.lastFromId === auth.userId,
      date: r.date.toISOString(),
      unread: r.unread,
    }));
    return { users, statistics: pageStatistics(page, limit, total) };
  }

  /** Records that the receiver unlocked a paid message (the money module charges the credits first). */
  async grantUnlock(userId: string, messageId: string): Promise<void> {
    const row = await this.deps.messages.findById(messageId);
    if (!row || row.toId !== userId) throw new AppError('NOT_FOUND');
    await this.deps.messages.addUnlock(userId, messageId);
  }

  unreadTotal(userId: string): Promise<number> {
    return this.deps.messages.unreadTotal(userId);
  }

  private checkContent(auth: AuthInfo, input: MessageInput, files: UploadedFile[]): string {
    const text = input.message.trim();
    if (!text && !files.length) throw new AppError('MESSAGE_EMPTY');
    if (text.length > MAX_LENGTH) throw new AppError('MESSAGE_TOO_LONG', { max: MAX_LENGTH });
    if (files.length > MESSAGE_RATE.maxFiles)
      throw new AppError('VALIDATION_FAILED', {}, { files: 'tooLong' });
    if (input.price > 0 && (!isCreator(auth) || !files.length))
      throw new AppError('VALIDATION_FAILED', {}, { price: 'invalid' });
    return text;
  }

  private async limit(key: string, windowSeconds: number, max: number): Promise<void> {
    const state = await this.deps.limiter.hit(key, windowSeconds);
    if (state.count > max) throw new AppError('RATE_LIMITED', { seconds: Math.ceil(state.resetInMs / 1000) });
  }

  private async ingest(ownerId: string, files: UploadedFile[]): Promise<MediaRow[]> {
    const rows: MediaRow[] = [];
    try {
      for (const file of files)
        rows.push(await this.deps.media.ingest({ ownerId, purpose: 'message', file }));
    } catch (err) {
      for (const r of rows) await this.deps.media.remove(r.id);
      throw err;
    }
    return rows;
  }

  /** Each row as one viewer sees it; `parties` gives [sender, receiver] of a row. */
  private async view(rows: MessageRow[], parties: (r: MessageRow) => [Party, Party], viewerId: string) {
    const ids = rows.map((r) => r.id);
    const paid = rows.filter((r) => r.price > 0 && r.toId === viewerId).map((r) => r.id);
    const [files, unlocked] = await Promise.all([
      this.deps.messages.mediaOf(ids),
      this.deps.messages.unlockedBy(viewerId, paid),
    ]);
    return rows.map((row) => {
      const [from, to] = parties(row);
      return presentMessage(
        {
          row,
          files: files.get(row.id) ?? [],
          viewerId,
          from: from.username,
          to: to.username,
          unlocked: unlocked.has(row.id),
        },
        (m, access) => this.deps.media.present(m, access),
      );
    });
  }

  private async viewOne(row: MessageRow, from: Party, to: Party, viewerId: string): Promise<Message> {
    const [message] = await this.view([row], () => [from, to], viewerId);
    return message!;
  }

  /** The sender's earlier message with this messageUUID; reusing it for someone else is refused. */
  private viewStored(row: MessageRow, me: Party, to: Party): Promise<Message> {
    if (row.toId !== to.id) throw new AppError('VALIDATION_FAILED', {}, { messageUUID: 'invalid' });
    return this.viewOne(row, me, to, me.id);
  }

  /** A message just stored, whose files are known and which nobody unlocked yet (no queries). */
  private presentNew(row: MessageRow, from: Party, to: Party, files: MediaRow[], viewerId: string): Message {
    return presentMessage(
      { row, files, viewerId, from: from.username, to: to.username, unlocked: false },
      (m, access) => this.deps.media.present(m, access),
    );
  }

  /** The stored message to both parties' devices, the receiver's counts, and a notification when their chat is closed. */
  private async deliver(
    row: MessageRow,
    from: Party,
    to: Party,
    text: string,
    files: MediaRow[],
    toSender = true,
  ): Promise<void> {
    if (toSender) {
      this.deps.publisher.toUser(from.id, 'message', {
        message: this.presentNew(row, from, to, files, from.id),
      });
    }
    this.deps.publisher.toUser(to.id, 'message', { message: this.presentNew(row, from, to, files, to.id) });
    // A receiver looking at this chat has read the message; otherwise it counts as unread and
    // raises a notification. `unreadMessages` sets messagesUnread on every device of the receiver.
    const open = await this.deps.publisher.hasOpenChat(to.id, from.id);
    if (open) await this.deps.messages.markRead(to.id, from.id, this.now());
    const total = await this.deps.messages.unreadTotal(to.id);
    this.deps.publisher.toUser(to.id, 'unreadMessages', { total });
    if (open) return;
    await this.deps.notifications.notify(to.id, 'message', {
      link: `/?messages=${encodeURIComponent(from.username)}`,
      actor: from.username,
      text: text ? text.slice(0, 80) : '📎',
      messageId: row.id,
    });
  }

  private async deliverMass(rows: MessageRow[], from: Party, text: string, media: MediaRow[]): Promise<void> {
    for (const row of rows) {
      const to = await this.deps.findById(row.toId);
      if (!to) continue;
      await this.deliver(row, from, { id: row.toId, username: to.username }, text, media, false).catch(
        () => undefined,
      );
    }
    if (media.length && rows.length) this.redeliverWhenProcessed(rows, from, media, false);
  }

  /** When the files are processed, the same messages go out again with processing=false. */
  private redeliverWhenProcessed(rows: MessageRow[], from: Party, media: MediaRow[], toSender = true): void {
    void this.deps.media
      .whenProcessed(media.map((m) => m.id))
      .then(async () => {
        for (const row of rows) {
          const to = await this.deps.findById(row.toId);
          if (!to) continue;
          const receiver = { id: row.toId, username: to.username };
          if (toSender)
            this.deps.publisher.toUser(from.id, 'message', {
              message: await this.viewOne(row, from, receiver, from.id),
            });
          this.deps.publisher.toUser(row.toId, 'message', {
            message: await this.viewOne(row, from, receiver, row.toId),
          });
        }
      })
      .catch(() => undefined);
  }

  private async pushUnread(userId: string): Promise<void> {
    const total = await this.deps.messages.unreadTotal(userId);
    this.deps.publisher.toUser(userId, 'unreadMessages', { total });
    await this.deps.counters.push(userId);
  }
}
