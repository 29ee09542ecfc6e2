import type {
  Counters,
  Language,
  Notification,
  NotificationKind,
  NotificationPayload,
} from '@fanverse/contract';
import { pageStatistics } from '@fanverse/contract';
import type { AuthInfo } from '../../http/guards.ts';
import type { RealtimePublisher } from '../../realtime/publisher.ts';
import type { CounterPublisher } from './counter.publisher.ts';
import type {
  CreatedNotification,
  NotificationRepository,
  NotificationRow,
} from './notification.repository.ts';
import { isNotificationKind, notificationText } from './notification.templates.ts';

function present(row: NotificationRow, lang: Language): Notification {
  const payload = (row.payload ?? {}) as NotificationPayload;
  return {
    _id: row.id,
    kind: row.kind,
    message: isNotificationKind(row.kind) ? notificationText(row.kind, lang, payload) : '',
    payload: { ...payload, link: typeof payload.link === 'string' ? payload.link : '/' },
    date: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}

/**
 * Stores notifications and pushes them live, worded in the receiver's language; lists them and
 * marks them read. Other modules only call `notify()` with a kind of the contract's list.
 */
export class NotificationService {
  constructor(
    private readonly repo: NotificationRepository,
    private readonly publisher: RealtimePublisher,
    private readonly counters?: CounterPublisher,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Stores a notification and pushes it (and the new counts) to the user's sockets. With
   * `opts.once`, a key unique per recipient (e.g. `live:<liveId>`), a second call with the same key
   * does nothing and answers undefined: a retried job does not notify twice. `opts.counters`:
   * counts of the receiver the caller has just read (a message's sender knows the unread messages).
   */
  async notify(
    userId: string,
    kind: NotificationKind,
    payload: Record<string, unknown> & { link: string },
    opts: { once?: string; counters?: Partial<Counters> } = {},
  ) {
    const created = await this.repo.create(userId, kind, payload, opts.once);
    if (!created) return undefined;
    await this.announce(userId, kind, payload, created, opts.counters);
    const { receiver: _receiver, unread: _unread, language: _language, ...row } = created;
    return row;
  }

  /**
   * Pushes a notification stored by the caller's own statement (a direct message stores its
   * notification with it: MessageRepository.insert) to the receiver's sockets, with the new counts.
   */
  async announce(
    userId: string,
    kind: NotificationKind,
    payload: Record<string, unknown> & { link: string },
    created: CreatedNotification,
    counters: Partial<Counters> = {},
  ): Promise<void> {
    const message = notificationText(kind, created.language, payload);
    this.publisher.toUser(userId, 'notification', {
      notification: { _id: created.id, kind, message, payload, date: created.createdAt.toISOString() },
    });
    await this.counters?.push(userId, {
      identity: created.receiver,
      counters: { ...counters, notificationsUnread: created.unread },
    });
  }

  async list(auth: AuthInfo, page: number, limit: number, lang: Language) {
    const [{ rows, total }, unread] = await Promise.all([
      this.repo.list(auth.userId, page, limit),
      this.repo.unread(auth.userId),
    ]);
    return {
      notifications: rows.map((r) => present(r, lang)),
      statistics: { ...pageStatistics(page, limit, total), unread },
    };
  }

  /** Marks everything up to `timestamp` (ms, default now) read and pushes the new counts. */
  async read(auth: AuthInfo, timestamp: number | undefined): Promise<number> {
    const at = this.now();
    const upTo = timestamp === undefined ? at : new Date(Math.min(timestamp, at.getTime()));
    const changed = await this.repo.markRead(auth.userId, upTo, at);
    if (changed) await this.counters?.push(auth.userId);
    return this.repo.unread(auth.userId);
  }

  unread(userId: string): Promise<number> {
    return this.repo.unread(userId);
  }
}
