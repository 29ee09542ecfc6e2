import type { Counters, Profile, Role, SessionUser } from '@fanverse/contract';
import { ROLES } from '@fanverse/contract';
import type { UserRow } from '../../db/schema.ts';
import type { UserWithProfile } from './user.repository.ts';

const roles = (values: string[]): Role[] =>
  values.filter((r): r is Role => (ROLES as readonly string[]).includes(r));
const language = (value: string): 'en' | 'es' => (value === 'es' ? 'es' : 'en');

/** The session user of spec §3; `subscriptions` are the live ones with their DynamicPricingID. */
export function presentSessionUser(
  user: UserRow & { profile?: UserWithProfile['profile'] },
  subscriptions: SessionUser['subscriptions'] = [],
): SessionUser {
  return {
    _id: user.id,
    id: user.id,
    user: user.username,
    name: user.name,
    email: user.email,
    country: user.country,
    roles: roles(user.roles),
    verified: user.verified,
    avatar: user.profile?.avatar ?? null,
    language: language(user.language),
    subscriptions,
  };
}

/** The own profile of spec §3. */
export function presentProfile(user: UserWithProfile, unread: number, counters: Counters): Profile {
  return {
    _id: user.id,
    username: user.username,
    name: user.name,
    displayName: user.profile?.displayName ?? null,
    about: user.profile?.about ?? null,
    location: user.profile?.location ?? null,
    birthdate: user.birthdate,
    country: user.country,
    email: user.email,
    avatar: user.profile?.avatar ?? null,
    cover: user.profile?.cover ?? null,
    visibleWatermark: user.profile?.visibleWatermark ?? false,
    roles: roles(user.roles),
    verified: user.verified,
    online: user.online,
    lastConnection: user.lastConnection?.toISOString() ?? null,
    language: language(user.language),
    createdAt: user.createdAt.toISOString(),
    notifications: unread,
    counters,
  };
}
