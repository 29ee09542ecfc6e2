import type { AdminUser, Complaint, Role } from '@fanverse/contract';
import { ROLES } from '@fanverse/contract';
import type { ProfileRow, UserRow } from '../../db/schema.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import type { ComplaintRow } from './admin.repository.ts';

/** A person as admins see them: with email and roles, never the password hash. */
export function presentAdminUser(user: UserRow, profile: ProfileRow | null): AdminUser {
  return {
    ...presentPublicUser({
      id: user.id,
      username: user.username,
      name: user.name,
      displayName: profile?.displayName ?? null,
      avatar: profile?.avatar ?? null,
      online: user.online,
      lastConnection: user.lastConnection,
      verified: user.verified,
    }),
    email: user.email,
    roles: user.roles.filter((r): r is Role => (ROLES as readonly string[]).includes(r)),
    suspended: user.suspendedAt !== null,
    deletedAt: user.deletedAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}

export function presentComplaint(row: ComplaintRow): Complaint {
  return {
    _id: row.id,
    reporter: row.reporter ? presentPublicUser(row.reporter) : null,
    targetType: row.targetType as Complaint['targetType'],
    targetId: row.targetId,
    reason: row.reason as Complaint['reason'],
    details: row.details,
    status: row.status,
    response: row.response,
    action: row.action,
    date: row.createdAt.toISOString(),
  };
}
