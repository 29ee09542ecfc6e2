import type { PublicUser } from '@fanverse/contract';

export interface PublicUserRow {
  id: string;
  username: string;
  name: string;
  displayName: string | null;
  avatar: string | null;
  online: boolean;
  lastConnection: Date | null;
  verified: boolean;
}

/** Another person as anyone may see them: no email, no birth date. */
export function presentPublicUser(row: PublicUserRow): PublicUser {
  return {
    _id: row.id,
    user: row.username,
    name: row.displayName ?? row.name,
    avatar: row.avatar,
    online: row.online,
    lastConnection: row.lastConnection?.toISOString() ?? null,
    verified: row.verified,
  };
}
