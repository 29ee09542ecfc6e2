import { randomBytes } from 'node:crypto';
import type { Role } from '@fanverse/contract';
import { isAdministrator } from '../access/roles.ts';
import { hashPassword } from '../lib/crypto.ts';
import type { TwoFactorService } from '../modules/auth/two-factor.service.ts';
import type { UserRepository } from '../modules/users/user.repository.ts';
import { DEMO_STAFF_TOTP_SECRET } from './demo-staff.ts';

export interface DemoAccount {
  username: string;
  name: string;
  roles: Role[];
  verified: boolean;
  about?: string;
}

/** The demo accounts listed in the README. */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  { username: 'superadmin', name: 'Super Admin', roles: ['super', 'admin', 'user'], verified: true },
  {
    username: 'creator1',
    name: 'Luna Rivera',
    roles: ['user', 'creator'],
    verified: true,
    about: 'Fitness, travel and behind-the-scenes from my shoots.',
  },
  {
    username: 'creator2',
    name: 'Mateo Silva',
    roles: ['user', 'creator'],
    verified: true,
    about: 'Photographer. Weekly sets and the stories behind them.',
  },
  {
    username: 'creator3',
    name: 'Valentina Cruz',
    roles: ['user', 'creator'],
    verified: true,
    about: 'Cosplay, makeup tutorials and exclusive looks.',
  },
  { username: 'fanuser1', name: 'Alex Fan', roles: ['user', 'fan'], verified: true },
  { username: 'fanuser2', name: 'Sam Fan', roles: ['user', 'fan'], verified: false },
];

/** Seeds the demo accounts into an empty store; answers whether it did. */
export async function seedDemo(
  users: UserRepository,
  password: string,
  twoFactor: Pick<TwoFactorService, 'enrolKnownSecret'>,
): Promise<boolean> {
  if ((await users.countUsers()) > 0) return false;
  const passwordHash = await hashPassword(password);
  for (const account of DEMO_ACCOUNTS) {
    const user = await users.create(
      {
        username: account.username,
        email: `${account.username}@fanverse.local`,
        name: account.name,
        passwordHash,
        birthdate: '1995-06-15',
        roles: account.roles,
        verified: account.verified,
        language: 'en',
        referralCode: randomBytes(4).toString('hex'),
        referredBy: null,
        country: 'CO',
      },
      { displayName: account.name, about: account.about ?? null },
    );
    if (isAdministrator(account)) await twoFactor.enrolKnownSecret(user.id, DEMO_STAFF_TOTP_SECRET);
  }
  return true;
}
