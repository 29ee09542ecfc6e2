import type { ApiScope, Role } from '@fanverse/contract';
import { isAdministrator, isStaff } from '../access/roles.ts';

/** Who is calling: the session's user and the session id. */
export interface AuthInfo {
  userId: string;
  sessionId: string;
  username: string;
  /** The roles in force (access/roles.ts `rolesInForce`). */
  roles: Role[];
  /** Roles held but withheld until the account turns two-step sign-in on (admin, super). */
  withheldRoles?: Role[];
  verified: boolean;
  /**
   * Set when the caller is a personal API token instead of a session (ADR 0034): the route layer
   * lets it through only to endpoints of its scopes, and `roles` never holds a staff role then.
   */
  apiToken?: { id: string; scopes: ApiScope[] };
}

export type Guard = (auth: AuthInfo) => boolean;

/**
 * The one place a guard is applied (http/route.ts): FORBIDDEN when the caller lacks the roles, but
 * TWO_FACTOR_REQUIRED when the roles it holds would pass once two-step sign-in is on.
 */
export function checkGuard(guard: Guard, auth: AuthInfo | null): 'ok' | 'forbidden' | 'needsTwoFactor' {
  if (!auth) return 'forbidden';
  if (guard(auth)) return 'ok';
  if (auth.withheldRoles?.length && guard({ ...auth, roles: [...auth.roles, ...auth.withheldRoles] })) {
    return 'needsTwoFactor';
  }
  return 'forbidden';
}

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
