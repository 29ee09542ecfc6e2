import { profiles, users } from '../../db/schema.ts';

/**
 * The columns of another person as anyone may see them (users joined with profiles), shaped as
 * PublicUserRow for presentPublicUser. Queries select this instead of listing the fields again.
 */
export const publicUserColumns = {
  id: users.id,
  username: users.username,
  name: users.name,
  displayName: profiles.displayName,
  avatar: profiles.avatar,
  online: users.online,
  lastConnection: users.lastConnection,
  verified: users.verified,
};
