import type { Role } from '@fanverse/contract';
import { and, count, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications, type ProfileRow, profiles, type UserRow, users } from '../../db/schema.ts';

export interface NewUser {
  username: string;
  email: string;
  name: string;
  passwordHash: string;
  /** False for an account made by a sign-in provider (a random password nobody knows). */
  passwordSet?: boolean;
  birthdate: string;
  roles: Role[];
  verified: boolean;
  language: string;
  referralCode: string;
  referredBy: string | null;
  country?: string | null;
}

export type UserWithProfile = UserRow & { profile: ProfileRow | null };

export interface ProfileChanges {
  user: Partial<Pick<UserRow, 'username' | 'name' | 'birthdate' | 'country' | 'language'>>;
  profile: Partial<
    Pick<
      ProfileRow,
      | 'displayName'
      | 'about'
      | 'location'
      | 'avatar'
      | 'cover'
      | 'subscriptionPriceCents'
      | 'discountStatus'
      | 'discountPercent'
      | 'discountDateLimit'
      | 'visibleWatermark'
    >
  >;
}

/** Someone a handle names. */
export interface Person {
  id: string;
  username: string;
}

function preparePersonByHandle(db: Db) {
  return db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(
      and(
        sql`lower(${users.username}) = ${sql.placeholder('handle')}`,
        isNull(users.deletedAt),
        isNull(users.suspendedAt),
      ),
    )
    .limit(1)
    .prepare('person_by_handle');
}

/** Users and their profiles. Queries only. */
export class UserRepository {
  constructor(private readonly db: Db) {}

  /** Who a user is for their live counters (roles decide the admin ones): three columns, no profile. */
  async identity(id: string): Promise<{ username: string; roles: Role[]; verified: boolean } | undefined> {
    const [row] = await this.db
      .select({ username: users.username, roles: users.roles, verified: users.verified })
      .from(users)
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .limit(1);
    return row;
  }

  /**
   * The active account (neither deleted nor suspended) a handle names, case-insensitively: its id
   * and username as written. Prepared once: every direct message asks it for its receiver.
   */
  async personByHandle(handle: string): Promise<Person | undefined> {
    this.byHandle ??= preparePersonByHandle(this.db);
    const [row] = await this.byHandle.execute({ handle: handle.toLowerCase() });
    return row;
  }

  private byHandle?: ReturnType<typeof preparePersonByHandle>;

  async findById(id: string): Promise<UserWithProfile | undefined> {
    const rows = await this.db
      .select()
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .limit(1);
    const row = rows[0];
    return row ? { ...row.users, profile: row.profiles } : undefined;
  }

  /** By username or email, case-insensitively. */
  async findByLogin(login: string): Promise<UserRow | undefined> {
    const l = login.toLowerCase();
    const rows = await this.db
      .select()
      .from(users)
      .where(
        and(
          or(sql`lower(${users.username}) = ${l}`, sql`lower(${users.email}) = ${l}`),
          isNull(users.deletedAt),
        ),
      )
      .limit(1);
    return rows[0];
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const rows = await this.db
      .select()
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt)))
      .limit(1);
    return rows[0];
  }

  /** A deleted account's code stays on its row (the ledger's referrals) but refers nobody new. */
  async findByReferralCode(code: string): Promise<UserRow | undefined> {
    const rows = await this.db
      .select()
      .from(users)
      .where(and(eq(users.referralCode, code), isNull(users.deletedAt)))
      .limit(1);
    return rows[0];
  }

  async usernameTaken(username: string, exceptId?: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          sql`lower(${users.username}) = ${username.toLowerCase()}`,
          exceptId ? ne(users.id, exceptId) : undefined,
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  async emailTaken(email: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
      .limit(1);
    return rows.length > 0;
  }

  async countUsers(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(users);
    return row?.n ?? 0;
  }

  /** Creates the user and an empty profile in one transaction. */
  async create(input: NewUser, profile: Partial<ProfileRow> = {}): Promise<UserRow> {
    return this.db.transaction(async (tx) => {
      const [user] = await tx.insert(users).values(input).returning();
      if (!user) throw new Error('insert returned no row');
      await tx.insert(profiles).values({ ...profile, userId: user.id });
      return user;
    });
  }

  /**
   * Makes an account once: several server copies starting together may all ask, the handle's
   * unique index lets one insert win and the others do nothing. An account already holding the
   * handle is kept as it is. Answers its id and whether this call made it.
   */
  async ensureAccount(
    input: Omit<NewUser, 'birthdate' | 'referredBy'>,
    profile: Partial<ProfileRow>,
  ): Promise<{ id: string; created: boolean }> {
    const [made] = await this.db
      .insert(users)
      .values({ ...input, referredBy: null, termsAcceptedAt: new Date() })
      .onConflictDoNothing()
      .returning({ id: users.id });
    const id = made?.id ?? (await this.findByLogin(input.username))?.id;
    if (!id) throw new Error(`account ${input.username} neither made nor found`);
    // Also when a copy stopped between the two statements: the next start adds the profile.
    await this.db
      .insert(profiles)
      .values({ ...profile, userId: id })
      .onConflictDoNothing();
    return { id, created: !!made };
  }

  async update(id: string, changes: ProfileChanges): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (Object.keys(changes.user).length) {
        await tx
          .update(users)
          .set({ ...changes.user, updatedAt: new Date() })
          .where(eq(users.id, id));
      }
      if (Object.keys(changes.profile).length) {
        await tx
          .update(profiles)
          .set({ ...changes.profile, updatedAt: new Date() })
          .where(eq(profiles.userId, id));
      }
    });
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db
      .update(users)
      .set({ passwordHash, passwordSet: true, updatedAt: new Date() })
      .where(eq(users.id, id));
  }

  async setPresence(id: string, online: boolean, at: Date): Promise<void> {
    await this.db.update(users).set({ online, lastConnection: at }).where(eq(users.id, id));
  }

  /** Verified creators shown to visitors, newest first. */
  async landingCreators(limit: number) {
    return this.db
      .select({
        username: users.username,
        name: users.name,
        displayName: profiles.displayName,
        avatar: profiles.avatar,
      })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(
        and(
          sql`'creator' = ANY(${users.roles})`,
          eq(users.verified, true),
          isNull(users.deletedAt),
          isNull(users.suspendedAt),
        ),
      )
      .orderBy(users.createdAt)
      .limit(limit);
  }

  async unreadNotifications(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    return row?.n ?? 0;
  }
}
