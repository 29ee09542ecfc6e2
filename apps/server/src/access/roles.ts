import { ADMIN_ROLES, ADMINISTRATOR_ROLES, type Role } from '@fanverse/contract';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/** Whoever is asking: a signed-in user's id and roles, or nobody. */
export type Viewer = { userId: string; roles: readonly Role[] } | null | undefined;

/** Anyone with roles: a viewer or a user row (whose roles column is plain text). */
type WithRoles = { roles: readonly string[] };

/** A role check that also narrows away null and undefined (`if (!isCreator(row)) throw …`). */
const holdsSome =
  (roles: readonly Role[]) =>
  <T extends WithRoles>(who: T | null | undefined): who is T =>
    !!who && who.roles.some((r) => (roles as readonly string[]).includes(r));

/** Staff (admins, coordinators, super administrators) moderate content and use the admin area. */
export const isStaff = holdsSome(ADMIN_ROLES);

/** Administrators (admins and super administrators) also verify creators and decide money matters. */
export const isAdministrator = holdsSome(ADMINISTRATOR_ROLES);

export const isSuper = holdsSome(['super']);

export const isCreator = holdsSome(['creator']);

/**
 * The roles a session may use (issue 18): administrator roles (admin, super) act only once the
 * account has two-step sign-in on; with `allStaff` (the super's setting "Require two-step sign-in
 * for all staff", ADR 0027) coordinators too. Without it they are withheld, so no guard and no access
 * rule anywhere sees them; the route answers TWO_FACTOR_REQUIRED where they would have been enough.
 */
export function rolesInForce(
  roles: readonly Role[],
  twoFactor: boolean,
  allStaff: boolean,
): { roles: Role[]; withheld: Role[] } {
  if (twoFactor) return { roles: [...roles], withheld: [] };
  const guarded: readonly Role[] = allStaff ? ADMIN_ROLES : ADMINISTRATOR_ROLES;
  const needs = (r: Role) => guarded.includes(r);
  return { roles: roles.filter((r) => !needs(r)), withheld: roles.filter(needs) };
}

/** The viewer made the thing (a post, a gallery item…). */
export const isOwner = (viewer: Viewer, thing: { creatorId: string }): boolean =>
  !!viewer && viewer.userId === thing.creatorId;

// Role names are constants of the contract, never user input: inlined so plans do not vary.
const rolesArray = (roles: readonly Role[]) =>
  sql.raw(`ARRAY[${roles.map((r) => `'${r}'`).join(',')}]::text[]`);

/** SQL: a `roles` column holds a staff role. */
export const staffSql = (roles: SQLWrapper): SQL => sql`(${roles} && ${rolesArray(ADMIN_ROLES)})`;

/** SQL: a `roles` column holds the creator role. */
export const creatorSql = (roles: SQLWrapper): SQL => sql`('creator' = ANY(${roles}))`;

/** SQL: a fan account, neither creator nor staff (how statistics and the accounts list count fans). */
export const fanAccountSql = (roles: SQLWrapper): SQL =>
  sql`(NOT ${creatorSql(roles)} AND NOT ${staffSql(roles)})`;

/**
 * SQL: listed in the people directory (`?view=user`): creators and fans; staff-only accounts
 * (admins, coordinators, super administrators without the creator role) never.
 */
export const directoryListedSql = (roles: SQLWrapper): SQL =>
  sql`(${creatorSql(roles)} OR ${fanAccountSql(roles)})`;
