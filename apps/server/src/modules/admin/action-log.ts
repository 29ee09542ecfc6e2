import type { AuthInfo } from '../../http/guards.ts';
import type { AdminRepository } from './admin.repository.ts';

/** Records who did what in the admin area, and when. */
export class ActionLog {
  constructor(private readonly repo: AdminRepository) {}

  record(
    auth: AuthInfo,
    action: string,
    targetType: string,
    targetId: string,
    details: Record<string, unknown> = {},
  ) {
    return this.repo.logAction({ adminId: auth.userId, action, targetType, targetId, details });
  }
}
