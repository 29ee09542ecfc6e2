import type { RealtimePublisher } from '../../realtime/publisher.ts';
import type { NotificationRepository } from './notification.repository.ts';
import { type NotificationKind, notificationText } from './notification.templates.ts';

/** Stores a notification and pushes it live, worded in the receiver's language. */
export class NotificationService {
  constructor(
    private readonly repo: NotificationRepository,
    private readonly publisher: RealtimePublisher,
  ) {}

  async notify(userId: string, kind: NotificationKind, payload: Record<string, unknown> & { link: string }) {
    const row = await this.repo.create(userId, kind, payload);
    const lang = await this.repo.languageOf(userId);
    this.publisher.toUser(userId, 'notification', {
      notification: { _id: row.id, message: notificationText(kind, lang, payload), payload },
    });
    return row;
  }
}
