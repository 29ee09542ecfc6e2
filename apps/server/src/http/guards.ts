import type { Role } from '@fanverse/contract';
import { isAdministrator, isStaff } from '../access/roles.ts';

/** Who is calling: the session's user and the session id. */
export interface AuthInfo {
  userId: string;
  sessionId: string;
  username: string;
  roles: Role[];
  verified: boolean;
}

export type Guard = (auth: AuthInfo) => boolean;

/** Every listed role is needed (spec §6 requireRoles). */
export const requireRoles =
  (...roles: Role[]): Guard =>
  (auth) =>
    roles.every((r) => auth.roles.includes(r));

/** Any one of the listed roles is enough (spec §6 requireSomeRoles). */
export const requireSomeRoles =
  (...roles: Role[]): Guard =>
  (auth) =>
    roles.some((r) => auth.roles.includes(r));

/** Staff only: admins, coordinators and super administrators (the moderators). */
export const requireStaff: Guard = (auth) => isStaff(auth);

/** Administrators only: admins and super administrators (verification, money). */
export const requireAdministrator: Guard = (auth) => isAdministrator(auth);
