import { randomUUID } from 'node:crypto';
import type { Contact, Message } from '@fanverse/contract';
import { LIMITS, pageStatistics } from '@fanverse/contract';
import { canSeeMessageFiles, isCreator } from '../../access/index.ts';
import type { MediaRow, MessageRow } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { JobSender } from '../../jobs/job.ts';
import { type RateLimiter, rateLimited } from '../../lib/rate-limiter.ts';
import type { MediaFollower } from '../../media/media.jobs.ts';
import type { RealtimePublisher } from '../../realtime/publisher.ts';
import type { BlockService } from '../blocks/block.service.ts';
import type { CounterPublisher } from '../notifications/counter.publisher.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import type { MediaPort, UploadedFile } from '../posts/media.port.ts';
import type { FeatureGate } from '../settings/platform-settings.ts';
import { type PublicUserRow, presentPublicUser } from '../users/public-user.presenter.ts';
import { MASS_MESSAGE, type MassMessageJob } from './message.jobs.ts';
import { presentMessage } from './message.presenter.ts';
import type { MessageRepository } from './message.repository.ts';

export interface MessageDeps {
  messages: MessageRepository;
  media: MediaPort;
  blocks: BlockService;
  notifications: NotificationService;
  counters: CounterPublisher;
  publisher: RealtimePublisher;
  /** The job backbone: mass messages are delivered by a `messages.mass-send` job. */
  jobs: JobSender;
  limiter: RateLimiter;
  /** Direct messages one account may send per minute (RATE_MESSAGE_PER_ACCOUNT). */
  messagesPerMinute?: number;
  /** An active user by handle. */
  findByHandle: (handle: string) => Promise<PublicUserRow | undefined>;
  /** Who an active user's handle names: id and username only (cached, users/handles.ts). */
  personByHandle: (handle: string) => Promise<Party | undefined>;
  findById: (id: string) => Promise<{ username: string } | undefined>;
  /** Feature switches (paid messages). */
  features: FeatureGate;
  now?: () => Date;
}

export interface MessageInput {
  message: string;
  messageUUID: string;
  price: number;
  /** Vault files attached again without an upload (creators; ADR 0032). */
  vaultMedia?: string[];
}

export const MESSAGE_RATE = { perMinute: 60, massPerHour: 5, maxFiles: 10 } as const;

/** Recipients stored and delivered per step of a mass message. */
const MASS_BATCH = 100;
const MAX_LENGTH = LIMITS.messageLength;

type Party = { id: string; username: string };

/** Direct and mass messages: validation, storage, live delivery, read state and notifications. */
export class MessageService {
  private readonly now: () => Date;
  constructor(private readonly deps: MessageDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async send(auth: AuthInfo, input: MessageInput & { to: string }, files: UploadedFile[]): Promise<Message> {
    const perMinute = this.deps.messagesPerMinute ?? MESSAGE_RATE.perMinute;
    await this.limit(`message:${auth.userId}`, 60, perMinute, 'MESSAGE_RATE_LIMITED');
    const reused = await this.deps.media.attachable(auth, input.vaultMedia ?? []);
    const text = this.checkContent(auth, input, files.length + reused.length);
    if (input.price > 0) await this.deps.features.require('paidMessages');
    const to = await this.deps.personByHandle(input.to);
    if (!to) throw new AppError('NOT_FOUND');
    if (to.id === auth.userId) throw new AppError('FORBIDDEN');
    const me: Party = { id: auth.userId, username: auth.username };
    if (files.length || reused.length) {
      // Refused before any file is stored.
      await this.deps.blocks.assertNotBlocked(auth.userId, to.id);
      // A retry of a message with files: answer the stored one without ingesting the files again.
      const existing = await this.deps.messages.findByUuid(auth.userId, input.messageUUID);
      if (existing) return this.viewStored(existing, me, to);
    }

    const mediaRows = distinct([...reused, ...(await this.ingest(auth.userId, files))]);
    // Whether the receiver is looking at this chat (asked of every server copy) decides how the
    // message is stored: read at once, or unread with its notification, in the same statement.
    const open = await this.deps.publisher.hasOpenChat(to.id, me.id);
    const id = randomUUID();
    const notice = messageNotice(id, me, text);
    const stored = await this.deps.messages.insert(
      {
        id,
        messageUuid: input.messageUUID,
        fromId: me.id,
        toId: to.id,
        message: text,
        price: input.price,
        readAt: open ? this.now() : null,
        notification: open ? null : notice,
      },
      mediaRows.map((m) => m.id),
    );
    if (!stored) {
      // The insert stores nothing for a blocked pair: refused.
      await this.deps.blocks.assertNotBlocked(auth.userId, to.id);
      // A concurrent request with the same messageUUID stored it first: answer that one. Its files
      // are these files (the same bytes are stored once per owner), so none is removed.
      const existing = await this.deps.messages.findByUuid(auth.userId, input.messageUUID);
      if (!existing) throw new AppError('INTERNAL');
      return this.viewStored(existing, me, to);
    }
    const { row, unread, notification } = stored;
    this.publishNew(row, me, to, mediaRows, unread, true);
    if (notification) {
      await this.deps.notifications.announce(to.id, 'message', notice, notification, {
        messagesUnread: unread,
      });
    }
    // When the files are processed the worker sends the message again (followMedia).
    await this.deps.media.startProcessing(processingIds(mediaRows));
    return this.presentNew(row, me, to, mediaRows, auth.userId);
  }

  /**
   * One message to every active subscriber of the creator; answers how many it goes to. Delivery
   * is a durable job (`messages.mass-send`): stored and delivered in batches, one message per
   * recipient whatever the retries (a unique key per mass message and recipient).
   */
  async sendMass(auth: AuthInfo, input: MessageInput, files: UploadedFile[]): Promise<number> {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    await this.limit(`message-mass:${auth.userId}`, 3600, MESSAGE_RATE.massPerHour);
    const reused = await this.deps.media.attachable(auth, input.vaultMedia ?? []);
    const text = this.checkContent(auth, input, files.length + reused.length);
    if (input.price > 0) await this.deps.features.require('paidMessages');
    const recipients = await this.deps.messages.activeSubscribers(auth.userId);
    if (!recipients.length) return 0;
    const mediaRows = distinct([...reused, ...(await this.ingest(auth.userId, files))]);
    await this.deps.jobs.send(
      MASS_MESSAGE,
      {
        massId: randomUUID(),
        creatorId: auth.userId,
        messageUuid: input.messageUUID,
        text,
        price: input.price,
        mediaIds: mediaRows.map((m) => m.id),
      },
      // A retry of the same request while the first is queued or running adds nothing.
      { singletonKey: `${auth.userId}:${input.messageUUID}` },
    );
    return recipients.length;
  }

  /**
   * The `messages.mass-send` job: stores the message for the subscribers who don't have it yet, a
   * batch at a time, and delivers each new one (socket, unread count, notification). A run after a
   * crash starts where the last one stopped: recipients already stored get nothing twice.
   */
  async deliverMass(job: MassMessageJob): Promise<void> {
    const creator = await this.deps.findById(job.creatorId);
    if (!creator) return;
    const from: Party = { id: job.creatorId, username: creator.username };
    const recipients = await this.deps.messages.activeSubscribers(job.creatorId);
    for (let i = 0; i < recipients.length; i += MASS_BATCH) {
      const rows = await this.deps.messages.insertMany(
        recipients.slice(i, i + MASS_BATCH).map((toId) => ({
          messageUuid: `${job.messageUuid}:${toId}`,
          fromId: job.creatorId,
          toId,
          message: job.text,
          price: job.price,
          massId: job.massId,
        })),
        job.mediaIds,
      );
      if (!rows.length) continue;
      const files = (await this.deps.messages.mediaOf([rows[0]!.id])).get(rows[0]!.id) ?? [];
      for (const row of rows) {
        const to = await this.deps.findById(row.toId);
        if (!to) continue;
        const open = await this.deps.publisher.hasOpenChat(row.toId, from.id);
        await this.deliver(row, from, { id: row.toId, username: to.username }, job.text, files, {
          open,
          toSender: false,
        });
      }
    }
    // Processing starts once every message holds the files, so the worker's redelivery reaches all.
    await this.deps.media.startProcessing(processingIds(await this.deps.media.getMany(job.mediaIds)));
  }

  /**
   * Follows a message file in the worker: once every file of a message is processed, the message
   * goes out again with processing=false (to both parties; mass messages to the receiver only).
   */
  async followMedia(file: MediaRow): Promise<MediaFollower | undefined> {
    // Any vault file can be in messages (ADR 0032): followed when some message holds it.
    if (!(await this.deps.messages.withMedia(file.id)).length) return undefined;
    return {
      progress: () => undefined,
      done: async () => {
        const rows = await this.deps.messages.withMedia(file.id);
        const files = await this.deps.messages.mediaOf(rows.map((r) => r.id));
        const names = new Map<string, string | undefined>();
        const nameOf = async (id: string) => {
          if (!names.has(id)) names.set(id, (await this.deps.findById(id))?.username);
          return names.get(id);
        };
        for (const row of rows) {
          if ((files.get(row.id) ?? []).some((m) => m.status === 'processing')) continue;
          const [fromName, toName] = [await nameOf(row.fromId), await nameOf(row.toId)];
          if (!fromName || !toName) continue;
          const from = { id: row.fromId, username: fromName };
          const to = { id: row.toId, username: toName };
          if (!row.massId)
            this.deps.publisher.toUser(from.id, 'message', {
              message: await this.viewOne(row, from, to, from.id),
            });
          this.deps.publisher.toUser(to.id, 'message', { message: await this.viewOne(row, from, to, to.id) });
        }
      },
    };
  }

  async conversation(auth: AuthInfo, handle: string, page: number, limit: number) {
    const other = await this.deps.findByHandle(handle.replace(/^@/, ''));
    if (!other) throw new AppError('NOT_FOUND');
    const { rows, total } = await this.deps.messages.page(auth.userId, other.id, page, limit);
    if (page === 1) {
      const at = this.now();
      const { changed, unread } = await this.deps.messages.markRead(auth.userId, other.id, at);
      if (changed) {
        for (const r of rows) if (r.toId === auth.userId && !r.readAt) r.readAt = at;
        await this.pushUnread(auth, unread);
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

  /**
   * Whether the viewer may play a file through a message that holds it (ADR 0043): its sender, its
   * receiver when free or paid for, neither while one blocked the other (`canSeeMessageFiles`).
   */
  async mediaAccess(auth: AuthInfo, mediaId: string): Promise<boolean> {
    const rows = await this.deps.messages.withMediaFor(auth.userId, mediaId);
    if (!rows.length) return false;
    const paid = rows.filter((r) => r.price > 0 && r.toId === auth.userId).map((r) => r.id);
    const [unlocked, blocked] = await Promise.all([
      this.deps.messages.unlockedBy(auth.userId, paid),
      this.blockedPairs(rows),
    ]);
    return rows.some((r) =>
      canSeeMessageFiles(auth.userId, {
        ...r,
        unlocked: unlocked.has(r.id),
        blocked: blocked.has(pairKey(r)),
      }),
    );
  }

  unreadTotal(userId: string): Promise<number> {
    return this.deps.messages.unreadTotal(userId);
  }

  private checkContent(auth: AuthInfo, input: MessageInput, fileCount: number): string {
    const text = input.message.trim();
    if (!text && !fileCount) throw new AppError('MESSAGE_EMPTY');
    if (text.length > MAX_LENGTH) throw new AppError('MESSAGE_TOO_LONG', { max: MAX_LENGTH });
    if (fileCount > MESSAGE_RATE.maxFiles) throw new AppError('VALIDATION_FAILED', {}, { files: 'tooLong' });
    if (input.price > 0 && (!isCreator(auth) || !fileCount))
      throw new AppError('VALIDATION_FAILED', {}, { price: 'invalid' });
    return text;
  }

  private async limit(
    key: string,
    windowSeconds: number,
    max: number,
    code: 'RATE_LIMITED' | 'MESSAGE_RATE_LIMITED' = 'RATE_LIMITED',
  ): Promise<void> {
    const state = await this.deps.limiter.hit(key, windowSeconds);
    if (state.count > max) throw rateLimited(code, state.resetInMs);
  }

  private async ingest(ownerId: string, files: UploadedFile[]): Promise<MediaRow[]> {
    const rows: (MediaRow & { reused: boolean })[] = [];
    try {
      for (const file of files)
        rows.push(await this.deps.media.ingest({ ownerId, purpose: 'message', file }));
    } catch (err) {
      // Only files this request stored: a reused one is the sender's earlier upload.
      for (const r of rows) if (!r.reused) await this.deps.media.remove(r.id);
      throw err;
    }
    return rows;
  }

  /** Each row as one viewer sees it; `parties` gives [sender, receiver] of a row. */
  private async view(rows: MessageRow[], parties: (r: MessageRow) => [Party, Party], viewerId: string) {
    const ids = rows.map((r) => r.id);
    const paid = rows.filter((r) => r.price > 0 && r.toId === viewerId).map((r) => r.id);
    const [files, unlocked, blocked] = await Promise.all([
      this.deps.messages.mediaOf(ids),
      this.deps.messages.unlockedBy(viewerId, paid),
      this.blockedPairs(rows),
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
          blocked: blocked.has(pairKey(row)),
        },
        (m, access) => this.deps.media.present(m, access, viewerId),
      );
    });
  }

  /** The pairs (`pairKey`) among these messages' parties where one blocked the other. */
  private async blockedPairs(rows: readonly MessageRow[]): Promise<Set<string>> {
    const pairs = [...new Set(rows.map(pairKey))];
    const blocked = await Promise.all(
      pairs.map((key) => {
        const [a = '', b = ''] = key.split(':');
        return this.deps.blocks.between(a, b);
      }),
    );
    return new Set(pairs.filter((_, i) => blocked[i]));
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

  /**
   * A message just stored, whose files are known and which nobody unlocked yet (no queries; its
   * parties were not blocked: sending checks it, mass messages skip blocked subscribers).
   */
  private presentNew(row: MessageRow, from: Party, to: Party, files: MediaRow[], viewerId: string): Message {
    return presentMessage(
      { row, files, viewerId, from: from.username, to: to.username, unlocked: false, blocked: false },
      (m, access) => this.deps.media.present(m, access, viewerId),
    );
  }

  /**
   * The stored message to both parties' devices (the sender's unless `toSender` is false), the
   * receiver's unread count (`read.unread` when the caller has it), and a notification when their
   * chat is closed. A receiver looking at this chat (`read.open`) has read the message.
   */
  private async deliver(
    row: MessageRow,
    from: Party,
    to: Party,
    text: string,
    files: MediaRow[],
    read: { open: boolean; toSender: boolean },
  ): Promise<void> {
    const total = read.open
      ? (await this.deps.messages.markRead(to.id, from.id, this.now())).unread
      : await this.deps.messages.unreadTotal(to.id);
    this.publishNew(row, from, to, files, total, read.toSender);
    if (read.open) return;
    await this.deps.notifications.notify(to.id, 'message', messageNotice(row.id, from, text), {
      counters: { messagesUnread: total },
    });
  }

  /**
   * A stored message to both parties' devices (the sender's unless `toSender` is false) and the
   * receiver's unread count (`unreadMessages` sets messagesUnread on every device of theirs).
   */
  private publishNew(
    row: MessageRow,
    from: Party,
    to: Party,
    files: MediaRow[],
    unread: number,
    toSender: boolean,
  ) {
    if (toSender) {
      this.deps.publisher.toUser(from.id, 'message', {
        message: this.presentNew(row, from, to, files, from.id),
      });
    }
    this.deps.publisher.toUser(to.id, 'message', { message: this.presentNew(row, from, to, files, to.id) });
    this.deps.publisher.toUser(to.id, 'unreadMessages', { total: unread });
  }

  /** The reader's new unread count, to every device of theirs. */
  private async pushUnread(auth: AuthInfo, total: number): Promise<void> {
    this.deps.publisher.toUser(auth.userId, 'unreadMessages', { total });
    await this.deps.counters.push(auth.userId, { identity: auth, counters: { messagesUnread: total } });
  }
}

/** The receiver's notification of a message whose chat they are not looking at. */
function messageNotice(messageId: string, from: Party, text: string) {
  return {
    link: `/?messages=${encodeURIComponent(from.username)}`,
    actor: from.username,
    text: text ? text.slice(0, 80) : '📎',
    messageId,
  };
}

/** The two parties of a message, in a fixed order (blocks go either way). */
const pairKey = (r: Pick<MessageRow, 'fromId' | 'toId'>): string =>
  r.fromId < r.toId ? `${r.fromId}:${r.toId}` : `${r.toId}:${r.fromId}`;

/** Rows without repeats (a file attached from the vault and uploaded again is held once). */
function distinct<T extends { id: string }>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.id) && seen.add(r.id));
}

/** Files still to be processed (a reused vault file is usually ready already). */
function processingIds(rows: readonly MediaRow[]): string[] {
  return rows.filter((r) => r.status === 'processing').map((r) => r.id);
}
