import { randomBytes } from 'node:crypto';
import type { UserRepository } from './user.repository.ts';

/** No password hash matches this: nobody signs in as the admin creator; staff post through it. */
const NO_PASSWORD = '!';

/**
 * The admin creator (spec §6, ADR 0033): the platform's official creator page, whose handle is
 * the app key name (`adminUser` of the start-up data). Made at start-up, once per database however
 * many copies start at the same time; an account that already has the handle counts as it.
 */
export async function ensureAdminCreator(
  users: UserRepository,
  app: { appKey: string; appName: string },
): Promise<{ id: string; created: boolean }> {
  return users.ensureAccount(
    {
      username: app.appKey,
      // ".invalid" is reserved (RFC 2606): no mail, no password reset, can never be anyone's.
      email: `${app.appKey}@admin-creator.invalid`,
      name: app.appName,
      passwordHash: NO_PASSWORD,
      roles: ['user', 'creator'],
      verified: true,
      language: 'en',
      referralCode: randomBytes(5).toString('hex'),
    },
    { displayName: app.appName },
  );
}
