import type { ParsedInput } from '@fanverse/contract';
import { pageStatistics } from '@fanverse/contract';
import { isStaff } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { CreatorService } from '../creators/creator.service.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import type { PostService } from '../posts/post.service.ts';
import type { ActionLog } from './action-log.ts';
import { presentComplaint } from './admin.presenter.ts';
import type { AdminRepository } from './admin.repository.ts';
import type { AdminUserService } from './admin-user.service.ts';

/** Moderators answer reports and act on them; the reporter is told the outcome. */
export class ComplaintService {
  constructor(
    private readonly repo: AdminRepository,
    private readonly posts: PostService,
    private readonly creators: CreatorService,
    private readonly accounts: AdminUserService,
    private readonly notifications: NotificationService,
    private readonly log: ActionLog,
  ) {}

  async list(auth: AuthInfo, q: ParsedInput<'admin.complaints'>) {
    if (!isStaff(auth)) throw new AppError('FORBIDDEN');
    const { rows, total } = await this.repo.complaints(q.status, q.page, q.limit, q.q);
    return { items: rows.map(presentComplaint), statistics: pageStatistics(q.page, q.limit, total) };
  }

  async act(
    auth: AuthInfo,
    id: string,
    input: { response?: string; action: 'none' | 'remove_content' | 'suspend_user' },
  ) {
    if (!isStaff(auth)) throw new AppError('FORBIDDEN');
    const complaint = await this.repo.findComplaint(id);
    if (!complaint) throw new AppError('NOT_FOUND');
    const isPost = complaint.targetType === 'post' || complaint.targetType === 'story';
    if (input.action === 'remove_content') {
      if (!isPost) throw new AppError('VALIDATION_FAILED', {}, { action: 'invalid' });
      await this.posts.remove(auth, complaint.targetId).catch((err: unknown) => {
        if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      });
    }
    if (input.action === 'suspend_user') {
      const author = isPost
        ? await this.repo.postAuthor(complaint.targetId)
        : complaint.targetType === 'profile'
          ? (await this.creators.findCreatorByHandle(complaint.targetId))?.id
          : undefined;
      if (!author) throw new AppError('VALIDATION_FAILED', {}, { action: 'invalid' });
      await this.accounts.act(auth, author, 'suspend');
    }
    const response = input.response?.trim() ? input.response.trim() : null;
    await this.repo.resolveComplaint(id, response);
    await this.log.record(auth, 'complaint.resolve', 'complaint', id, { action: input.action, response });
    if (complaint.reporterId) {
      await this.notifications.notify(complaint.reporterId, 'report_resolved', {
        link: '/?feed=my-notifications',
        response: response ?? '',
      });
    }
    const row = await this.repo.complaintRow(id);
    if (!row) throw new AppError('NOT_FOUND');
    return presentComplaint(row);
  }
}
