import type { Role, SessionUser } from '@fanverse/contract';
import { hasSomeRole } from '../../app/session.store.ts';

/** Admin areas of spec §2 with the roles the server lets in (spec §6). */
export const ADMIN_AREA_ROLES = {
  home: ['admin', 'coord', 'super'],
  sales: ['admin', 'super'],
  complaints: ['admin', 'coord', 'super'],
  verifications: ['admin', 'super'],
  bags: ['admin', 'super'],
  fans: ['admin', 'coord', 'super'],
  users: ['admin', 'coord', 'super'],
  creators: ['admin', 'coord', 'super'],
  profiles: ['admin', 'super'],
  statistics: ['admin', 'coord', 'super'],
} as const satisfies Record<string, readonly Role[]>;

export type AdminArea = keyof typeof ADMIN_AREA_ROLES;

export function isAdminArea(value: string): value is AdminArea {
  return Object.hasOwn(ADMIN_AREA_ROLES, value);
}

export function areaAllowed(area: AdminArea, user: SessionUser | null): boolean {
  return hasSomeRole(user, ADMIN_AREA_ROLES[area]);
}
