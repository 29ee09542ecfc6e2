import type { ParsedInput } from '@fanverse/contract';
import { pageStatistics } from '@fanverse/contract';
import { isAdministrator, isStaff, isSuper } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { SessionRepository } from '../auth/session.repository.ts';
import type { ActionLog } from './action-log.ts';
import { presentAdminUser } from './admin.presenter.ts';
import type { AdminRepository } from './admin.repository.ts';

/** The admin lists of users, fans, creators and admins, and suspending or restoring accounts. */
export class AdminUserService {
  constructor(
    private readonly repo: AdminRepository,
    private readonly sessions: SessionRepository,
    private readonly log: ActionLog,
    private readonly onSessionsRevoked: (ids: string[]) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(auth: AuthInfo, q: ParsedInput<'admin.users'>) {
    if (!isStaff(auth)) throw new AppError('FORBIDDEN');
    const { rows, total } = await this.repo.users(q.role, q.q, q.page, q.limit);
    return {
      items: rows.map((r) => presentAdminUser(r.user, r.profile)),
      statistics: pageStatistics(q.page, q.limit, total),
    };
  }

  /**
   * Grants or takes away a staff role or the developer role; super administrators only, never on
   * themselves. Taking developer away stops the account's API tokens at once (ADR 0034).
   */
  async setRole(
    auth: AuthInfo,
    userId: string,
    role: ParsedInput<'admin.userRole'>['role'],
    grant: boolean,
  ): Promise<void> {
    if (!isSuper(auth)) throw new AppError('FORBIDDEN');
    if (userId === auth.userId) throw new AppError('FORBIDDEN');
    if (!(await this.repo.rolesOf(userId))) throw new AppError('NOT_FOUND');
    await this.repo.setRole(userId, role, grant, this.now());
    await this.log.record(auth, grant ? 'role.grant' : 'role.revoke', 'user', userId, { role });
  }

  /** Suspension ends every session of the account at once; restoring lets the person log in again. */
  async act(auth: AuthInfo, userId: string, action: 'suspend' | 'restore'): Promise<void> {
    if (!isAdministrator(auth)) throw new AppError('FORBIDDEN');
    if (userId === auth.userId) throw new AppError('FORBIDDEN');
    const roles = await this.repo.rolesOf(userId);
    if (!roles) throw new AppError('NOT_FOUND');
    if (isSuper({ roles }) && !isSuper(auth)) throw new AppError('FORBIDDEN');
    const at = this.now();
    await this.repo.setSuspended(userId, action === 'suspend', at);
    if (action === 'suspend') this.onSessionsRevoked(await this.sessions.revokeAll(userId, at));
    await this.log.record(auth, `user.${action}`, 'user', userId);
  }
}
